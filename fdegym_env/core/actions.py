"""The agent's tools: one definition feeds the parser, the action space and the LLM schemas.

An action can be written four ways, all parsed by :func:`parse_action`:

    {"tool": "read_file", "path": "docs/desk_handbook.md"}               # plain dict
    {"name": "read_file", "arguments": "{\\"path\\": \\"README.md\\"}"}   # OpenAI-style tool call
    ReadFile(path="docs/desk_handbook.md")                                # typed action object
    {"tool": 1, "path": "docs/desk_handbook.md", ...}                     # a sample of action_space

Malformed actions raise :class:`ActionError` with a message meant for the agent; the env turns it
into an observation (agent mistakes are observations, programmer mistakes are exceptions).
"""

from __future__ import annotations

import dataclasses
from fdegym_env.core.errors import did_you_mean
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from fdegym_env.core.spaces import UnicodeText


@dataclass(frozen=True)
class Arg:
    name: str
    type: str  # "string" | "integer" | "number" | "boolean"
    description: str
    required: bool = False


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    args: tuple[Arg, ...] = ()


TOOLS: tuple[Tool, ...] = (
    Tool("list_files", "List files and folders in the workspace with their sizes.",
         (Arg("path", "string", "Folder relative to the workspace root (default: the root)."),)),
    Tool("read_file", "Read a text file; lines are numbered.",
         (Arg("path", "string", "File path relative to the workspace root.", True),
          Arg("offset", "integer", "First line to show, 1-based (default 1)."),
          Arg("limit", "integer", "How many lines to show (default 400)."))),
    Tool("write_file", "Create or replace a file in the workspace.",
         (Arg("path", "string", "File path relative to the workspace root.", True),
          Arg("content", "string", "The whole new content of the file.", True))),
    Tool("edit_file", "Replace an exact piece of text in a file.",
         (Arg("path", "string", "File path relative to the workspace root.", True),
          Arg("old", "string", "Exact text to replace; must occur once unless replace_all.", True),
          Arg("new", "string", "Replacement text.", True),
          Arg("replace_all", "boolean", "Replace every occurrence (default false)."))),
    Tool("run", "Run a shell command in the workspace (sandboxed: python3, sqlite3, coreutils; no network).",
         (Arg("command", "string", "The shell command.", True),
          Arg("timeout_s", "number", "Time limit in seconds (default 30, at most 120)."))),
    Tool("directory", "List the customer's people you can contact, with their roles."),
    Tool("contact", "Send one message to one person at the customer and get their reply.",
         (Arg("to", "string", "The person's id from `directory`.", True),
          Arg("message", "string", "Your message: one specific question works best.", True))),
    Tool("inbox", "Read messages people sent you unasked."),
    Tool("wait", "Let time pass at the customer (people come back, messages arrive).",
         (Arg("hours", "number", "Hours to wait (at most 336).", True),)),
    Tool("trial", "Run the current system/ for one trial day on shadow traffic and hear what people noticed."),
    Tool("submit", "Hand over: system/ is deployed as it is and the engagement ends.",
         (Arg("note", "string", "Optional hand-over note."),)),
)
TOOL_NAMES: tuple[str, ...] = tuple(t.name for t in TOOLS)
TOOLS_BY_NAME: dict[str, Tool] = {t.name: t for t in TOOLS}
ARG_NAMES: tuple[str, ...] = tuple(dict.fromkeys(a.name for t in TOOLS for a in t.args))
_NUMERIC_ARGS = {a.name for t in TOOLS for a in t.args if a.type in ("integer", "number", "boolean")}


class ActionError(ValueError):
    """A malformed action: the message tells the agent what was wrong and how to fix it."""


@dataclass(frozen=True)
class Action:
    """A validated action: a tool name and its arguments (only the ones the tool takes)."""

    tool: str
    args: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, **self.args}


def _typed_class(tool: Tool) -> type:
    name = "".join(p.capitalize() for p in tool.name.split("_"))
    fields = [(a.name, Any, dataclasses.field(default=None)) for a in tool.args]
    cls = dataclasses.make_dataclass(name, fields, frozen=True)
    cls.tool = tool.name
    cls.__doc__ = tool.description
    cls.__module__ = __name__
    return cls


TYPED_ACTIONS: dict[str, type] = {t.name: _typed_class(t) for t in TOOLS}
ListFiles, ReadFile, WriteFile, EditFile, Run, Directory, Contact, Inbox, Wait, Trial, Submit = (
    TYPED_ACTIONS[n] for n in TOOL_NAMES)


def _coerce(tool: Tool, arg: Arg, value: Any) -> Any:
    where = f"{tool.name}: argument {arg.name!r}"
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[0].item() if value.size else None
    elif isinstance(value, np.generic):
        value = value.item()
    if arg.type == "string":
        if not isinstance(value, str):
            raise ActionError(f"{where} must be a string, got {type(value).__name__}.")
        return value
    if arg.type == "boolean":
        if isinstance(value, (bool, int, float)):
            return bool(value)
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise ActionError(f"{where} must be true or false, got {value!r}.")
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ActionError(f"{where} must be a number, got {value!r}.")
    try:
        num = float(value)
    except ValueError:
        raise ActionError(f"{where} must be a number, got {value!r}.") from None
    if num != num or num in (float("inf"), float("-inf")):
        raise ActionError(f"{where} must be a finite number, got {value!r}.")
    return int(num) if arg.type == "integer" else num


def _from_mapping(raw: dict[str, Any], strict: bool) -> Action:
    tool_value = raw.get("tool")
    if isinstance(tool_value, (np.integer, int)) and not isinstance(tool_value, bool):
        index = int(tool_value)
        if not 0 <= index < len(TOOLS):
            raise ActionError(f"tool index {index} is out of range 0..{len(TOOLS) - 1}.")
        tool_value = TOOL_NAMES[index]
        strict = False  # a space sample carries every field; take the ones the tool uses
    if not isinstance(tool_value, str):
        raise ActionError('An action needs a "tool" naming one of: ' + ", ".join(TOOL_NAMES) + ".")
    tool = TOOLS_BY_NAME.get(tool_value)
    if tool is None:
        hint = did_you_mean(tool_value, TOOL_NAMES)
        raise ActionError(f"Unknown tool {tool_value!r}.{hint} Tools: {', '.join(TOOL_NAMES)}.")
    known = {a.name for a in tool.args}
    if strict:
        extra = sorted(k for k in raw if k != "tool" and k not in known and raw[k] is not None)
        if extra:
            takes = ", ".join(sorted(known)) or "no arguments"
            raise ActionError(f"{tool.name} does not take {', '.join(map(repr, extra))}; it takes {takes}.")
    args: dict[str, Any] = {}
    for arg in tool.args:
        value = raw.get(arg.name)
        if value is None:
            if arg.required:
                raise ActionError(f"{tool.name} needs the argument {arg.name!r} ({arg.description}).")
            continue
        args[arg.name] = _coerce(tool, arg, value)
    return Action(tool.name, args)


def parse_action(action: Any) -> Action:
    """Turn any accepted action form into an :class:`Action`, or raise :class:`ActionError`."""
    if isinstance(action, Action):
        return _from_mapping(action.to_dict(), strict=True)
    if dataclasses.is_dataclass(action) and hasattr(type(action), "tool"):
        raw = {"tool": type(action).tool, **dataclasses.asdict(action)}
        return _from_mapping(raw, strict=True)
    if isinstance(action, str):
        try:
            action = json.loads(action)
        except json.JSONDecodeError as e:
            raise ActionError(f"Could not parse the action as JSON ({e.msg} at position {e.pos}). "
                              'Send e.g. {"tool": "list_files"}.') from None
    if not isinstance(action, dict):
        raise ActionError(f"An action must be a dict like {{\"tool\": \"list_files\"}}, got {type(action).__name__}.")
    if "function" in action and isinstance(action["function"], dict):  # {"type": "function", "function": {...}}
        action = action["function"]
    if "name" in action and "tool" not in action:  # OpenAI-style {"name": ..., "arguments": "..."}
        arguments = action.get("arguments") or {}
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except json.JSONDecodeError as e:
                raise ActionError(f"The arguments of {action['name']!r} are not valid JSON ({e.msg} at "
                                  f"position {e.pos}).") from None
        if not isinstance(arguments, dict):
            raise ActionError(f"The arguments of {action['name']!r} must be a JSON object.")
        return _from_mapping({"tool": action["name"], **arguments}, strict=True)
    return _from_mapping(action, strict=True)


def make_action_space(max_text: int = 1_000_000) -> spaces.Dict:
    """``Dict(tool=Discrete(K), <argument fields>)``; unused fields are ignored for each tool."""
    fields: dict[str, spaces.Space] = {"tool": spaces.Discrete(len(TOOLS))}
    for name in ARG_NAMES:
        if name in _NUMERIC_ARGS:
            fields[name] = spaces.Box(0.0, 1000.0, shape=(1,), dtype=np.float32)
        else:
            fields[name] = UnicodeText(max_length=max_text)
    return spaces.Dict(fields)


_JSON_TYPES = {"string": "string", "integer": "integer", "number": "number", "boolean": "boolean"}


def tool_schemas(api: str = "openai") -> list[dict[str, Any]]:
    """Function-calling schemas for every tool.

    Args:
        api: ``"openai"`` (``{"type": "function", "function": {...}}``) or ``"anthropic"``
            (``{"name", "description", "input_schema"}``).

    Example:
        >>> [s["function"]["name"] for s in tool_schemas()][:2]
        ['list_files', 'read_file']
    """
    out = []
    for tool in TOOLS:
        params = {
            "type": "object",
            "properties": {a.name: {"type": _JSON_TYPES[a.type], "description": a.description}
                           for a in tool.args},
            "required": [a.name for a in tool.args if a.required],
            "additionalProperties": False,
        }
        if api == "openai":
            out.append({"type": "function", "function": {
                "name": tool.name, "description": tool.description, "parameters": params}})
        elif api == "anthropic":
            out.append({"name": tool.name, "description": tool.description, "input_schema": params})
        else:
            raise ValueError(f"api must be 'openai' or 'anthropic', got {api!r}")
    return out
