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
import json
import reprlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from fdegym_env.core.errors import did_you_mean
from fdegym_env.core.spaces import UnicodeText

MAX_NUMBER = 1e12        # numeric arguments beyond this are refused (no tool needs more; 10**400 overflows)
MAX_JSON_DEPTH = 64      # JSON nested deeper is refused before it is parsed (no action nests past 3)


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
          Arg("message", "string", "Your message: specific questions; one message may ask several (a person answers what they know, up to four topics).", True))),
    Tool("inbox", "Read messages people sent you unasked."),
    Tool("wait", "Let time pass at the customer (people come back, messages arrive).",
         (Arg("hours", "number", "Hours to wait (at most 336).", True),)),
    Tool("trial", "Run the current system/ for one trial day on shadow traffic and hear what people noticed."),
    Tool("submit", "Hand over: system/ is deployed as it is and the engagement ends.",
         (Arg("note", "string", "Optional hand-over note."),)),
)
# Other agent frameworks' names for the same arguments (the str_replace editor's, for one): understood,
# so a player used to them loses no action; a name given twice, once in each spelling, is an error.
ARG_ALIASES: dict[str, str] = {"old_str": "old", "new_str": "new", "file_path": "path", "cmd": "command"}
TOOL_NAMES: tuple[str, ...] = tuple(t.name for t in TOOLS)
TOOLS_BY_NAME: dict[str, Tool] = {t.name: t for t in TOOLS}
ARG_NAMES: tuple[str, ...] = tuple(dict.fromkeys(a.name for t in TOOLS for a in t.args))
_NUMERIC_ARGS = {a.name for t in TOOLS for a in t.args if a.type in ("integer", "number", "boolean")}


class ActionError(ValueError):
    """A malformed action: the message tells the agent what was wrong and how to fix it."""


_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlevel = 80, 80, 3
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 6


def describe(value: Any) -> str:
    """A short, safe ``repr`` of anything an agent sent: cut, nesting bounded, never raises."""
    try:
        text = _SHORT.repr(value)
    except Exception:   # a __repr__ that raises
        text = f"<{type(value).__name__}>"
    if len(text) > 200:
        text = text[:200] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _lone_surrogate(text: str) -> int | None:
    """Index of the first lone surrogate in ``text`` (not valid Unicode, cannot be written as UTF-8)."""
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as e:
        return e.start


def _json_too_deep(text: str) -> bool:
    """Whether brackets in ``text`` nest past :data:`MAX_JSON_DEPTH` (checked before ``json.loads``,
    whose recursion a few thousand ``[`` would exhaust). Brackets inside strings count too, which only
    errs on the side of refusing text no action needs."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return False
    depth = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _loads(text: str, what: str) -> Any:
    """``json.loads`` for agent text: bounded nesting, every failure an :class:`ActionError`."""
    if _json_too_deep(text):
        raise ActionError(f"{what[0].upper() + what[1:]} nests brackets more than {MAX_JSON_DEPTH} levels deep; "
                          'send a flat object, e.g. {"tool": "list_files"}.')
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ActionError(f"{what[0].upper() + what[1:]}: not valid JSON ({e.msg}, at character {e.pos}). "
                          'Send e.g. {"tool": "list_files"}.') from None
    except (RecursionError, ValueError) as e:   # ValueError: e.g. an integer with too many digits
        raise ActionError(f"{what[0].upper() + what[1:]}: not valid JSON ({type(e).__name__}: {str(e)[:120]}). "
                          'Send e.g. {"tool": "list_files"}.') from None


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
    cls: Any = dataclasses.make_dataclass(name, fields, frozen=True)   # built at run time; gets a class attribute
    cls.tool = tool.name
    cls.__doc__ = tool.description
    cls.__module__ = __name__
    return cls


TYPED_ACTIONS: dict[str, type] = {t.name: _typed_class(t) for t in TOOLS}
ListFiles, ReadFile, WriteFile, EditFile, Run, Directory, Contact, Inbox, Wait, Trial, Submit = (
    TYPED_ACTIONS[n] for n in TOOL_NAMES)


def _coerce(tool: Tool, arg: Arg, value: Any) -> Any:
    where = f"{tool.name}: argument {arg.name!r}"
    if isinstance(value, np.ndarray):   # a space sample: shape (1,) (an object array holds any Python value)
        value = value.reshape(-1)[0] if value.size else None
    if isinstance(value, np.generic):
        value = value.item()
    if arg.type == "string":
        if not isinstance(value, str):
            raise ActionError(f"{where} must be a string, got {type(value).__name__}.")
        bad = _lone_surrogate(value)
        if bad is not None:
            raise ActionError(f"{where} holds a lone surrogate {value[bad]!r} at character {bad}, which is not "
                              "valid Unicode text (it cannot be written as UTF-8). Send the character whole; a "
                              "JSON escape needs both halves of a pair, e.g. \\ud83d\\ude00.")
        return str(value)
    if arg.type == "boolean":
        if isinstance(value, (bool, int)):
            return bool(value)
        if isinstance(value, float) and value == value:
            return bool(value)
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise ActionError(f"{where} must be true or false, got {describe(value)}.")
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ActionError(f"{where} must be a number, got {describe(value)}.")
    try:
        num = float(value)
    except (ValueError, OverflowError):
        if isinstance(value, int):
            raise ActionError(f"{where} must be a number from {-MAX_NUMBER:g} to {MAX_NUMBER:g}, got an integer "
                              f"with {len(str(abs(value))) if value.bit_length() < 10_000 else 'thousands of'} "
                              "digits.") from None
        raise ActionError(f"{where} must be a number, got {describe(value)}.") from None
    if num != num or num in (float("inf"), float("-inf")):
        raise ActionError(f"{where} must be a finite number, got {describe(value)}.")
    if abs(num) > MAX_NUMBER:
        raise ActionError(f"{where} must be a number from {-MAX_NUMBER:g} to {MAX_NUMBER:g}, got {num:g}.")
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
    odd_keys = [k for k in raw if not isinstance(k, str)]
    if odd_keys:
        raise ActionError(f"Argument names must be strings, got {describe(odd_keys[0])} "
                          f"({type(odd_keys[0]).__name__}). Send e.g. {{\"tool\": \"read_file\", \"path\": \"TASK.md\"}}.")
    tool = TOOLS_BY_NAME.get(tool_value)
    if tool is None:
        hint = did_you_mean(tool_value, TOOL_NAMES) if len(tool_value) <= 100 else ""
        raise ActionError(f"Unknown tool {describe(tool_value)}.{hint} Tools: {', '.join(TOOL_NAMES)}.")
    known = {a.name for a in tool.args}
    aliased = [k for k in raw if ARG_ALIASES.get(k) in known and raw[k] is not None]
    if aliased:
        raw = dict(raw)
        for k in aliased:
            if raw.get(ARG_ALIASES[k]) is not None:
                raise ActionError(f"{tool.name} got both {k!r} and {ARG_ALIASES[k]!r}; send one ({ARG_ALIASES[k]!r}).")
            raw[ARG_ALIASES[k]] = raw.pop(k)
    if strict:
        extra = sorted(k for k in raw if k != "tool" and k not in known and raw[k] is not None)
        if extra:
            takes = ", ".join(sorted(known)) or "no arguments"
            shown = ", ".join(map(describe, extra[:5])) + (f" and {len(extra) - 5} more" if len(extra) > 5 else "")
            raise ActionError(f"{tool.name} does not take {shown}; it takes {takes}.")
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
    """Turn any accepted action form into an :class:`Action`, or raise :class:`ActionError`.

    Never raises anything else, whatever Python or JSON value it is given: an action is agent input,
    and a malformed one is an observation."""
    try:
        return _parse(action)
    except ActionError:
        raise
    except (RecursionError, MemoryError) as e:
        raise ActionError(f"The action is nested too deeply or is too large to read ({type(e).__name__}). "
                          'Send a flat object, e.g. {"tool": "list_files"}.') from None
    except Exception as e:   # a value no check above foresaw: still the agent's input, never a crash
        raise ActionError(f"Could not read the action ({type(e).__name__}: {describe(str(e))}). "
                          'Send e.g. {"tool": "read_file", "path": "TASK.md"}.') from None


def _typed_fields(action: Any) -> dict[str, Any]:
    """A typed action's fields as they are (``dataclasses.asdict`` would deep-copy them, and fail on
    values that cannot be copied)."""
    return {f.name: getattr(action, f.name, None) for f in dataclasses.fields(action)}


def _parse(action: Any) -> Action:
    if isinstance(action, Action):
        if not isinstance(action.args, dict):
            raise ActionError(f"Action.args must be a dict, got {type(action.args).__name__}.")
        return _from_mapping({**{k: v for k, v in action.args.items()}, "tool": action.tool}, strict=True)
    cls = type(action)
    if dataclasses.is_dataclass(action) and not isinstance(action, type) and hasattr(cls, "tool"):
        raw = {**_typed_fields(action), "tool": cls.tool}
        return _from_mapping(raw, strict=True)
    if isinstance(action, (bytes, bytearray)):
        try:
            action = bytes(action).decode("utf-8")
        except UnicodeDecodeError:
            raise ActionError("The action is bytes that are not UTF-8 text; send a JSON object as text.") from None
    if isinstance(action, str):
        action = _loads(action, "the action")
    if not isinstance(action, dict):
        raise ActionError(f"An action must be a dict like {{\"tool\": \"list_files\"}}, got {type(action).__name__}.")
    if isinstance(action.get("function"), dict):  # {"type": "function", "function": {...}}
        action = action["function"]
    if "name" in action and "tool" not in action:  # OpenAI-style {"name": ..., "arguments": "..."}
        name = action["name"]
        arguments = action.get("arguments")
        if arguments is None:
            arguments = {}
        if isinstance(arguments, (bytes, bytearray)):
            arguments = bytes(arguments).decode("utf-8", "replace")
        if isinstance(arguments, str):
            arguments = _loads(arguments, f"the arguments of {describe(name)}") if arguments.strip() else {}
        if not isinstance(arguments, dict):
            raise ActionError(f"The arguments of {describe(name)} must be a JSON object, got "
                              f"{type(arguments).__name__}.")
        merged = dict(arguments)   # keys checked by _from_mapping (**arguments would raise on a non-string key)
        merged.pop("tool", None)
        merged["tool"] = name
        return _from_mapping(merged, strict=True)
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


def action_reference() -> str:
    """Every tool as the JSON action a shell player types: required arguments shown with their type,
    optional ones in brackets, then what the tool does.

    Example:
        >>> action_reference().splitlines()[3]
        '{"tool": "edit_file", "path": <string>, "old": <string>, "new": <string>} [replace_all: boolean]  Replace an exact piece of text in a file.'
    """
    lines = []
    for tool in TOOLS:
        fields = "".join(f', "{a.name}": <{a.type}>' for a in tool.args if a.required)
        optional = ", ".join(f"{a.name}: {a.type}" for a in tool.args if not a.required)
        lines.append(f'{{"tool": "{tool.name}"{fields}}}' + (f" [{optional}]" if optional else "")
                     + f"  {tool.description}")
    return "\n".join(lines)
