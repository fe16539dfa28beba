"""HTML for the workbench pages: Jinja2 templates shipped beside this module (``templates/``),
rendered with autoescaping, so nothing a task, a person or an agent wrote can inject markup."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup


def _script_json(x: Any) -> Markup:
    """JSON safe inside a <script> element (no markup characters survive)."""
    text = json.dumps(x, default=str).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


@lru_cache(maxsize=1)
def _env() -> Environment:
    env = Environment(loader=PackageLoader("fdegym_env.web", "templates"), autoescape=select_autoescape(["html"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["tojson_safe"] = _script_json
    env.filters["markdown"] = markdown
    env.filters["money"] = lambda x: "-" if x is None else f"{float(x):.3f}"
    return env


def markdown(text: str) -> Markup:
    """A brief as HTML: markdown-it in its commonmark mode with raw HTML off (so nothing can inject
    markup); plain escaped text when markdown-it is not installed."""
    try:
        from markdown_it import MarkdownIt
    except ImportError:
        from markupsafe import escape
        return Markup(f"<pre>{escape(text)}</pre>")
    return Markup(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))


def render(name: str, **ctx: Any) -> str:
    return _env().get_template(name).render(**ctx)


def _cut(text: str, width: int = 60) -> str:
    """An argument as the timeline shows it: quoted, and cut with an ellipsis past ``width``."""
    return repr(text) if len(text) <= width else repr(text[:width]) + "…"


def timeline_row(e: Any, practice: bool = False) -> dict[str, Any]:
    """One timeline entry as JSON for the work page (rewards and running cost only in practice mode,
    since an agent never sees them)."""
    a = dict(e.action)
    tool = a.pop("tool", a.pop("name", "?"))
    short = ", ".join(f"{k}={_cut(str(v))}" for k, v in a.items() if k != "content")
    return {"turn": e.turn, "tool": tool, "args": short, "valid": e.valid,
            "reward": round(e.reward, 6) if practice else None,
            "customer_time": e.customer_time, "cost_so_far": round(e.cost_so_far, 4) if practice else None}


def catalog(rows: list[dict[str, Any]], mine: list[dict[str, Any]] | None = None) -> str:
    return render("catalog.html", rows=rows, mine=mine or [], title="Catalog")


def work(ws: Any) -> str:
    core = ws.core
    return render("work.html", ws=ws, task=core.task, level=core.episode_level, variant=core.variant,
                  status=ws.status(), files=ws.files(), timeline=[timeline_row(e, ws.mode == "practice") for e in ws.timeline],
                  title=f"{core.task.id} ({core.episode_level})")


def verdict(ws: Any, v: dict[str, Any]) -> str:
    return render("verdict.html", ws=ws, v=v, r=v["result"], task=ws.core.task, title="Verdict")


def runs(recordings: list[dict[str, Any]], root: Any) -> str:
    return render("runs.html", recordings=recordings, root=str(root), title="Runs")


def watch(rel: str, data: dict[str, Any]) -> str:
    return render("watch.html", rel=rel, data=data, title=f"Watch {data['header'].get('task')}")


def leaderboard(board: dict[str, Any]) -> str:
    return render("leaderboard.html", board=board, title="Leaderboard")


def error(status: int, message: str) -> str:
    return render("error.html", status=status, message=message, title=f"Error {status}")


def profile(name: str, mine: list[dict[str, Any]], best: dict[str, float]) -> str:
    return render("profile.html", person=name, mine=mine, best=best,
                  minutes=round(sum(float(m.get("minutes") or 0) for m in mine), 1), title="Profile")
