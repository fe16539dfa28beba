"""A tool-calling LLM agent over any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, LiteLLM, ...).

The agent keeps an OpenAI-style conversation: the brief as the first user message, each tool call's
result as a ``tool`` message (clipped for context). One model turn may call several tools; they run
in order, one env step each. Text tool calls (``<tool_call>{...}</tool_call>``, JSON in the text) are
read too, for servers that do not parse tool calls. A reply without any tool call is a nudge: it
consumes one env turn and the model is reminded to act through tools.

Limits, as in the paper's harness (whichever comes first ends the run; ``system/`` is then
submitted as it stands): ``max_turns`` model calls, ``max_wall_seconds``, ``max_usd`` from the
price table :data:`PRICES` (:mod:`fdegym_env.llm.prices`, USD per million tokens; pass ``prices=``
for other models). Rate limits (429), server errors (5xx), timeouts and dropped connections are
retried with exponential backoff (honouring ``Retry-After``), by the rule of :mod:`fdegym_env.llm.retry`.
Token usage and cost go into the episode result (``result["usage"]``, through
:func:`~fdegym_env.agents.run_episode`) and into a :class:`~fdegym_env.wrappers.Recorder` recording.

Example:
    >>> agent = LLMAgent(model="Qwen/Qwen3-8B", base_url="http://localhost:8000/v1")   # vLLM  # doctest: +SKIP
    >>> agent = LLMAgent(model="qwen3:8b", base_url="http://localhost:11434/v1")      # Ollama  # doctest: +SKIP
    >>> result = run_episode(gym.make("FDEGym/news_incident-v0"), agent, seed=0)      # doctest: +SKIP
    >>> result["usage"]["usd"], result["score"]                                       # doctest: +SKIP
"""

from __future__ import annotations

import json
import random
import time
from collections import deque
from typing import Any, Callable

from fdegym_env.wrappers.chat import NUDGE, SYSTEM_PROMPT, clip_text, message_to_dict
from fdegym_env.wrappers.text_actions import invalid_action, parse_tool_calls

from fdegym_env.core.actions import TOOL_NAMES, tool_schemas
from fdegym_env.llm import Endpoint, make_client
from fdegym_env.llm.prices import PRICES, cost_usd, price_of
from fdegym_env.llm.retry import (
    FATAL_STATUS,
    RETRY_STATUS,
    Retry,
    RetryPolicy,
    call_with_retries,
    refused,
    retry_after,
    retryable,
)

# the price table and the retry rule are those of every model call (fdegym_env.llm.prices, .retry)
__all__ = ["LLMAgent", "PRICES", "RETRY_STATUS", "FATAL_STATUS", "price_for", "messages_json"]
price_for = price_of


class LLMAgent:
    """Plays an episode by calling an OpenAI-compatible chat-completions endpoint with the env's tools.

    Args:
        model: model name as the server knows it (default ``$FDEGYM_MODEL``).
        base_url: the server's ``/v1`` URL (default ``$FDEGYM_BASE_URL``, then ``$OPENAI_BASE_URL``, then OpenAI).
        api_key / api_key_file: the key, or a file holding it (else ``$FDEGYM_API_KEY``, ``$FDEGYM_API_KEY_FILE``, ``$OPENAI_API_KEY``; see :mod:`fdegym_env.llm`).
        max_turns: model calls before the agent submits (default: no limit of its own; the env's
            ``max_turns`` still applies).
        max_wall_seconds: wall time before the agent submits.
        max_usd: spend before the agent submits (needs a price for ``model``).
        prices: extra/override price entries, USD per million tokens ``{model: (input, output[, cached])}``.
        temperature, max_tokens, seed, extra_body: passed to the endpoint.
        max_tool_chars: clip each tool result to this many characters.
        system_prompt: replaces :data:`~fdegym_env.wrappers.chat.SYSTEM_PROMPT`.
        retries, backoff_s, max_backoff_s: retry policy for 429/5xx/timeouts (exponential, jittered).
        request_timeout_s: per-request timeout.
        client: an ``openai.OpenAI``-like client to use instead of building one.
        sleep: the sleep function used between retries (tests pass a fake).
    """

    def __init__(self, model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                 api_key_file: str | None = None, *, max_turns: int | None = None,
                 max_wall_seconds: float | None = None, max_usd: float | None = None,
                 prices: dict[str, tuple[float, ...]] | None = None, temperature: float | None = 0.0,
                 max_tokens: int | None = 4096, seed: int | None = None, extra_body: dict | None = None,
                 max_tool_chars: int = 12_000, system_prompt: str | None = None, retries: int = 6,
                 backoff_s: float = 1.0, max_backoff_s: float = 60.0, request_timeout_s: float = 600.0,
                 client: Any = None, sleep: Callable[[float], None] = time.sleep):
        ep = Endpoint.resolve("agent", base_url=base_url, model=model, api_key=api_key, api_key_file=api_key_file,
                              need_key=client is None, who="LLMAgent")
        self.model, self.base_url = ep.model, ep.base_url
        self.name = f"llm:{self.model}"
        self.prices = dict(prices or {})
        self.price = price_for(self.model, self.prices)
        if max_usd is not None and self.price is None:
            raise ValueError(f"max_usd={max_usd} needs a price for model {self.model!r}, which is not in the price "
                             f"table; pass prices={{{self.model!r}: (usd_per_M_input, usd_per_M_output)}}")
        self.max_turns, self.max_wall_seconds, self.max_usd = max_turns, max_wall_seconds, max_usd
        self.temperature, self.max_tokens, self.seed, self.extra_body = temperature, max_tokens, seed, extra_body
        self.max_tool_chars = max_tool_chars
        self.system_prompt = SYSTEM_PROMPT if system_prompt is None else system_prompt
        self.retries, self.backoff_s, self.max_backoff_s = retries, backoff_s, max_backoff_s
        self.retry_policy = RetryPolicy(retries, backoff_s, max_backoff_s)
        self._sleep = sleep
        self._rng = random.Random(0)
        if client is None:
            client = make_client(ep, timeout=request_timeout_s, max_retries=0, who="the LLM agent (--agent llm)")
        self.client = client
        self.messages: list[dict[str, Any]] = []

    # --- the Agent protocol -------------------------------------------------------------------------
    def reset(self, env, obs: dict, info: dict) -> None:
        self.messages = [{"role": "system", "content": self.system_prompt},
                         {"role": "user", "content": obs["text"]}]
        self._queue: deque[tuple[str, Any, Any]] = deque()  # (kind, call id or name, action)
        self._last: tuple[str, Any] | None = None
        self._started = time.monotonic()
        self.usage: dict[str, Any] = {"model": self.model, "base_url": self.base_url, "model_calls": 0, "prompt_tokens": 0,
                      "completion_tokens": 0, "cached_prompt_tokens": 0, "total_tokens": 0,
                      "usd": 0.0 if self.price is not None else None,
                      "price_usd_per_mtok": list(self.price) if self.price else None, "retries": 0,
                      "api_errors": [], "tool_calls": 0, "text_tool_calls": 0, "action_errors": 0, "nudges": 0,
                      "wall_seconds": 0.0, "stop_reason": None}
        try:
            self._annotate = env.get_wrapper_attr("annotate")
        except AttributeError:
            self._annotate = None

    def act(self, obs: dict, info: dict) -> Any:
        self._take_result(obs, info)
        if self._queue:
            return self._emit(self._queue.popleft())
        stop = self._budget_exhausted()
        if stop is None:
            try:
                reply = self._complete()
            except _FatalAPIError:
                raise
            except Exception as e:  # retries exhausted, or a request the server refused
                self.usage["api_errors"].append(f"{type(e).__name__}: {str(e)[:300]}")
                stop = f"api_error: {type(e).__name__}"
            else:
                self._plan(reply)
                return self._emit(self._queue.popleft())
        self.usage["stop_reason"] = stop
        self._publish()
        return {"tool": "submit", "note": f"(agent stopped: {stop}; system/ delivered as it stands)"}

    def episode_extras(self) -> dict[str, Any]:
        """What :func:`~fdegym_env.agents.run_episode` adds to the result: ``{"usage": {...}}``."""
        self.usage["wall_seconds"] = round(time.monotonic() - self._started, 3)
        return {"usage": dict(self.usage)}

    # --- conversation bookkeeping ---------------------------------------------------------------------
    def _take_result(self, obs: dict, info: dict) -> None:
        """Turn the observation of the last action into the message the model sees."""
        if self._last is None:
            return
        kind, ref = self._last
        self._last = None
        if info.get("last_action_error") and kind != "nudge":
            self.usage["action_errors"] += 1
        text = clip_text(obs["text"], self.max_tool_chars)
        if kind == "tool":
            self.messages.append({"role": "tool", "tool_call_id": ref, "content": text})
        elif kind == "text":
            self.messages.append({"role": "user", "content": f"[result of {ref}]\n{text}"})
        elif kind == "parse_error":
            self.messages.append({"role": "user", "content": f"Error: {ref}"})
        else:
            self.messages.append({"role": "user", "content": NUDGE.format(tools=", ".join(TOOL_NAMES))})

    def _emit(self, item: tuple[str, Any, Any]) -> Any:
        kind, ref, action = item
        self._last = (kind, ref)
        return action

    def _plan(self, msg: dict[str, Any]) -> None:
        self.messages.append(msg)
        if msg.get("tool_calls"):
            for tc in msg["tool_calls"]:
                self.usage["tool_calls"] += 1
                fn = tc["function"]
                self._queue.append(("tool", tc["id"], {"name": fn["name"], "arguments": fn["arguments"]}))
            return
        content = msg.get("content") or ""
        calls, error = parse_tool_calls(content)
        if calls:
            for call in calls:
                self.usage["text_tool_calls"] += 1
                self._queue.append(("text", call["name"], call))
        elif error:
            self._queue.append(("parse_error", error, invalid_action(content)))
        else:
            self.usage["nudges"] += 1
            self._queue.append(("nudge", None, invalid_action(content)))

    # --- budgets -----------------------------------------------------------------------------------
    def _budget_exhausted(self) -> str | None:
        u = self.usage
        if self.max_turns is not None and u["model_calls"] >= self.max_turns:
            return f"max_turns ({self.max_turns} model calls)"
        if self.max_wall_seconds is not None and time.monotonic() - self._started >= self.max_wall_seconds:
            return f"max_wall_seconds ({self.max_wall_seconds:g} s)"
        if self.max_usd is not None and u["usd"] is not None and u["usd"] >= self.max_usd:
            return f"max_usd (${u['usd']:.4f} spent of ${self.max_usd:g})"
        return None

    # --- the endpoint ------------------------------------------------------------------------------
    def _complete(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "messages": self.messages, "tools": tool_schemas("openai")}
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.max_tokens is not None:
            kwargs["max_tokens"] = self.max_tokens
        if self.seed is not None:
            kwargs["seed"] = self.seed
        if self.extra_body:
            kwargs["extra_body"] = self.extra_body
        resp = self._create_with_retries(kwargs)
        self._account(resp)
        return message_to_dict(resp.choices[0].message)

    def _create_with_retries(self, kwargs: dict[str, Any]) -> Any:
        import openai

        def classify(e: Exception) -> Retry | None:
            if isinstance(e, openai.APIStatusError):
                if e.status_code in FATAL_STATUS:
                    raise _FatalAPIError(
                        f"the endpoint refused the request with HTTP {e.status_code}: {str(e)[:300]}. "
                        f"Check the API key (401/403), the model name {self.model!r} and base_url "
                        f"{self.base_url!r} (404).") from e
                return Retry(retry_after(e.response.headers)) if retryable(e.status_code) else None
            if isinstance(e, openai.APIConnectionError):
                if self.usage["model_calls"] == 0 and refused(e):   # nothing listens there: no retry helps
                    raise _FatalAPIError(
                        f"cannot reach the model endpoint {self.base_url or '(default OpenAI URL)'}: connection "
                        "refused (nothing listens at that address). Fix: start the server, or pass the right "
                        "--base-url (e.g. http://127.0.0.1:8000/v1 for a local vLLM)") from e
                return Retry()
            return None

        def counted(_delay: float) -> None:
            self.usage["retries"] += 1

        return call_with_retries(lambda: self.client.chat.completions.create(**kwargs), classify,
                                 policy=self.retry_policy, sleep=self._sleep, rng=self._rng, on_retry=counted)

    def _account(self, resp: Any) -> None:
        u = self.usage
        u["model_calls"] += 1
        usage = getattr(resp, "usage", None)
        if usage is not None:
            p = int(getattr(usage, "prompt_tokens", 0) or 0)
            c = int(getattr(usage, "completion_tokens", 0) or 0)
            details = getattr(usage, "prompt_tokens_details", None)
            cached = int(getattr(details, "cached_tokens", 0) or 0) if details is not None else 0
            u["prompt_tokens"] += p
            u["completion_tokens"] += c
            u["cached_prompt_tokens"] += cached
            u["total_tokens"] += p + c
            if self.price is not None:
                u["usd"] = round(u["usd"] + cost_usd(self.price, p, c, cached), 10)
        self._publish()

    def _publish(self) -> None:
        if self._annotate is not None:
            self._annotate(usage=self.episode_extras()["usage"])


class _FatalAPIError(RuntimeError):
    """A configuration mistake the run cannot recover from (bad key, unknown model, wrong URL)."""


def messages_json(agent: LLMAgent) -> str:
    """The agent's conversation as pretty JSON (for debugging a run)."""
    return json.dumps(agent.messages, indent=2, ensure_ascii=False, default=str)
