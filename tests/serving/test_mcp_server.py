"""``fdegym mcp``: the SDK's own MCP client launches the server over stdio and plays an episode."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest

pytest.importorskip("mcp", reason="the [mcp] extra is not installed")
from mcp import Client, StdioServerParameters  # noqa: E402

from fdegym_env.agents.baselines import SolutionAgent  # noqa: E402
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


def test_mcp_client_plays_the_reference_solution(tmp_path):
    actions = _reference_actions("news_incident", seed=0)
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
