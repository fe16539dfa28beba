"""Stakeholder policies: plug-ins that answer the engineer in a stakeholder agent's seat.

A policy has ``act(obs, info) -> action`` (like :class:`fdegym_env.agents.Agent`), where ``info``
is the stakeholder's info from the env; when a message waits, ``info["request"]`` holds the
message, the scripted reply, the releasable facts (with their truth.yaml descriptions), the
persona and the conversation so far. The action is ``{"reply": str, "disclose": mask or fact ids}``.

- :class:`ScriptedStakeholder`: answers exactly as the script (the single-agent env's behaviour).
- :class:`LLMStakeholder`: an OpenAI-compatible chat model plays the person; it sees what the
  stakeholder agent observes and answers with JSON ``{"reply": ..., "disclose": [fact ids]}``.
  Whatever it asks to disclose, the env releases only what the rules allow.

Example:
    >>> policy = ScriptedStakeholder()
    >>> policy.act({}, {"request": {"scripted_reply": "It is 5.", "releasable": ["F_threshold"]}})
    {'reply': 'It is 5.', 'disclose': ['F_threshold']}
"""

from __future__ import annotations

import json
import re
from typing import Any

from fdegym_env.llm import Endpoint, make_client

SYSTEM_PROMPT = """\
You play one employee of a customer company in a simulation. An engineer embedded with the company
messages you; you answer in character, briefly, as this person would at work.
You are shown what the company's script would answer and which facts you may disclose. You may
paraphrase, be terser or less helpful than the script, and withhold facts, but never invent facts
beyond the ones listed. Answer with JSON only:
{"reply": "<your message to the engineer>", "disclose": ["<fact id>", ...]}"""

_JSON_RE = re.compile(r"\{.*\}", re.DOTALL)


class ScriptedStakeholder:
    """Replies with the scripted words and discloses every releasable fact (the script's behaviour)."""

    name = "scripted"

    def reset(self, *args: Any) -> None:
        pass

    def act(self, obs: dict, info: dict) -> dict[str, Any]:
        req = info.get("request")
        if not req:
            return {"reply": "", "disclose": []}
        return {"reply": req["scripted_reply"], "disclose": list(req["releasable"])}


def parse_llm_reply(text: str) -> tuple[str, list[str]] | None:
    """``{"reply": ..., "disclose": [...]}`` from a model's text (a JSON object, possibly fenced), or None.

    Example:
        >>> parse_llm_reply('```json\\n{"reply": "Hi", "disclose": ["F_a"]}\\n```')
        ('Hi', ['F_a'])
    """
    m = _JSON_RE.search(text or "")
    if not m:
        return None
    try:
        data = json.loads(m.group(0))
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("reply"), str):
        return None
    disclose = data.get("disclose") or []
    if not isinstance(disclose, list):
        return None
    return data["reply"], [str(x) for x in disclose]


class LLMStakeholder:
    """A stakeholder played by a chat model behind any OpenAI-compatible endpoint.

    If the endpoint fails, the scripted reply is used (counted in ``stats["fallbacks"]``); if the
    model's text is not the requested JSON, the text is the reply and nothing is disclosed
    (``stats["unparsed"]``).

    Args:
        model: model name (default ``$FDEGYM_LLM_MODEL``: stakeholders are the environment's model,
            :mod:`fdegym_env.llm` role ``env``).
        base_url: the server's ``/v1`` URL (default ``$FDEGYM_LLM_BASE_URL``, then ``$OPENAI_BASE_URL``).
        api_key / api_key_file: the key, or a file holding it (else ``$FDEGYM_LLM_API_KEY``,
            ``$FDEGYM_LLM_API_KEY_FILE``, ``$OPENAI_API_KEY``; none needed on localhost).
        temperature, max_tokens: passed to the endpoint.
        timeout_s, retries: per-request timeout and the client's retry count.
        client: an ``openai.OpenAI``-like client to use instead of building one.

    Example:
        >>> p = LLMStakeholder(model="qwen3:8b", base_url="http://localhost:11434/v1")   # doctest: +SKIP
        >>> p.act(obs, info)                                                            # doctest: +SKIP
        {'reply': 'Kills come as a separate advisory...', 'disclose': ['F_kna_kill']}
    """

    def __init__(self, model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                 api_key_file: str | None = None, *, temperature: float = 0.0, max_tokens: int = 600,
                 timeout_s: float = 60.0, retries: int = 2, client: Any = None):
        ep = Endpoint.resolve("env", base_url=base_url, model=model, api_key=api_key, api_key_file=api_key_file,
                              need_key=client is None, who="LLMStakeholder")
        self.model, self.base_url = ep.model, ep.base_url
        if client is None:
            client = make_client(ep, timeout=timeout_s, max_retries=retries, who="LLMStakeholder")
        self.client = client
        self.temperature, self.max_tokens = temperature, max_tokens
        self.name = f"llm:{self.model}"
        self.stats = {"calls": 0, "fallbacks": 0, "unparsed": 0, "prompt_tokens": 0, "completion_tokens": 0}
        self.last_error: str | None = None

    def reset(self, *args: Any) -> None:
        pass

    def messages(self, obs: dict, info: dict) -> list[dict[str, str]]:
        """The chat messages sent for one request (the stakeholder's observation text)."""
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": obs["text"]}]

    def act(self, obs: dict, info: dict) -> dict[str, Any]:
        req = info.get("request")
        if not req:
            return {"reply": "", "disclose": []}
        self.stats["calls"] += 1
        try:
            resp = self.client.chat.completions.create(model=self.model, messages=self.messages(obs, info),
                                                       temperature=self.temperature, max_tokens=self.max_tokens)
            text = resp.choices[0].message.content or ""
            usage = getattr(resp, "usage", None)
            if usage is not None:
                self.stats["prompt_tokens"] += int(getattr(usage, "prompt_tokens", 0) or 0)
                self.stats["completion_tokens"] += int(getattr(usage, "completion_tokens", 0) or 0)
        except Exception as e:  # the endpoint failed: the script answers
            self.last_error = f"{type(e).__name__}: {e}"
            self.stats["fallbacks"] += 1
            return {"reply": req["scripted_reply"], "disclose": list(req["releasable"])}
        parsed = parse_llm_reply(text)
        if parsed is None:
            self.stats["unparsed"] += 1
            return {"reply": text.strip(), "disclose": "none"}
        reply, disclose = parsed
        return {"reply": reply, "disclose": disclose if disclose else "none"}
