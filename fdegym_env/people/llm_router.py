"""LLM topic routing through any OpenAI-compatible endpoint, with verdicts cached on disk.

What a stakeholder knows and says stays scripted; the model only decides which of the person's
topics a message asks about and whether each topic's evidence gate is met — the same two
judgements the reference harness (``deeplethe/fde-gym``, ``harness/npc_server.py``) asks of its
cheap model:

1. one routing call: pick the topics (most direct first) and judge their gates;
2. if nothing was picked, one yes/no call per topic (single questions are more reliable);
3. a gate given as a list of conditions is judged condition by condition (all must hold); a gate
   the routing call marked unmet gets a focused second look (up to two yes/no calls).

Every verdict is cached under ``<cache_dir>/llm_router/`` keyed by the SHA-256 of the model name
and the exact prompt, so a re-run of the same episode makes no HTTP calls and returns the same
answers. The router is still marked ``deterministic = False``: a cold cache depends on the model.
If the endpoint fails, the message is routed by the ``regex`` router (as in the harness).

Differences from the harness, on purpose: a topic with regex ``requires`` but no ``gate`` text is
gated by its regex (the harness would never open it under its LLM matcher), and up to
``MAX_TOPICS_PER_MESSAGE + 2`` topics are kept so that the person's ``overflow`` line still applies.

Example:
    >>> from fdegym_env.people.llm_router import LLMRouter
    >>> r = LLMRouter(base_url="http://127.0.0.1:8000/v1", model="qwen2.5-7b-instruct",
    ...               api_key_file="~/.keys/local")                          # doctest: +SKIP
    >>> topics, gates = r.route(person, "Who fixes the RT7 scanners? INC00123 bounced.", [])  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from fdegym_env.llm import Endpoint, make_client
from fdegym_env.people.routers import MAX_TOPICS_PER_MESSAGE, Person, RegexRouter, Topic, _regex_any, register_router

ROUTE_PROMPT = """\
You decide which scripted topics a message to a colleague at work is asking about. You never answer it.

Colleague: {name}, {role}.

Topics this colleague can speak about (id: what it covers | what their answer says, when shown | gate, when there is one):
{topics}

How to decide:
- Pick a topic only when the message specifically asks about what that topic covers; when the
  answer is shown, only when that answer actually answers what is asked.
- Pick every topic the message specifically asks about, at most {k}, the most directly asked first.
- A broad fishing message ("tell me everything", "what should I know?", "any advice?") picks nothing.
- For each picked topic that has a gate, say whether the message meets the gate. Evidence the sender
  already gave this colleague in the earlier messages below counts as given. A gate asking for
  evidence is met only when the concrete evidence is stated (numbers, examples, document or ticket
  names), not when the sender merely says they have some.

{earlier}Message: {message}

Answer with JSON only: {{"topics": ["id", ...], "gates_met": {{"id": true}}}}"""

TOPIC_PROMPT = """\
Someone sent a message to {name}, {role}, who can speak about this subject:

{about}

Does the message ask, at least in part, for something within that subject? A vague request for
"everything" or "any advice" does not count.

Message: {message}

Answer with JSON only: {{"asks": true}} or {{"asks": false}}"""

GATE_PROMPT = """\
Someone sent a message to {name}, {role}. Judge one thing only: does the message meet this condition?

Condition: {gate}

Evidence the sender already gave this person in earlier messages counts as given.

{earlier}Message: {message}

Answer with JSON only: {{"met": true}} or {{"met": false}}"""

_JSON_OBJECT = re.compile(r"\{.*\}", re.S)


class LLMRouterError(RuntimeError):
    """The endpoint failed or answered something that is not the JSON verdict asked for."""


def gate_text(topic: Topic) -> str | None:
    """A topic's gate as one line (a list of conditions is numbered and joined with AND)."""
    g = topic.get("gate")
    if isinstance(g, list):
        return " AND ".join(f"({i + 1}) {c}" for i, c in enumerate(g))
    return g


def parse_verdict(text: str) -> dict[str, Any]:
    """The first JSON object in a model reply (tolerates code fences and chatter around it)."""
    m = _JSON_OBJECT.search(text or "")
    if not m:
        raise LLMRouterError(f"expected a JSON object in the model reply, got {text[:200]!r}")
    try:
        out = json.loads(m.group(0))
    except json.JSONDecodeError as e:
        raise LLMRouterError(f"expected valid JSON in the model reply, got {text[:200]!r} ({e})") from None
    if not isinstance(out, dict):
        raise LLMRouterError(f"expected a JSON object in the model reply, got {type(out).__name__}")
    return out


class LLMRouter:
    """Topic routing by an OpenAI-compatible chat model, verdicts cached by content hash.

    Args:
        base_url: endpoint, e.g. ``http://127.0.0.1:8000/v1`` (default: ``$FDEGYM_LLM_BASE_URL``,
            ``$OPENAI_BASE_URL``, else OpenAI's).
        model: model name (default ``$FDEGYM_LLM_MODEL``); required.
        api_key: the key itself; else ``api_key_file``; else ``$FDEGYM_LLM_API_KEY`` /
            ``$FDEGYM_LLM_API_KEY_FILE`` / ``$OPENAI_API_KEY``; a local ``base_url`` without a key gets a dummy one.
        api_key_file: path to a file holding the key.
        cache_dir: where verdicts are kept (default ``fdegym_env.core.paths.cache_dir() / "llm_router"``).
        timeout: seconds per HTTP call.
        max_tokens: completion budget of the routing call (yes/no calls use 60).
        client: an ``openai.OpenAI``-like object to use instead of building one.
        about_only: show the model each topic's ``about`` only, as the harness does (harness
            parity); by default it also sees what the topic's answer says, so it can tell a
            question the paragraph answers from one on the same subject that it does not.

    Attributes:
        http_calls: completions requested from the endpoint (cache misses).
        cache_hits: verdicts served from disk.

    Example:
        >>> r = LLMRouter(base_url="http://127.0.0.1:8000/v1", model="m")   # doctest: +SKIP
        >>> r.route(person, "What does a P1 page cost?", [])                # doctest: +SKIP
        ([{'id': 'page_costs', ...}], {})
    """

    deterministic = False
    name = "llm"

    def __init__(self, base_url: str | None = None, model: str | None = None, api_key: str | None = None,
                 api_key_file: str | os.PathLike | None = None, cache_dir: str | os.PathLike | None = None,
                 timeout: float = 60.0, max_tokens: int = 300, client: Any = None, about_only: bool = False,
                 **unused: Any):
        if unused:
            raise TypeError(f"LLMRouter got unexpected argument(s) {', '.join(sorted(unused))}; expected "
                            f"base_url, model, api_key, api_key_file, cache_dir, timeout, max_tokens, client, about_only")
        self._endpoint = Endpoint.resolve("env", base_url=base_url, model=model, api_key=api_key,
                                          api_key_file=api_key_file, need_key=client is None, who="LLMRouter")
        self.base_url, self.model = self._endpoint.base_url, self._endpoint.model
        if cache_dir is None:
            from fdegym_env.core.paths import cache_dir as default_cache
            cache_dir = default_cache() / "llm_router"
        self.cache_dir = Path(cache_dir)
        self.timeout = float(timeout)
        self.max_tokens = int(max_tokens)
        self._client = client
        self.about_only = bool(about_only)
        self.http_calls = 0
        self.cache_hits = 0
        self._fallback = RegexRouter()

    # --- transport and cache ------------------------------------------------------------------------
    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = make_client(self._endpoint, timeout=self.timeout, max_retries=1, who="the llm router")
        return self._client

    def _cache_path(self, prompt: str, max_tokens: int) -> Path:
        h = hashlib.sha256(json.dumps({"model": self.model, "prompt": prompt, "max_tokens": max_tokens},
                                      sort_keys=True).encode("utf-8")).hexdigest()
        return self.cache_dir / h[:2] / f"{h}.json"

    def ask_json(self, prompt: str, max_tokens: int = 60) -> dict[str, Any]:
        """One verdict: from the cache if this exact prompt was judged before, else from the model."""
        path = self._cache_path(prompt, max_tokens)
        if path.is_file():
            try:
                verdict = json.loads(path.read_text(encoding="utf-8"))["verdict"]
                self.cache_hits += 1
                return verdict
            except (OSError, ValueError, KeyError):
                pass  # a damaged entry is asked again and overwritten
        self.http_calls += 1
        try:
            resp = self.client.chat.completions.create(
                model=self.model, messages=[{"role": "user", "content": prompt}],
                temperature=0, max_tokens=max_tokens)
            text = resp.choices[0].message.content or ""
        except Exception as e:  # openai.APIError and transport errors: the caller falls back
            raise LLMRouterError(f"LLM endpoint {self.base_url or 'default'} failed: {type(e).__name__}: {e}") from e
        verdict = parse_verdict(text)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"model": self.model, "verdict": verdict, "reply": text}), encoding="utf-8")
        os.replace(tmp, path)
        return verdict

    # --- routing ----------------------------------------------------------------------------------
    @staticmethod
    def _earlier(earlier: list[str]) -> str:
        if not earlier:
            return ""
        return ("Earlier messages from the same sender to this colleague (context only, do not route them):\n"
                + "\n".join("- " + q[:600] for q in earlier[-4:]) + "\n\n")

    def _gate_met(self, person: Person, condition: str, earlier: str, message: str) -> bool:
        prompt = GATE_PROMPT.format(name=person["name"], role=person["role"], gate=condition,
                                    earlier=earlier, message=message)
        # Judged up to twice: turning away a message that meets the condition is the costlier
        # error. The second look is a (slightly) different prompt, so it has its own cache entry.
        for suffix in ("", "\n(Second look: read the message again before you answer.)"):
            try:
                if self.ask_json(prompt + suffix, 60).get("met"):
                    return True
            except LLMRouterError:
                pass
        return False

    def route(self, person: Person, message: str, earlier: list[str]) -> tuple[list[Topic], dict[str, bool]]:
        topics = person.get("topics", [])
        if not topics:
            return [], {}
        by_id = {t["id"]: t for t in topics}
        lines = "\n".join(f"- {t['id']}: {t.get('about') or t['id']}"
                          + ("" if self.about_only else f" | answer says: {' '.join(str(t.get('answer', '')).split())}")
                          + (f" | gate: {gate_text(t)}" if t.get("gate") else "") for t in topics)
        ctx = self._earlier(earlier)
        prompt = ROUTE_PROMPT.format(name=person["name"], role=person["role"], topics=lines, earlier=ctx,
                                     k=MAX_TOPICS_PER_MESSAGE + 2, message=message)
        try:
            verdict = self.ask_json(prompt, self.max_tokens)
        except LLMRouterError:
            return self._fallback.route(person, message, earlier)
        picked = verdict.get("topics") or []
        ids: list[str] = []
        for i in picked if isinstance(picked, list) else []:
            if isinstance(i, str) and i in by_id and i not in ids:
                ids.append(i)
        if not ids:
            for t in topics:
                try:
                    if self.ask_json(TOPIC_PROMPT.format(name=person["name"], role=person["role"],
                                                         about=t.get("about") or t["id"], message=message), 60).get("asks"):
                        ids.append(t["id"])
                except LLMRouterError:
                    pass
        ids = ids[:MAX_TOPICS_PER_MESSAGE + 2]
        met_raw = verdict.get("gates_met")
        met_raw = met_raw if isinstance(met_raw, dict) else {}
        gates: dict[str, bool] = {}
        for i in ids:
            t = by_id[i]
            if t.get("gate"):
                if isinstance(t["gate"], list):
                    gates[i] = all(self._gate_met(person, c, ctx, message) for c in t["gate"])
                else:
                    gates[i] = bool(met_raw.get(i)) or self._gate_met(person, t["gate"], ctx, message)
            elif t.get("requires"):
                gates[i] = _regex_any(t["requires"], message)
        return [by_id[i] for i in ids], gates


register_router("llm", lambda people, **kwargs: LLMRouter(**kwargs))
