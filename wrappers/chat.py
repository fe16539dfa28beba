"""The env as an OpenAI-style chat: messages in, tool results out (for LLM policies and RL stacks).

``reset()`` returns ``[system, user]`` messages and ``info["tools"]`` (OpenAI function schemas from
:func:`fdegym_env.tool_schemas`). ``step(message)`` takes one assistant turn:

* an assistant message with ``tool_calls`` (one or several; each executes in order and is answered
  by a ``tool`` message with its ``tool_call_id``);
* text with tool calls written in it (``<tool_call>{...}</tool_call>``, a JSON object, a ```` ```json ````
  block): each executes in order, results come back as ``user`` messages;
* plain text without a tool call: a nudge; it still consumes one env turn.

Every executed call is one env step, so limits, costs and the return are exactly those of the
underlying env: the sum of ``step`` rewards equals ``info["result"]["score"]``. Malformed calls never
raise; the error is the content of the answering message. Tool outputs longer than
``max_tool_chars`` are clipped (head and tail kept) with a note of what was cut.

Example:
    >>> env = ChatEnv(FDEGymEnv(task="tests/fixtures/tiny_task"))                      # doctest: +SKIP
    >>> messages, info = env.reset(seed=0)                                             # doctest: +SKIP
    >>> new, reward, terminated, truncated, info = env.step({"role": "assistant", "content": None,
    ...     "tool_calls": [{"id": "c1", "type": "function",
    ...                     "function": {"name": "list_files", "arguments": "{}"}}]})  # doctest: +SKIP
    >>> new[0]["role"], new[0]["tool_call_id"]                                         # doctest: +SKIP
    ('tool', 'c1')
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import gymnasium as gym
from fdegym_env.wrappers.text_actions import invalid_action, parse_tool_calls

from fdegym_env.core.actions import TOOL_NAMES, tool_schemas
from fdegym_env.core.env import unwrap_fdegym

SYSTEM_PROMPT = """\
You are a forward deployed engineer (FDE) embedded with a customer. You work through tools only:
read the workspace, run commands in it, talk to the customer's people, change the system, submit.

How to work:
- The sponsor's request may not be the real problem. Read the brief, the docs and the data, find
  out what actually hurts the customer's business metric, and fix that.
- People know things the documents do not say: unstated rules, constraints, recent changes. Ask
  one specific question at a time, to the right person (see `directory`). Every question costs the
  customer time, and that is counted against you, so do not ask what the documents already answer.
- `system/` goes to production exactly as it is when you call `submit`. Keep the entry points that
  production calls working; a crash or a breach of the customer's rules is an incident.
- Test your change with `run` (python3, sqlite3 and coreutils, no network) before you submit.
- Use tools for every action; when the system is ready, call `submit` with a short hand-over note.
"""

NUDGE = ("Your last message had no tool call, so nothing happened (it still used a turn). "
         "Act through the tools ({tools}); call `submit` when system/ is ready.")
ENDED = "Not executed: the engagement already ended with an earlier call in this turn."


def clip_text(text: str, max_chars: int | None, head_share: float = 0.6) -> str:
    """Clip ``text`` to about ``max_chars`` characters, keeping head and tail, and say what was cut.

    Example:
        >>> clip_text("a" * 50 + "\\n" + "b" * 50, 40)[:20]
        'aaaaaaaaaaaaaaaaaaaa'
    """
    if max_chars is None or len(text) <= max_chars:
        return text
    head = max(1, int(max_chars * head_share))
    tail = max(1, max_chars - head)
    cut = text[head:len(text) - tail]
    note = (f"\n[... {len(cut)} characters ({cut.count(chr(10))} lines) cut from the middle to fit the "
            f"context; read a file in parts with read_file offset/limit, or narrow the command's output ...]\n")
    return text[:head] + note + text[len(text) - tail:]


def message_to_dict(message: Any) -> dict[str, Any]:
    """An assistant message as a plain dict (accepts dicts, str, and openai's ``ChatCompletionMessage``)."""
    if isinstance(message, str):
        return {"role": "assistant", "content": message}
    if hasattr(message, "model_dump"):
        message = message.model_dump(exclude_none=True)
    if not isinstance(message, dict):
        raise TypeError(f"expected an assistant message (dict with role/content/tool_calls) or a string, "
                        f"got {type(message).__name__}")
    out: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    calls = []
    for i, tc in enumerate(message.get("tool_calls") or []):
        if hasattr(tc, "model_dump"):
            tc = tc.model_dump()
        fn = tc.get("function") or {}
        calls.append({"id": tc.get("id") or f"call_{i}", "type": "function",
                      "function": {"name": fn.get("name", tc.get("name")),
                                   "arguments": fn.get("arguments", tc.get("arguments", "{}"))}})
    if calls:
        out["tool_calls"] = calls
    return out


class ChatEnv(gym.Wrapper):
    """An FDEGym env spoken to in OpenAI-style chat messages (see the module docstring).

    Args:
        env: an FDEGym env (possibly wrapped, e.g. in a Recorder).
        system_prompt: the system message (default: :data:`SYSTEM_PROMPT`).
        max_tool_chars: clip each tool output to this many characters (``None``: never).

    ``observation_space``/``action_space`` stay those of the inner env; this wrapper's observations
    are message lists and its actions assistant messages.
    """

    def __init__(self, env: gym.Env, system_prompt: str | None = None, max_tool_chars: int | None = 12_000):
        super().__init__(env)
        self.system_prompt = SYSTEM_PROMPT if system_prompt is None else system_prompt
        self.max_tool_chars = max_tool_chars
        self.messages: list[dict[str, Any]] = []
        self.done = True
        self.total_reward = 0.0
        self.last_info: dict[str, Any] = {}

    # --- sync -------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self.messages = [{"role": "system", "content": self.system_prompt},
                         {"role": "user", "content": obs["text"]}]
        self.done = False
        self.total_reward = 0.0
        info = dict(info, tools=tool_schemas("openai"))
        self.last_info = info
        return [dict(m) for m in self.messages], info

    def step(self, message: Any):
        if self.done:
            raise RuntimeError("step() called on a finished chat episode; call reset() first")
        msg = message_to_dict(message)
        self.messages.append(msg)
        new: list[dict[str, Any]] = []
        results: list[dict[str, Any]] = []
        total = 0.0
        terminated = truncated = False
        info: dict[str, Any] = self.last_info

        def run(action: Any) -> tuple[str, dict]:
            nonlocal total, terminated, truncated, info
            obs, r, terminated, truncated, info = self.env.step(action)
            total += float(r)
            results.append({"tool": info.get("tool"), "error": info.get("last_action_error"), "reward": float(r)})
            return obs["text"], info

        if msg.get("tool_calls"):
            for tc in msg["tool_calls"]:
                if terminated or truncated:
                    new.append({"role": "tool", "tool_call_id": tc["id"], "content": ENDED})
                    continue
                text, _ = run({"name": tc["function"]["name"], "arguments": tc["function"]["arguments"]})
                new.append({"role": "tool", "tool_call_id": tc["id"], "content": self._clip(text)})
        else:
            content = msg.get("content") or ""
            calls, error = parse_tool_calls(content)
            if calls:
                for call in calls:
                    if terminated or truncated:
                        new.append({"role": "user", "content": f"[{call['name']}] {ENDED}"})
                        continue
                    text, _ = run(call)
                    new.append({"role": "user", "content": f"[result of {call['name']}]\n{self._clip(text)}"})
            else:
                text, _ = run(invalid_action(content))
                note = f"Error: {error}" if error else NUDGE.format(tools=", ".join(TOOL_NAMES))
                if "\n\n== result ==" in text:
                    note += "\n\n== result ==" + text.split("\n\n== result ==", 1)[1]
                info = dict(info, last_action_error=error or "no tool call in the message")
                new.append({"role": "user", "content": note})
        self.messages.extend(new)
        self.total_reward += total
        self.done = terminated or truncated
        info = dict(info, tool_results=results)
        self.last_info = info
        return [dict(m) for m in new], total, terminated, truncated, info

    def _clip(self, text: str) -> str:
        return clip_text(text, self.max_tool_chars)

    def score_now(self) -> dict[str, Any]:
        """Grade the current state without ending the episode (for rollouts cut off by a token budget).

        After the episode ended, returns the final result's numbers instead.
        """
        if self.done and self.last_info.get("result"):
            r = self.last_info["result"]
            return {"score": r["score"], "uplift": r["uplift"], "incidents": r["incidents"], "kpi": r["kpi"]}
        return unwrap_fdegym(self.env).score_now()

    # --- async ------------------------------------------------------------------------------------
    async def areset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """``reset`` without blocking the event loop (runs in a worker thread)."""
        return await asyncio.to_thread(self.reset, seed=seed, options=options)

    async def astep(self, message: Any):
        """``step`` without blocking the event loop (runs in a worker thread)."""
        return await asyncio.to_thread(self.step, message)

    async def ascore_now(self) -> dict[str, Any]:
        return await asyncio.to_thread(self.score_now)


ToolCalling = ChatEnv
"""Alias: the tool-calling view of the env is the chat view."""


def transcript_json(messages: list[dict[str, Any]]) -> str:
    """Messages as pretty JSON (for logs)."""
    return json.dumps(messages, indent=2, ensure_ascii=False)
