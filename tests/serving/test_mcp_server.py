"""``fdegym mcp``: the SDK's own MCP client launches the server over stdio and plays an episode."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

pytest.importorskip("mcp", reason="the [mcp] extra is not installed")
from fdegym_env.agents.baselines import SolutionAgent  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

from fdegym_env.core.actions import TOOL_NAMES, tool_schemas  # noqa: E402
from fdegym_env.core.env import FDEGymEnv  # noqa: E402


def _reference_actions(task: str, seed: int) -> list[dict]:
    """What the reference agent sends: ordinary write_file/run actions, then submit."""
    env = FDEGymEnv(task, level="L3")
    try:
        obs, info = env.reset(seed=seed)
        agent = SolutionAgent("reference")
        agent.reset(env, obs, info)
        return list(agent.queue)
    finally:
        env.close()


def _server(*args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "fdegym_env.cli.main", "mcp", *args])


def _in_process_result(task: str, seed: int, actions: list[dict]) -> dict:
    env = FDEGymEnv(task, level="L3")
    try:
        env.reset(seed=seed, options={"agent": "mcp"})
        for action in actions:
            *_, info = env.step(action)
        return info["result"]
    finally:
        env.close()


def test_mcp_client_plays_the_reference_solution(tmp_path):
    actions = _reference_actions("news_incident", seed=0)
    actions[-1] = {"tool": "submit", "note": "reference"}
    record = tmp_path / "ep.jsonl"

    async def play():
        async with Client(_server("news_incident", "--seed", "0", "--record", str(record),
                                  "--result", str(tmp_path / "result.json"))) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            texts = []
            for action in actions[:-1]:
                args = {k: v for k, v in action.items() if k != "tool"}
                r = await client.call_tool(action["tool"], args)
                assert not r.is_error, r.content[0].text
                assert "result" not in r.structured_content and "score" not in r.content[0].text
                texts.append(r.content[0].text)
            final = await client.call_tool("submit", {"note": "reference"})
            after = await client.call_tool("list_files", {})
            return tools, final, after

    tools, final, after = asyncio.run(play())
    # one typed MCP tool per env tool, schemas straight from the parser's table
    expected = {s["name"]: s["input_schema"] for s in tool_schemas("anthropic")}
    assert set(TOOL_NAMES) <= set(tools)
    for name, schema in expected.items():
        assert tools[name].input_schema == schema
    result = final.structured_content["result"]
    assert not final.is_error and final.structured_content["ended"]
    assert result["score"] >= 0.95 and result["resolved"], result
    assert "== result ==" in final.content[0].text
    assert after.is_error and "has ended" in after.content[0].text  # no second attempt
    assert json.loads((tmp_path / "result.json").read_text())["score"] == result["score"]
    assert result == json.loads(json.dumps(_in_process_result("news_incident", 0, actions), default=str))
    from fdegym_env.wrappers.recorder import replay
    assert replay(record).ok


def test_malformed_calls_are_error_results_not_crashes():
    async def play():
        async with Client(_server("news_incident", "--seed", "1")) as client:
            out = [await client.call_tool("read_file", {}),                      # missing argument
                   await client.call_tool("read_file", {"path": 7}),             # wrong type
                   await client.call_tool("contact", {"to": "x", "message": "hi", "cc": "y"}),  # extra argument
                   await client.call_tool("no_such_tool", {"a": 1}),            # unknown tool
                   await client.call_tool("read_file", {"path": "../../etc/passwd"}),  # outside the workspace
                   await client.call_tool("brief", {})]
            still = await client.call_tool("list_files", {})  # the server is still serving
            return out, still

    (missing, wrong, extra, unknown, outside, brief), still = asyncio.run(play())
    assert missing.is_error and "needs the argument 'path'" in missing.content[0].text
    assert wrong.is_error and "must be a string" in wrong.content[0].text
    assert extra.is_error and "does not take 'cc'" in extra.content[0].text
    assert unknown.is_error and "Unknown tool 'no_such_tool'" in unknown.content[0].text
    assert outside.is_error
    assert not brief.is_error and "Working arrangements" in brief.content[0].text
    assert not still.is_error and still.structured_content["turn"] == 6  # each malformed call took its turn


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server(tmp_path):
    """``fdegym mcp --http`` on localhost, started for real; yields its URL."""
    import subprocess
    import time
    import urllib.error
    import urllib.request
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "fdegym_env.cli.main", "mcp", "--http", "--port", str(port),
                             "--max-episodes", "2", "--record-dir", str(tmp_path / "runs"), "news_incident"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
        except urllib.error.HTTPError:
            break  # it answers (a bare GET is not an MCP request)
        except OSError:
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def test_http_serves_episodes_behind_tokens(http_server, tmp_path):
    actions = _reference_actions("news_incident", seed=0)

    async def play():
        async with Client(http_server) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            a = await client.call_tool("start_episode", {"task": "news_incident", "seed": 0})
            b = await client.call_tool("start_episode", {"task": "news_incident", "seed": 1, "level": "L0"})
            full = await client.call_tool("start_episode", {"task": "news_incident"})
            other = await client.call_tool("start_episode", {"task": "claims_fasttrack"})
            ta, tb = a.structured_content["episode"], b.structured_content["episode"]
            bad = await client.call_tool("directory", {"episode": "not-a-token"})
            nob = await client.call_tool("directory", {})
            in_b = await client.call_tool("read_file", {"episode": tb, "path": "TASK.md"})
            for action in actions:
                r = await client.call_tool(action["tool"], {"episode": ta, **{k: v for k, v in action.items()
                                                                              if k != "tool"}})
                assert not r.is_error, r.content[0].text
            again = await client.call_tool("start_episode", {"task": "news_incident", "seed": 2})  # A ended: room
            ended = await client.call_tool("end_episode", {"episode": tb})
            gone = await client.call_tool("directory", {"episode": tb})
            return tools, a, full, other, bad, nob, in_b, r, again, ended, gone

    tools, a, full, other, bad, nob, in_b, final, again, ended, gone = asyncio.run(play())
    assert tools["start_episode"].input_schema["properties"]["task"]["enum"] == ["news_incident"]
    assert tools["read_file"].input_schema["required"] == ["episode", "path"]
    assert not a.is_error and "Working arrangements" in a.content[0].text
    assert full.is_error and "already running" in full.content[0].text
    assert other.is_error and "not served here" in other.content[0].text
    assert bad.is_error and "no live episode" in bad.content[0].text
    assert nob.is_error
    assert not in_b.is_error and in_b.structured_content["turn"] == 1  # episodes do not share turns
    result = final.structured_content["result"]
    assert result["score"] >= 0.95 and result["resolved"]
    assert not again.is_error and not ended.is_error and gone.is_error
    recordings = sorted(p.name for p in (tmp_path / "runs").glob("*.jsonl"))
    assert recordings == ["news_incident-0001.jsonl", "news_incident-0002.jsonl", "news_incident-0003.jsonl"]
    from fdegym_env.wrappers.recorder import replay
    assert replay(tmp_path / "runs" / "news_incident-0001.jsonl").ok


def test_a_terminated_stdio_server_removes_its_workspace(tmp_path):
    import os
    import subprocess
    import time
    work = tmp_path / "work"
    env = dict(os.environ, FDEGYM_WORKDIR=str(work))
    proc = subprocess.Popen([sys.executable, "-m", "fdegym_env.cli.main", "mcp", "news_incident"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not list(work.glob("fdegym-news_incident-*/workspace/TASK.md")):
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start its episode"
            time.sleep(0.1)
        proc.terminate()
        assert proc.wait(timeout=30) == 0
        assert not list(work.glob("fdegym-news_incident-*"))
    finally:
        proc.kill()
        proc.wait()


def test_stdio_without_a_task_is_a_clear_error():
    import subprocess
    r = subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", "mcp"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and "needs a TASK over stdio" in r.stderr
