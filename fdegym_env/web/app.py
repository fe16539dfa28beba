"""The workbench web app: catalog, work a task, watch a run, leaderboard (``fdegym serve``).

Pages (server-rendered HTML, a little plain JavaScript, no build step):

    GET  /                        the catalog of tasks (and registered harness cases)
    POST /start                   start an episode (task, level, variant or sample, seed) -> /work/<id>
    GET  /work/<id>               work it: files and editor, terminal, people and inbox, clock, timeline
    GET  /work/<id>/verdict       the graded result once the episode has ended (hints used, retry)
    POST /name, GET /profile      a person's name (a cookie) and their episodes, best score per task, time
    GET  /runs                    recordings and bench results under the runs folder
    GET  /watch?path=…            step through one recording
    GET  /leaderboard             the `fdegym report` table over the runs folder, with its plot

JSON API used by the work page: ``POST /api/work/<id>/act`` (one env action), ``GET
/api/work/<id>/state``, ``POST /api/work/<id>/hint`` (practice mode), ``GET /api/work/<id>/file?path=…`` (the editor's copy of a file already read).

Every episode belongs to the browser session (cookie) that started it and runs in its own sandbox;
every action goes through the env and is recorded, so ``fdegym replay`` reproduces the episode.

Example:
    >>> from starlette.testclient import TestClient            # doctest: +SKIP
    >>> client = TestClient(create_app(runs_dir="runs"))       # doctest: +SKIP
    >>> client.get("/").status_code                            # doctest: +SKIP
    200
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from fdegym_env.core.task import LEVELS
from fdegym_env.web import views
from fdegym_env.web.runs import find_recordings, leaderboard, load_watch, resolve_in
from fdegym_env.web.sessions import SessionStore, StoreFull

COOKIE = "fdegym_sid"
NAME_COOKIE = "fdegym_name"          # the name a person goes by on the leaderboard (no accounts)
_NAME = re.compile(r"[^A-Za-z0-9 _.-]")
STATIC = Path(__file__).with_name("static")


def _sid(request: Request) -> str:
    """The browser session's id: its cookie, or a new one (set on the response by :func:`_with_cookie`)."""
    sid = request.cookies.get(COOKIE)
    if sid:
        return sid
    if not hasattr(request.state, "new_sid"):
        request.state.new_sid = secrets.token_hex(16)
    return request.state.new_sid


def _with_cookie(resp: Response, request: Request) -> Response:
    if not request.cookies.get(COOKIE):
        resp.set_cookie(COOKIE, _sid(request), httponly=True, samesite="strict")
    return resp


def _page(body: str, request: Request, status: int = 200) -> Response:
    return _with_cookie(HTMLResponse(body, status_code=status), request)


def catalog_rows(cases_dirs: list[str] | None = None) -> list[dict[str, Any]]:
    """Every shipped task and registered harness case, as the catalog shows them."""
    from fdegym_env.core.registry import list_tasks, load_task
    rows = []
    for tid in list_tasks():
        t = load_task(tid)
        rows.append({"ref": tid, "id": t.id, "gym_id": t.gym_id, "sector": t.sector, "customer": t.customer,
                     "sponsor": t.sponsor, "headline": getattr(t, "agent_title", None) or "",
                     "metric": t.metric, "variants": sorted(t.variants), "sampler": t.has_sampler,
                     "levels": list(LEVELS), "kind": "task"})
    try:
        from fdegym_env.harness import _CASES, register_cases, register_from_env
        register_from_env()
        for d in cases_dirs or []:
            register_cases(d)
        for gid, c in sorted(_CASES.items()):
            rows.append({"ref": str(c.path), "id": c.id, "gym_id": gid, "sector": getattr(c, "sector", "") or "case",
                         "customer": getattr(c, "customer", "") or "", "sponsor": getattr(c, "sponsor", None),
                         "headline": "", "metric": getattr(c, "metric", {}) or {}, "variants": sorted(c.variants),
                         "sampler": False, "levels": list(LEVELS), "kind": "harness case"})
    except Exception:  # a broken case folder must not take the catalog down
        pass
    return rows


def _refuse_wait(action: dict[str, Any]) -> str | None:
    """A person's ``wait`` beyond the tool's documented range is refused before it reaches the env."""
    from fdegym_env.core.env import WAIT_MAX_HOURS
    if (action.get("tool") or action.get("name")) != "wait":
        return None
    try:
        hours = float(action["hours"])
    except (KeyError, TypeError, ValueError):
        return f"wait needs a number of hours between 0 and {WAIT_MAX_HOURS:g}, got {action.get('hours')!r}"
    if not 0 < hours <= WAIT_MAX_HOURS:
        return (f"one wait is at most {WAIT_MAX_HOURS:g} hours (the tool's limit), got {hours:g}; "
                f"wait several times if you need longer")
    return None


def create_app(runs_dir: str | Path = "runs", sandbox: str = "auto", cases_dirs: list[str] | None = None,
               **store_options: Any) -> Starlette:
    """Build the app. ``runs_dir``: recordings are written to ``<runs_dir>/workbench`` and the
    watch and leaderboard pages read the whole folder. ``store_options`` go to :class:`SessionStore`
    (``max_episodes``, ``wall_seconds``, ``evict_idle_seconds``)."""
    runs = Path(runs_dir).resolve()
    store = SessionStore(runs, sandbox=sandbox, **store_options)
    catalog_cache: list[list[dict[str, Any]]] = []

    def tasks() -> list[dict[str, Any]]:
        if not catalog_cache:                      # tasks do not change while the server runs
            catalog_cache.append(catalog_rows(cases_dirs))
        return catalog_cache[0]

    async def catalog(request: Request) -> Response:
        return _page(views.catalog(tasks(), store.mine(_sid(request))), request)

    async def start(request: Request) -> Response:
        form = await request.form()
        task = str(form.get("task", ""))
        level = str(form.get("level", "L3"))
        variant = str(form.get("variant", "base")).strip() or "base"
        seed_text = str(form.get("seed", "0")).strip() or "0"
        mode = str(form.get("mode", "exam")).strip() or "exam"
        if not seed_text.lstrip("-").isdigit():
            raise HTTPException(400, f"seed must be a whole number, got {seed_text!r}")
        if int(seed_text) < 0:
            raise HTTPException(400, f"seed must be 0 or more, got {seed_text}; pick any whole number from 0")
        known = {r["ref"] for r in tasks()}
        if task not in known:
            raise HTTPException(400, f"unknown task {task!r}; pick one from the catalog")
        from starlette.concurrency import run_in_threadpool
        try:
            ws = await run_in_threadpool(store.start, _sid(request), task, level, variant, int(seed_text), mode,
                                          request.cookies.get(NAME_COOKIE, ""))
        except ValueError as e:
            raise HTTPException(400, str(e)) from None
        except StoreFull as e:
            raise HTTPException(503, str(e)) from None
        return _with_cookie(RedirectResponse(f"/work/{ws.id}", status_code=303), request)

    async def set_name(request: Request) -> Response:
        form = await request.form()
        name = _NAME.sub("", str(form.get("name", ""))).strip()[:40]
        resp = _with_cookie(RedirectResponse("/profile", status_code=303), request)
        resp.set_cookie(NAME_COOKIE, name, max_age=10 * 365 * 86400, samesite="strict")
        return resp

    async def profile(request: Request) -> Response:
        mine = store.mine(_sid(request))
        best: dict[str, float] = {}
        for m in mine:
            if m.get("score") is not None:
                best[m["task"]] = max(best.get(m["task"], -9.0), float(m["score"]))
        return _page(views.profile(request.cookies.get(NAME_COOKIE, ""), mine, best), request)

    def _episode(request: Request):
        try:
            return store.get(request.path_params["eid"], _sid(request))   # restored from its recording if need be
        except KeyError:
            raise HTTPException(404, "no such episode in this browser session (it may have been closed); "
                                     "start one from the catalog") from None

    async def work(request: Request) -> Response:
        ws = _episode(request)
        return _page(views.work(ws), request)

    async def verdict(request: Request) -> Response:
        ws = _episode(request)
        if not ws.done:
            return RedirectResponse(f"/work/{ws.id}", status_code=303)
        return _page(views.verdict(ws, ws.verdict()), request)

    async def api_act(request: Request) -> Response:
        ws = _episode(request)
        try:
            action = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return JSONResponse({"error": "the body must be one JSON action, e.g. {\"tool\": \"list_files\"}"}, 400)
        if not isinstance(action, dict):
            return JSONResponse({"error": f"expected a JSON object, got {type(action).__name__}"}, 400)
        refused = _refuse_wait(action)
        if refused:
            return JSONResponse({"error": refused}, 400)
        from starlette.concurrency import run_in_threadpool
        out = await run_in_threadpool(ws.act, action)
        if out.get("terminated"):
            out["verdict_url"] = f"/work/{ws.id}/verdict"
        return JSONResponse(out)

    async def api_state(request: Request) -> Response:
        ws = _episode(request)
        return JSONResponse({"status": ws.status(), "files": ws.files(), "directory": ws.directory(),
                             "chats": ws.chats, "inbox": ws.inbox, "timeline": [views.timeline_row(e, ws.mode == "practice") for e in ws.timeline],
                             "hints": ws.hints_used})

    async def api_hint(request: Request) -> Response:
        ws = _episode(request)
        try:
            return JSONResponse(ws.hint())
        except PermissionError as e:
            return JSONResponse({"error": str(e)}, 403)

    async def api_file(request: Request) -> Response:
        ws = _episode(request)
        path = request.query_params.get("path", "")
        try:
            return JSONResponse({"path": path, "content": ws.raw_file(path)})
        except PermissionError as e:
            return JSONResponse({"error": str(e)}, 403)
        except (OSError, ValueError) as e:
            return JSONResponse({"error": f"cannot open {path!r}: {e}"}, 400)

    async def runs_page(request: Request) -> Response:
        return _page(views.runs(find_recordings(runs), runs), request)

    async def watch(request: Request) -> Response:
        rel = request.query_params.get("path", "")
        try:
            episode = int(request.query_params.get("episode", "0"))
        except ValueError:
            raise HTTPException(400, "episode must be a number") from None
        try:
            path = resolve_in(runs, rel)
            data = load_watch(path, episode)
        except (ValueError, OSError) as e:
            raise HTTPException(400, str(e)) from None
        return _page(views.watch(rel, data), request)

    async def leaderboard_page(request: Request) -> Response:
        return _page(views.leaderboard(leaderboard(runs)), request)

    async def leaderboard_png(request: Request) -> Response:
        plot = runs / ".workbench" / "leaderboard.png"
        if not plot.is_file() and leaderboard(runs).get("plot") is None:
            raise HTTPException(404, "no results to plot yet")
        return FileResponse(plot, media_type="image/png", headers={"Cache-Control": "no-store"})

    async def http_error(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": exc.detail}, exc.status_code)
        return _page(views.error(exc.status_code, str(exc.detail)), request, exc.status_code)

    async def server_error(request: Request, exc: Exception) -> Response:
        msg = f"{type(exc).__name__}: {exc}"
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": msg}, 500)
        return HTMLResponse(views.error(500, msg), status_code=500)

    routes = [
        Route("/", catalog), Route("/start", start, methods=["POST"]),
        Route("/work/{eid}", work), Route("/work/{eid}/verdict", verdict),
        Route("/api/work/{eid}/act", api_act, methods=["POST"]), Route("/api/work/{eid}/state", api_state),
        Route("/api/work/{eid}/file", api_file), Route("/api/work/{eid}/hint", api_hint, methods=["POST"]),
        Route("/name", set_name, methods=["POST"]), Route("/profile", profile),
        Route("/runs", runs_page), Route("/watch", watch),
        Route("/leaderboard", leaderboard_page), Route("/leaderboard.png", leaderboard_png),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        store.close_all()                 # every episode's sandbox and workspace go with the server

    # starlette types every handler as taking an Exception, not the class it is registered for
    handlers = {HTTPException: http_error, Exception: server_error}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)  # type: ignore[arg-type]
    app.state.store = store
    return app
