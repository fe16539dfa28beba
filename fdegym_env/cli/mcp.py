"""``fdegym mcp``: serve episodes to MCP clients (Claude Code, Codex CLI, Cursor, ...).

    fdegym mcp news_incident --level L3 --seed 0 --record ep.jsonl      # one episode over stdio
    fdegym mcp --http --port 8766 [--max-episodes 8] [--record-dir runs/mcp] [TASK]   # many, by token

Needs the ``[mcp]`` extra (the official ``mcp`` SDK, 2.x). See docs/agents_from_anywhere.md.
"""

from __future__ import annotations

import sys

from fdegym_env.people.routers import ROUTER_NAMES


def _setup(p) -> None:
    p.add_argument("task", nargs="?", default=None,
                   help="a registered task id or a task folder (with --http: serve only this task)")
    p.add_argument("--level", default="L3", choices=["L0", "L1", "L2", "L3"])
    p.add_argument("--variant", default="base", help="a named variant, random, sample or sample:N")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--router", default=None, choices=ROUTER_NAMES)
    p.add_argument("--record", default=None, help="write a JSONL recording of the episode (fdegym show/replay)")
    p.add_argument("--result", default=None, help="write the graded result here as JSON when the episode ends")
    p.add_argument("--agent", default="mcp", help="the agent name written into the result")
    h = p.add_argument_group("streamable HTTP (many episodes, each behind a token from start_episode)")
    h.add_argument("--http", action="store_true", help="serve over streamable HTTP instead of stdio")
    h.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    h.add_argument("--port", type=int, default=8766)
    h.add_argument("--max-episodes", type=int, default=8, help="episodes live at once (default 8)")
    h.add_argument("--idle-timeout", type=float, default=1800.0,
                   help="seconds without a call after which an episode is closed, ungraded (default 1800)")
    h.add_argument("--record-dir", default=None, help="record every episode here (TASK-N.jsonl, .result.json)")


def cmd_mcp(a) -> int:
    """Serve episodes over MCP (stdio, or streamable HTTP): one typed tool per env tool; submit grades."""
    try:
        from fdegym_env.serving.mcp_server import serve_http, serve_stdio
    except ImportError as e:
        print(f"error: fdegym mcp needs the [mcp] extra ({e.name} is missing).\nfix: pip install 'fdegym[mcp]'",
              file=sys.stderr)
        return 2
    if a.http:
        return _serve_http(a, serve_http)
    if a.task is None:
        print("error: fdegym mcp needs a TASK over stdio (one episode per process); --http serves many",
              file=sys.stderr)
        return 2
    from fdegym_env.serving.episode_host import EpisodeHost
    host = EpisodeHost(a.task, level=a.level, variant=a.variant, seed=a.seed, sandbox=a.sandbox, router=a.router,
                       record=a.record, result_path=a.result, agent=a.agent)
    serve_stdio(host)
    return 0


def _serve_http(a, serve_http) -> int:
    from fdegym_env.cli.serve import LOCAL_HOSTS
    from fdegym_env.serving.episode_pool import EpisodePool
    if a.host not in LOCAL_HOSTS:
        print(f"warning: binding to {a.host}: anyone who can reach this address can start episodes and run "
              "commands in their sandboxes. Use --host 127.0.0.1 unless you mean it.", file=sys.stderr)
    pool = EpisodePool(max_episodes=a.max_episodes, idle_timeout_s=a.idle_timeout, record_dir=a.record_dir,
                       tasks=[a.task] if a.task else None, sandbox=a.sandbox, router=a.router)
    print(f"fdegym MCP on http://{a.host}:{a.port}/mcp ({len(pool.tasks)} task(s), at most {a.max_episodes} "
          "episodes; Ctrl-C stops it)", file=sys.stderr, flush=True)
    serve_http(pool, host=a.host, port=a.port)
    return 0
