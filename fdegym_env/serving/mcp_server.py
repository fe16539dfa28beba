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

import os
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
    import signal

    from mcp.server.stdio import stdio_server

    def _exit(signum, frame):  # a client that stops its server with SIGTERM: the workspace still goes
        host.close_from_signal()  # (the stdin reader thread would keep a graceful exit waiting)
        os._exit(0)
    signal.signal(signal.SIGTERM, _exit)
    host.start()
    server = build_stdio_server(host)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        host.close()


# --- streamable HTTP: many episodes, each behind a token ----------------------------------------------
START_TOOL, END_TOOL = "start_episode", "end_episode"
_TOKEN_PROP = {"type": "string", "description": "The episode token that start_episode returned."}


def http_tools(tasks: list[str]) -> list[types.Tool]:
    """The env tools, each taking the episode token, plus start_episode and end_episode."""
    tools = [types.Tool(name=START_TOOL, description=(
        "Start one episode (one graded attempt) and get its token and brief. Pass the token as `episode` "
        "to every other tool."), input_schema={
            "type": "object", "additionalProperties": False, "required": ["task"],
            "properties": {"task": {"type": "string", "enum": tasks, "description": "The task to play."},
                           "level": {"type": "string", "enum": ["L0", "L1", "L2", "L3"],
                                     "description": "Instruction level (default L3)."},
                           "variant": {"type": "string", "description": "A named variant, random, sample or "
                                       "sample:N (default base)."},
                           "seed": {"type": "integer", "description": "Episode seed (default 0)."}}}),
        types.Tool(name=END_TOOL, description="End an episode without submitting; its workspace goes.",
                   input_schema={"type": "object", "additionalProperties": False, "required": ["episode"],
                                 "properties": {"episode": _TOKEN_PROP}})]
    for t in mcp_tools():
        schema = dict(t.input_schema)
        schema["properties"] = {"episode": _TOKEN_PROP, **schema.get("properties", {})}
        schema["required"] = ["episode", *schema.get("required", [])]
        tools.append(types.Tool(name=t.name, description=t.description, input_schema=schema))
    return tools


async def call_pool_tool(pool, name: str, arguments: Any) -> types.CallToolResult:
    """One tool call against an :class:`~fdegym_env.serving.episode_pool.EpisodePool`."""
    from fdegym_env.serving.episode_pool import PoolError
    args = dict(arguments) if isinstance(arguments, dict) else {}
    try:
        if name == START_TOOL:
            seed = args.get("seed", 0)
            if not isinstance(seed, int) or isinstance(seed, bool):
                return _text_result(f"start_episode: seed must be an integer, got {seed!r}", error=True)
            try:  # a task not served, a full pool, an unknown level or variant
                token, host = await anyio.to_thread.run_sync(
                    lambda: pool.start(str(args.get("task")), level=str(args.get("level", "L3")),
                                       variant=str(args.get("variant", "base")), seed=seed))
            except ValueError as e:
                return _text_result(f"{name}: {e}", error=True)
            return types.CallToolResult(content=[types.TextContent(type="text", text=host.brief)],
                                        structured_content={"episode": token, "task": host.task})
        token = args.pop("episode", None)
        if name == END_TOOL:
            await anyio.to_thread.run_sync(pool.end, token)
            return _text_result("Episode ended; nothing was submitted.")
        host = pool.get(token)
        if name == BRIEF_TOOL:
            return _text_result(host.brief or "")
        action: Any = {**args, "tool": name} if isinstance(arguments, dict) or arguments is None else \
            {"name": name, "arguments": arguments}
        return step_result(await anyio.to_thread.run_sync(pool.act, token, action))
    except PoolError as e:  # an unknown or ended token: an error result the caller can read
        return _text_result(f"{name}: {e}", error=True)
    finally:
        pool.reap()


def build_http_server(pool) -> Server:
    from fdegym_env import __version__

    async def on_list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=http_tools(pool.tasks))

    async def on_call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await call_pool_tool(pool, params.name, params.arguments)

    return Server("fdegym", version=__version__, title="fdegym episodes",
                  instructions="Call start_episode to begin an engagement; pass its token as `episode` to every "
                               "tool; submit hands the delivery over and returns the graded result.",
                  on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def serve_http(pool, host: str = "127.0.0.1", port: int = 8766) -> None:
    """Serve ``pool`` over streamable HTTP at ``http://HOST:PORT/mcp`` (stateless: the token is the state)."""
    import signal

    import uvicorn
    # plain JSON replies: no SSE stream per request (the tools send no progress notifications)
    app = build_http_server(pool).streamable_http_app(stateless_http=True, json_response=True, host=host)

    def _exit(signum, frame):  # uvicorn re-raises the signal it caught once it has shut down
        raise SystemExit(0)
    signal.signal(signal.SIGTERM, _exit)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        pool.close()
