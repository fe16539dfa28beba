"""Per-step time through each door to an episode, against the env in process.

Steps are ``read_file TASK.md`` on news_incident (no sandbox, no grading), so the difference to
in-process is what the door costs: MCP over stdio (through the SDK's client, and as raw JSON-RPC
lines, which leaves out the client's own cost: the server's overhead alone), MCP over streamable
HTTP (one client, one episode; then N clients, each with its own episode, against N threads in
process), and ``fdegym episode act`` (a new Python process per action, the way a shell drives it).

    python bench/bench_episode_doors.py [--steps 100] [--shell-steps 10] [--clients 8]
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures as cf
import contextlib
import json
import logging
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


def mcp_stdio_raw(steps: int) -> list[float]:
    """``tools/call`` as JSON-RPC lines written straight to the server's stdin: no client library."""
    proc = subprocess.Popen([*CLI, "mcp", "news_incident", "--seed", "0"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None

    def call(msg: dict, reply: bool = True) -> dict:
        proc.stdin.write((json.dumps({"jsonrpc": "2.0", **msg}) + "\n").encode())
        proc.stdin.flush()
        return json.loads(proc.stdout.readline()) if reply else {}
    try:
        call({"id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                                          "clientInfo": {"name": "bench", "version": "0"}}})
        call({"method": "notifications/initialized"}, reply=False)
        out = []
        for i in range(steps):
            t = time.perf_counter()
            r = call({"id": i + 1, "method": "tools/call",
                      "params": {"name": "read_file", "arguments": {"path": "TASK.md"}}})
            out.append(time.perf_counter() - t)
            assert not r["result"].get("isError"), r
        return out
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def mcp_stdio(steps: int) -> list[float]:
    from mcp import Client, StdioServerParameters

    async def run():
        srv = StdioServerParameters(command=CLI[0], args=[*CLI[1:], "mcp", "news_incident", "--seed", "0"])
        async with Client(srv) as client:
            return await _mcp_steps(client, steps, {})
    return asyncio.run(run())


@contextlib.contextmanager
def http_server(episodes: int):
    """``fdegym mcp --http`` on a free local port; yields its URL once it answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([*CLI, "mcp", "--http", "--port", str(port), "--max-episodes", str(episodes),
                             "news_incident"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        while True:
            try:
                urllib.request.urlopen(url, timeout=2)
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def mcp_http(steps: int) -> list[float]:
    from mcp import Client

    async def run() -> list[float]:
        async with Client(url) as client:
            r = await client.call_tool("start_episode", {"task": "news_incident", "seed": 0})
            return await _mcp_steps(client, steps, {"episode": r.structured_content["episode"]})
    with http_server(1) as url:
        return asyncio.run(run())


def _post(url: str, msg: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps({"jsonrpc": "2.0", **msg}).encode(),
                                 headers={"Content-Type": "application/json", "MCP-Protocol-Version": "2025-06-18",
                                          "Accept": "application/json, text/event-stream"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def _raw_episode(url: str, seed: int, steps: int) -> list[float]:
    call = lambda i, name, args: _post(url, {"id": i, "method": "tools/call",  # noqa: E731
                                             "params": {"name": name, "arguments": args}})["result"]
    token = call(0, "start_episode", {"task": "news_incident", "seed": seed})["structuredContent"]["episode"]
    out = []
    for i in range(steps):
        t = time.perf_counter()
        r = call(i + 1, "read_file", {"path": "TASK.md", "episode": token})
        out.append(time.perf_counter() - t)
        assert not r.get("isError"), r
    return out


def mcp_http_raw(steps: int) -> list[float]:
    """JSON-RPC POSTs with no client library: the server's cost alone."""
    with http_server(1) as url:
        return _raw_episode(url, 0, steps)


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


def rate_in_process(clients: int, steps: int) -> float:
    """Steps per second of ``clients`` episodes in process, one thread each."""
    t = time.perf_counter()
    with cf.ThreadPoolExecutor(clients) as pool:
        list(pool.map(lambda _: in_process(steps), range(clients)))
    return clients * steps / (time.perf_counter() - t)


def rate_mcp_http(clients: int, steps: int) -> float:
    """Steps per second of ``clients`` threads posting raw JSON-RPC, each with its own episode (one server)."""
    with http_server(clients) as url, cf.ThreadPoolExecutor(clients) as pool:
        t = time.perf_counter()
        list(pool.map(lambda seed: _raw_episode(url, seed, steps), range(clients)))
        return clients * steps / (time.perf_counter() - t)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=100, help="at most 110: the task allows 120 turns")
    p.add_argument("--shell-steps", type=int, default=10)
    p.add_argument("--clients", type=int, default=8, help="concurrent episodes for the last two rows")
    a = p.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)   # one INFO line per request otherwise
    logging.getLogger("httpx2").setLevel(logging.WARNING)
    base = statistics.median(in_process(a.steps))
    print(f"{'door':<26} {'median ms/step':>15} {'overhead ms':>12} {'steps/s':>9}")
    print(f"{'in process':<26} {base * 1e3:>15.3f} {'-':>12} {1 / base:>9.0f}")
    for name, fn, n in (("mcp stdio (SDK client)", mcp_stdio, a.steps), ("mcp stdio (raw JSON-RPC)", mcp_stdio_raw, a.steps),
                        ("mcp http (SDK client)", mcp_http, a.steps), ("mcp http (raw JSON-RPC)", mcp_http_raw, a.steps),
                        ("fdegym episode act", shell, a.shell_steps)):
        med = statistics.median(fn(n))
        print(f"{name:<26} {med * 1e3:>15.3f} {(med - base) * 1e3:>12.3f} {1 / med:>9.0f}")
    local, remote = rate_in_process(a.clients, a.steps), rate_mcp_http(a.clients, a.steps)
    print(f"\n{a.clients} episodes at once: in process {local:.0f} steps/s, mcp http (raw JSON-RPC) "
          f"{remote:.0f} steps/s (ratio {remote / local:.2f}; episode starts included on both sides)")


if __name__ == "__main__":
    main()
