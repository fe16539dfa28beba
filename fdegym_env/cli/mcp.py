"""``fdegym mcp``: serve one episode to an MCP client (Claude Code, Codex CLI, Cursor, ...) over stdio.

    fdegym mcp news_incident --level L3 --seed 0 --record ep.jsonl

Needs the ``[mcp]`` extra (the official ``mcp`` SDK, 2.x). See docs/agents_from_anywhere.md.
"""

from __future__ import annotations

import sys


def _setup(p) -> None:
    p.add_argument("task", help="a registered task id or a task folder")
    p.add_argument("--level", default="L3", choices=["L0", "L1", "L2", "L3"])
    p.add_argument("--variant", default="base", help="a named variant, random, sample or sample:N")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--router", default=None, choices=["regex", "lexical", "llm"])
    p.add_argument("--record", default=None, help="write a JSONL recording of the episode (fdegym show/replay)")
    p.add_argument("--result", default=None, help="write the graded result here as JSON when the episode ends")
    p.add_argument("--agent", default="mcp", help="the agent name written into the result")


def cmd_mcp(a) -> int:
    """Serve one episode over MCP (stdio): one typed tool per env tool; submit returns the result."""
    try:
        from fdegym_env.serving.mcp_server import serve_stdio
    except ImportError as e:
        print(f"error: fdegym mcp needs the [mcp] extra ({e.name} is missing).\nfix: pip install 'fdegym[mcp]'",
              file=sys.stderr)
        return 2
    from fdegym_env.serving.episode_host import EpisodeHost
    host = EpisodeHost(a.task, level=a.level, variant=a.variant, seed=a.seed, sandbox=a.sandbox, router=a.router,
                       record=a.record, result_path=a.result, agent=a.agent)
    serve_stdio(host)
    return 0
