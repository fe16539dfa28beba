"""Reading actions out of free text, for string-based policies and models without tool parsing.

Two entry points:

* :func:`parse_tool_calls` finds tool calls in model text: ``<tool_call>{...}</tool_call>`` blocks
  (Hermes/Qwen style), a fenced ```` ```json ```` block, or a bare JSON object ``{"name": ...,
  "arguments": {...}}`` / ``{"tool": ..., ...}`` anywhere in the text.
* :func:`parse_text_action` additionally reads call syntax ``read_file(path="docs/a.md", limit=20)``,
  a bare tool name (``directory``) and an ``Action:`` prefix, and raises :class:`TextActionError`
  with a message that says what was expected, what was found and how to fix it.

:class:`TextActions` wraps an env so ``step`` takes a string. A string that cannot be read still
consumes the turn (like any malformed action); the observation carries the precise parse error.

Example:
    >>> parse_text_action('read_file(path="docs/notes.md", limit=20)')
    {'tool': 'read_file', 'path': 'docs/notes.md', 'limit': 20}
    >>> parse_tool_calls('ok <tool_call>{"name": "directory", "arguments": {}}</tool_call>')[0]
    [{'name': 'directory', 'arguments': {}}]
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from fdegym_env.core.actions import TOOL_NAMES, TOOLS_BY_NAME
from fdegym_env.core.spaces import UnicodeText

_TOOL_CALL_BLOCK = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_FENCE = re.compile(r"```(?:json|JSON|tool_call)?\s*\n(.*?)```", re.S)
_ACTION_PREFIX = re.compile(r"^\s*(?:action|tool|call)\s*:\s*", re.I | re.M)

EXAMPLES = ('{"name": "read_file", "arguments": {"path": "docs/notes.md"}}',
            'read_file(path="docs/notes.md")', "directory")


class TextActionError(ValueError):
    """Text that does not contain a readable action; the message is meant for the policy."""


def _normalise(obj: Any, where: str) -> dict[str, Any]:
    """One JSON object -> ``{"name": str, "arguments": dict | str}``."""
    if not isinstance(obj, dict):
        raise TextActionError(f"{where}: expected a JSON object like {EXAMPLES[0]}, got {type(obj).__name__}.")
    if isinstance(obj.get("function"), dict):
        obj = obj["function"]
    if "name" in obj:
        args = obj.get("arguments", obj.get("parameters", {}))
        if args is None:
            args = {}
        if not isinstance(args, (dict, str)):
            raise TextActionError(f"{where}: \"arguments\" must be a JSON object, got {type(args).__name__}.")
        return {"name": obj["name"], "arguments": args}
    if "tool" in obj:
        return {"name": obj["tool"], "arguments": {k: v for k, v in obj.items() if k != "tool"}}
    raise TextActionError(f"{where}: the JSON object has no \"name\" (or \"tool\") key; write e.g. {EXAMPLES[0]}.")


def _json_objects(blob: str, where: str) -> list[dict[str, Any]]:
    try:
        data = json.loads(blob)
    except json.JSONDecodeError as e:
        snippet = blob[max(0, e.pos - 20):e.pos + 20].replace("\n", " ")
        raise TextActionError(f"{where} is not valid JSON: {e.msg} at position {e.pos} (near {snippet!r}). "
                              f"Write e.g. {EXAMPLES[0]}.") from None
    items = data if isinstance(data, list) else [data]
    return [_normalise(x, where) for x in items]


def _embedded_objects(text: str) -> list[dict[str, Any]]:
    """JSON objects with a "name"/"tool" key found anywhere in prose (first decodable ones)."""
    dec = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    i = 0
    while True:
        i = text.find("{", i)
        if i < 0:
            return found
        try:
            obj, end = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            i += 1
            continue
        if isinstance(obj, dict) and ("name" in obj or "tool" in obj or isinstance(obj.get("function"), dict)):
            found.append(_normalise(obj, "the JSON object in your message"))
        i = end


def parse_tool_calls(text: str) -> tuple[list[dict[str, Any]], str | None]:
    """Find tool calls written in text.

    Args:
        text: a model's message content.

    Returns:
        ``(calls, error)``: ``calls`` as ``[{"name", "arguments"}]`` in order (``arguments`` is a dict,
        or the raw string when the model wrote a string); ``error`` is a message for the model when the
        text clearly tried to call a tool but could not be read (e.g. broken JSON in ``<tool_call>``).
        ``([], None)`` means plain prose.

    Example:
        >>> parse_tool_calls('```json\\n{"tool": "inbox"}\\n```')
        ([{'name': 'inbox', 'arguments': {}}], None)
    """
    if not isinstance(text, str) or not text.strip():
        return [], None
    try:
        blocks = _TOOL_CALL_BLOCK.findall(text)
        if blocks:
            calls = []
            for k, b in enumerate(blocks, 1):
                calls += _json_objects(b, f"<tool_call> block {k}")
            return calls, None
        fences = _FENCE.findall(text)
        for f in fences:
            if f.strip().startswith(("{", "[")):
                return _json_objects(f.strip(), "the ```json block"), None
        stripped = text.strip()
        if stripped.startswith(("{", "[")):
            try:
                json.loads(stripped)
            except json.JSONDecodeError:
                pass  # maybe prose that starts with a brace; try the embedded search
            else:
                return _json_objects(stripped, "your message"), None
        return _embedded_objects(text), None
    except TextActionError as e:
        return [], str(e)


def _call_syntax(src: str) -> dict[str, Any] | None:
    """``tool(a=1, b="x")`` or ``tool("x")`` -> action dict; None if it is not call syntax at all."""
    try:
        node = ast.parse(src.strip(), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.Name):
        node = ast.Call(func=node, args=[], keywords=[])
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return None
    name = node.func.id
    tool = TOOLS_BY_NAME.get(name)
    if tool is None:
        from fdegym_env.core.errors import did_you_mean
        hint = did_you_mean(name, TOOL_NAMES)
        raise TextActionError(f"Unknown tool {name!r}.{hint} Tools: {', '.join(TOOL_NAMES)}.")
    slots = [a.name for a in tool.args]
    action: dict[str, Any] = {"tool": name}
    for i, arg in enumerate(node.args):
        if i >= len(slots):
            takes = ", ".join(slots) or "no arguments"
            raise TextActionError(f"{name}(...): positional argument {i + 1} has no slot; {name} takes {takes}.")
        action[slots[i]] = _literal(name, slots[i], arg)
    for kw in node.keywords:
        if kw.arg is None:
            raise TextActionError(f"{name}(...): **kwargs are not supported; write each argument as key=value.")
        if kw.arg in action:
            raise TextActionError(f"{name}(...): argument {kw.arg!r} is given twice.")
        action[kw.arg] = _literal(name, kw.arg, kw.value)
    return action


def _literal(tool: str, arg: str, node: ast.AST) -> Any:
    if isinstance(node, ast.Name) and node.id in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[node.id]
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError):
        got = ast.unparse(node) if hasattr(ast, "unparse") else "an expression"
        raise TextActionError(f"{tool}(...): the value of {arg!r} must be a literal (a quoted string, number, "
                              f"true/false), got `{got}`. Quote strings: {arg}=\"...\".") from None


def parse_text_action(text: str) -> dict[str, Any]:
    """Read one action from free text; raises :class:`TextActionError` with a precise message.

    Accepted, in this order: ``<tool_call>`` / fenced / bare JSON (see :func:`parse_tool_calls`),
    call syntax ``tool(key=value, ...)`` (positional values fill the tool's arguments in order),
    a bare tool name. An ``Action:`` prefix on the line is ignored.

    Example:
        >>> parse_text_action('Action: contact(to="ops", message="What is the cutoff?")')
        {'tool': 'contact', 'to': 'ops', 'message': 'What is the cutoff?'}
    """
    if not isinstance(text, str):
        raise TextActionError(f"expected a string action, got {type(text).__name__}.")
    if not text.strip():
        raise TextActionError("The action is empty. Write e.g. " + " or ".join(EXAMPLES) + ".")
    calls, error = parse_tool_calls(text)
    if error:
        raise TextActionError(error)
    if len(calls) > 1:
        raise TextActionError(f"Found {len(calls)} tool calls; a text action holds exactly one.")
    if calls:
        return _call_to_action(calls[0])
    m = list(_ACTION_PREFIX.finditer(text))
    candidates = [text[m[-1].end():].splitlines()[0]] if m else []
    candidates += [text.strip()] if "\n" not in text.strip() else [ln for ln in text.strip().splitlines()[::-1] if ln.strip()][:1]
    for cand in candidates:
        action = _call_syntax(cand)
        if action is not None:
            return action
    raise TextActionError("Could not find an action in the text. Write one of: " + " | ".join(EXAMPLES)
                          + f". Tools: {', '.join(TOOL_NAMES)}.")


def _call_to_action(call: dict[str, Any]) -> dict[str, Any]:
    args = call["arguments"]
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError as e:
            raise TextActionError(f"The arguments of {call['name']!r} are not valid JSON ({e.msg} at position "
                                  f"{e.pos}).") from None
    if not isinstance(args, dict):
        raise TextActionError(f"The arguments of {call['name']!r} must be a JSON object.")
    return {"tool": call["name"], **args}


def invalid_action(text: str) -> dict[str, Any]:
    """An action the env rejects (consuming the turn, changing nothing), carrying the raw text."""
    return {"tool": None, "unparsed_text": text[:4000]}


class TextActions(gym.Wrapper):
    """``step(text)``: free-text actions for string-based policies.

    Args:
        env: an FDEGym env (possibly wrapped).
        text_obs: if true, observations are the observation's ``text`` string instead of the dict.

    A string that cannot be read consumes the turn like any malformed action; ``obs["text"]`` and
    ``info["last_action_error"]`` carry the precise parse error.

    Example:
        >>> env = TextActions(FDEGymEnv(task="tests/fixtures/tiny_task"), text_obs=True)  # doctest: +SKIP
        >>> obs, info = env.reset(seed=0)                                                # doctest: +SKIP
        >>> obs, r, term, trunc, info = env.step('read_file("docs/notes.md")')           # doctest: +SKIP
    """

    def __init__(self, env: gym.Env, text_obs: bool = False):
        super().__init__(env)
        self.text_obs = text_obs
        self.action_space = UnicodeText(max_length=1_000_000)
        if text_obs:
            space = env.observation_space
            text = space.spaces.get("text") if isinstance(space, spaces.Dict) else None
            if not isinstance(text, UnicodeText):
                raise TypeError(f"text_obs=True needs an observation space with a 'text' UnicodeText field, got {space}")
            self.observation_space = UnicodeText(max_length=text.max_length)

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        return (obs["text"] if self.text_obs else obs), info

    def step(self, action: str):
        try:
            parsed, error = parse_text_action(action), None
        except TextActionError as e:
            parsed, error = invalid_action(action if isinstance(action, str) else repr(action)), str(e)
        obs, reward, terminated, truncated, info = self.env.step(parsed)
        if error is not None:
            info = dict(info, last_action_error=error)
            tail = obs["text"].split("\n\n== result ==", 1)
            obs = dict(obs, text=f"Error: {error}" + (("\n\n== result ==" + tail[1]) if len(tail) > 1 else ""))
        return (obs["text"] if self.text_obs else obs), reward, terminated, truncated, info
