"""The runs folder as the watch and leaderboard pages see it: recordings and bench results.

A recording is any ``*.jsonl`` whose first line is a Recorder ``reset`` line; a bench results file
is a ``results.jsonl`` written by ``fdegym bench``. Paths from the browser are resolved inside the
runs folder only.

Example:
    >>> resolve_in(Path("/tmp/runs"), "../etc/passwd")             # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ValueError: '../etc/passwd' is outside the runs folder
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAX_FILES = 2000


def resolve_in(root: Path, rel: str) -> Path:
    """``root / rel``, refusing anything that leaves ``root`` (``..``, absolute paths, symlinks out)."""
    if not rel or "\x00" in rel:
        raise ValueError("give the path of a recording inside the runs folder")
    target = (root / rel).resolve()
    if target != root.resolve() and root.resolve() not in target.parents:
        raise ValueError(f"{rel!r} is outside the runs folder")
    if not target.is_file():
        raise ValueError(f"{rel!r} is not a file in the runs folder")
    return target


def _first_line(p: Path) -> dict[str, Any] | None:
    try:
        with open(p, encoding="utf-8") as f:
            line = f.readline()
        rec = json.loads(line)
        return rec if isinstance(rec, dict) else None
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return None


def find_recordings(root: Path) -> list[dict[str, Any]]:
    """Every recording under ``root``, newest first, with its task, level, agent and score."""
    if not root.is_dir():
        return []
    out = []
    for p in sorted(root.rglob("*.jsonl"))[:MAX_FILES]:
        head = _first_line(p)
        if not head or head.get("type") != "reset":
            continue
        from fdegym_env.wrappers.recorder import load_recording
        try:
            eps = load_recording(p)
        except ValueError:
            continue
        for i, ep in enumerate(eps):
            h = ep.header
            out.append({"path": p.relative_to(root).as_posix(), "episode": i, "task": h.get("task"),
                        "level": h.get("level"), "variant": h.get("variant"), "agent": h.get("agent"),
                        "seed": h.get("seed"), "created": h.get("created"), "steps": len(ep.steps),
                        "score": (ep.result or {}).get("score"), "mtime": p.stat().st_mtime})
    return sorted(out, key=lambda r: (-r["mtime"], r["path"], r["episode"]))


def load_watch(path: Path, episode: int = 0) -> dict[str, Any]:
    """One recorded episode as the viewer steps through it."""
    from fdegym_env.wrappers.recorder import load_recording
    eps = load_recording(path)
    if not 0 <= episode < len(eps):
        raise ValueError(f"{path.name} holds {len(eps)} episode(s); there is no episode {episode}")
    ep = eps[episode]
    steps, ret = [], 0.0
    for s in ep.steps:
        ret += float(s.get("reward") or 0.0)
        obs = s.get("observation") or {}
        info = s.get("info") or {}
        steps.append({"turn": s.get("turn"), "action": s.get("action"), "text": obs.get("text", ""),
                      "reward": s.get("reward"), "return": round(ret, 6), "hours": obs.get("hours"),
                      "customer_time": info.get("customer_time"), "contact_cost": info.get("contact_cost"),
                      "valid": bool(obs.get("valid", 1)), "error": info.get("last_action_error")})
    h = ep.header
    return {"header": {k: h.get(k) for k in ("task", "variant", "level", "seed", "agent", "created")},
            "brief": (h.get("observation") or {}).get("text", ""), "steps": steps, "result": ep.result}


def load_all_results(root: Path) -> list[dict[str, Any]]:
    """Results from bench folders (``results.jsonl``) and from recordings' result lines."""
    results: list[dict[str, Any]] = []
    if not root.is_dir():
        return results
    from fdegym_env.evaluation.batch import load_results
    from fdegym_env.evaluation.report import latest_results
    for p in sorted(root.rglob("results.jsonl"))[:MAX_FILES]:
        try:
            rows = load_results(p)
        except ValueError:   # a damaged file: the leaderboard shows the rest
            continue
        results.extend(latest_results([r for r in rows if isinstance(r, dict) and "score" in r]))
    for rec in find_recordings(root):
        if rec["score"] is None:
            continue
        from fdegym_env.wrappers.recorder import load_recording
        ep = load_recording(root / rec["path"])[rec["episode"]]
        r = dict(ep.result or {})
        r.setdefault("agent", rec["agent"])
        r.setdefault("level", rec["level"])
        results.append(r)
    return results


def leaderboard(root: Path, level: float = 0.95) -> dict[str, Any]:
    """The report table and per-scenario means over everything in ``root``, plus a plot file."""
    from fdegym_env.evaluation.report import per_scenario, plot_report, summarize
    results = load_all_results(root)
    if not results:
        return {"runs": 0, "table": [], "per_scenario": {"configs": [], "rows": []}, "plot": None, "ci_level": level}
    rep = {"source": str(root), "runs": len(results), "ci_level": level, "table": summarize(results, level),
           "per_scenario": per_scenario(results), "failed_runs": [], "results": results}
    plot = root / ".workbench" / "leaderboard.png"
    plot.parent.mkdir(parents=True, exist_ok=True)
    try:
        plot_report(rep, plot)
        rep["plot"] = plot
    except Exception:  # matplotlib missing: the table still shows
        rep["plot"] = None
    return rep
