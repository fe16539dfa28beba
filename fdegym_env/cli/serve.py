"""``fdegym serve``: the workbench web app on this machine (extra ``[web]``).

    fdegym serve [--port 8765] [--host 127.0.0.1] [--runs runs] [--sandbox auto] [--cases DIR]
"""

from __future__ import annotations

import sys

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _setup(p) -> None:
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--runs", default="runs", help="recordings go to RUNS/workbench; watch and leaderboard read RUNS")
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--cases", action="append", default=[], help="a folder of harness cases to list (repeatable)")


def cmd_serve(a) -> int:
    """Serve the workbench: catalog, work a task, watch a run, leaderboard."""
    try:
        import uvicorn

        from fdegym_env.web.app import create_app
    except ImportError as e:
        print(f"error: the workbench needs the [web] extra ({e.name} is missing).\n"
              f"fix: pip install 'fdegym[web]'", file=sys.stderr)
        return 2
    if a.host not in LOCAL_HOSTS:
        print(f"warning: binding to {a.host}: anyone who can reach this address can start episodes and run "
              "commands in their sandboxes. Use --host 127.0.0.1 unless you mean it.", file=sys.stderr)
    app = create_app(runs_dir=a.runs, sandbox=a.sandbox, cases_dirs=a.cases)
    print(f"fdegym workbench on http://{a.host}:{a.port}/  (runs: {a.runs}; Ctrl-C stops it)", flush=True)
    uvicorn.run(app, host=a.host, port=a.port, log_level="warning")
    return 0


def _env_setup(p) -> None:
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--task", default="news_incident", help="each session's default task (reset can name another)")
    p.add_argument("--level", default="L3", choices=["L0", "L1", "L2", "L3"])
    p.add_argument("--variant", default="base")
    p.add_argument("--max-episodes", type=int, default=8, help="concurrent sessions, one env each")
    p.add_argument("--idle-timeout", type=float, default=900.0, help="close a session idle this many seconds")
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])


def cmd_serve_env(a) -> int:
    """Serve fdegym episodes with OpenEnv's server contract (WebSocket /ws, one env per connection)."""
    try:
        import uvicorn

        from fdegym_env.serving.openenv_server import create_fdegym_app
    except ImportError as e:
        print(f"error: serve-env needs the [openenv] extra ({e.name} is missing).\n"
              f"fix: pip install 'fdegym[openenv]'", file=sys.stderr)
        return 2
    if a.max_episodes < 1:
        print(f"error: --max-episodes must be at least 1, got {a.max_episodes}", file=sys.stderr)
        return 2
    if a.host not in LOCAL_HOSTS:
        print(f"warning: binding to {a.host}: anyone who can reach this address can start episodes and run "
              "commands in their sandboxes. Use --host 127.0.0.1 unless you mean it.", file=sys.stderr)
    app = create_fdegym_app(task=a.task, level=a.level, variant=a.variant, max_episodes=a.max_episodes,
                            idle_timeout_s=a.idle_timeout if a.idle_timeout > 0 else None, sandbox=a.sandbox)
    print(f"fdegym OpenEnv server on ws://{a.host}:{a.port}/ws  (task {a.task}, up to {a.max_episodes} "
          f"episodes; Ctrl-C stops it)", flush=True)
    uvicorn.run(app, host=a.host, port=a.port, log_level="warning")
    return 0
