"""``fdegym mcp``: an episode served over the Model Context Protocol (the official ``mcp`` SDK, 2.x).

    fdegym mcp news_incident --level L3 --seed 0 --record ep.jsonl     # one episode over stdio

Every env tool is one MCP tool whose input schema is generated from the same tool table the action
parser uses (:data:`fdegym_env.core.actions.TOOLS`). A call is one env step: the tool result is the
env's observation text exactly, ``is_error`` when the env rejected the action (it says what was wrong),
and ``structured_content`` holds the turn and, only once the episode has ended, the graded result.
One more tool, ``brief``, repeats the reset observation without taking a turn; the brief is also the
server's ``instructions``. Nothing before ``submit`` reveals grading.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

from fdegym_env.core.actions import tool_schemas
from fdegym_env.serving.episode_host import EpisodeHost, Step

BRIEF_TOOL = "brief"


def mcp_tools() -> list[types.Tool]:
    """One MCP tool per env tool (typed input schema from the tool table), plus ``brief``."""
    tools = [types.Tool(name=s["name"], description=s["description"], input_schema=s["input_schema"])
             for s in tool_schemas("anthropic")]
    tools.append(types.Tool(name=BRIEF_TOOL, description="Show the engagement brief again (takes no turn).",
                            input_schema={"type": "object", "properties": {}, "additionalProperties": False}))
    return tools


def step_result(step: Step) -> types.CallToolResult:
    """An env step as an MCP tool result."""
    structured: dict[str, Any] = {"turn": step.turn, "valid": step.valid, "ended": step.ended}
    if step.ended:
        structured["result"] = step.result
    return types.CallToolResult(content=[types.TextContent(type="text", text=step.text)],
                                structured_content=structured, is_error=not step.valid)


def _text_result(text: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


async def call_env_tool(host: EpisodeHost, name: str, arguments: Any) -> types.CallToolResult:
    """Run one tool call on ``host``: env steps run in a worker thread (they run shells and graders)."""
    if name == BRIEF_TOOL:
        return _text_result(host.brief or "")
    args = arguments if isinstance(arguments, dict) else {}
    if arguments is not None and not isinstance(arguments, dict):  # the env words the error and takes the turn
        action: Any = {"name": name, "arguments": arguments}
    else:
        action = {**args, "tool": name}
    step = await anyio.to_thread.run_sync(host.act, action)
    return step_result(step)


def build_stdio_server(host: EpisodeHost) -> Server:
    """A low-level MCP server for one started episode."""
    from fdegym_env import __version__

    async def on_list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=mcp_tools())

    async def on_call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await call_env_tool(host, params.name, params.arguments)

    return Server("fdegym", version=__version__, title=f"fdegym: {host.task}",
                  instructions=host.brief, on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def serve_stdio(host: EpisodeHost) -> None:
    """Start ``host``'s episode and serve it over stdin/stdout until the client disconnects."""
    from mcp.server.stdio import stdio_server
    host.start()
    server = build_stdio_server(host)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        host.close()
