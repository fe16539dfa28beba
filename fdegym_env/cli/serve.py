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
