"""Per-step time through each door to an episode, against the env in process.

Steps are ``read_file TASK.md`` on news_incident (no sandbox, no grading), so the difference to
in-process is what the door costs: MCP over stdio, MCP over streamable HTTP (one client, one
episode), and ``fdegym episode act`` (a new Python process per action, the way a shell drives it).

    python bench/bench_episode_doors.py [--steps 100] [--shell-steps 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ACTION = {"tool": "read_file", "path": "TASK.md"}
CLI = [sys.executable, "-m", "fdegym_env.cli.main"]


def in_process(steps: int) -> list[float]:
    from fdegym_env.core.env import FDEGymEnv
    env = FDEGymEnv("news_incident", max_turns=10 * steps)
    env.reset(seed=0)
    out = []
    try:
        for _ in range(steps):
            t = time.perf_counter()
            env.step(dict(ACTION))
            out.append(time.perf_counter() - t)
    finally:
        env.close()
    return out


async def _mcp_steps(client, steps: int, extra: dict) -> list[float]:
    out = []
    for _ in range(steps):
        t = time.perf_counter()
        r = await client.call_tool("read_file", {"path": "TASK.md", **extra})
        out.append(time.perf_counter() - t)
        assert not r.is_error, r.content[0].text
    return out


def mcp_stdio(steps: int) -> list[float]:
    from mcp import Client, StdioServerParameters

    async def run():
        srv = StdioServerParameters(command=CLI[0], args=[*CLI[1:], "mcp", "news_incident", "--seed", "0"])
        async with Client(srv) as client:
            return await _mcp_steps(client, steps, {})
    return asyncio.run(run())


def mcp_http(steps: int) -> list[float]:
    from mcp import Client
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([*CLI, "mcp", "--http", "--port", str(port), "news_incident"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        while True:
            try:
                urllib.request.urlopen(url, timeout=2)
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.2)

        async def run():
            async with Client(url) as client:
                r = await client.call_tool("start_episode", {"task": "news_incident", "seed": 0})
                return await _mcp_steps(client, steps, {"episode": r.structured_content["episode"]})
        return asyncio.run(run())
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def shell(steps: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, FDEGYM_EPISODES_HOME=os.path.join(tmp, "rt"))
        run = lambda *a: subprocess.run([*CLI, "episode", *a], cwd=tmp, env=env, capture_output=True, check=True)  # noqa: E731
        run("start", "bench", "news_incident")
        out = []
        try:
            for _ in range(steps):
                t = time.perf_counter()
                run("act", "bench", json.dumps(ACTION))
                out.append(time.perf_counter() - t)
        finally:
            run("stop", "bench")
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=100, help="at most 110: the task allows 120 turns")
    p.add_argument("--shell-steps", type=int, default=10)
    a = p.parse_args()
    base = statistics.median(in_process(a.steps))
    print(f"{'door':<22} {'median ms/step':>15} {'overhead ms':>12} {'steps/s':>9}")
    print(f"{'in process':<22} {base * 1e3:>15.3f} {'-':>12} {1 / base:>9.0f}")
    for name, fn, n in (("mcp stdio", mcp_stdio, a.steps), ("mcp http", mcp_http, a.steps),
                        ("fdegym episode act", shell, a.shell_steps)):
        med = statistics.median(fn(n))
        print(f"{name:<22} {med * 1e3:>15.3f} {(med - base) * 1e3:>12.3f} {1 / med:>9.0f}")


if __name__ == "__main__":
    main()
