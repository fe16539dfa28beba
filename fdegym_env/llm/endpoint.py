"""Endpoint configuration (base URL, model, key) per role, and the ``openai`` client built from it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from fdegym_env.core.errors import MissingDependencyError

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1"})
# role -> environment-variable prefix
ROLES = {"agent": "FDEGYM_", "env": "FDEGYM_LLM_"}


def _role_prefix(role: str) -> str:
    try:
        return ROLES[role]
    except KeyError:
        raise ValueError(f"role: expected one of {sorted(ROLES)}, got {role!r}") from None


def read_key_file(path: str | os.PathLike, what: str) -> str:
    p = Path(os.path.expanduser(str(path)))
    if not p.is_file():
        raise ValueError(f"{what}: expected a readable file holding the API key, got {str(p)!r} "
                         f"(fix: point it at the key file, or pass api_key=)")
    key = p.read_text(encoding="utf-8").strip()
    if not key:
        raise ValueError(f"{what}: {str(p)!r} is empty; expected the API key on its first line")
    return key


@dataclass(frozen=True)
class Endpoint:
    """Where a model lives and how to authenticate.

    Example:
        >>> ep = Endpoint.resolve("env", base_url="http://127.0.0.1:8000/v1", model="m", environ={})
        >>> ep.model, ep.api_key, ep.is_local
        ('m', 'EMPTY', True)
        >>> Endpoint.resolve("agent", environ={"FDEGYM_MODEL": "x", "OPENAI_API_KEY": "sk-1"}).api_key
        'sk-1'
        >>> Endpoint.resolve("agent", model="x", environ={})
        Traceback (most recent call last):
        ...
        ValueError: agent model endpoint needs an API key, got none (fix: pass api_key= or api_key_file=, set FDEGYM_API_KEY or FDEGYM_API_KEY_FILE, or give the base_url of a local server)
    """

    role: str
    base_url: str | None
    model: str
    api_key: str

    @property
    def is_local(self) -> bool:
        return urlparse(self.base_url or "").hostname in LOCAL_HOSTS

    @classmethod
    def resolve(cls, role: str, *, base_url: str | None = None, model: str | None = None,
                api_key: str | None = None, api_key_file: str | os.PathLike | None = None,
                default_model: str | None = None, need_key: bool = True, who: str | None = None,
                environ: dict[str, str] | None = None) -> "Endpoint":
        """Explicit arguments first, then the role's environment variables, then ``OPENAI_*``.

        ``need_key=False`` (a caller that brings its own client) skips the key lookup; ``who`` names the
        caller in error messages."""
        env = os.environ if environ is None else environ
        pre = _role_prefix(role)
        who = who or f"{role} model endpoint"
        base_url = base_url or env.get(f"{pre}BASE_URL") or env.get("OPENAI_BASE_URL") or None
        model = model or env.get(f"{pre}MODEL") or default_model
        if not model:
            cli = "--model M on the fdegym command line, " if role == "agent" else ""
            raise ValueError(f"{who} needs a model name, got none "
                             f"(fix: {cli}pass model= or set {pre}MODEL)")
        key = ""
        if need_key:
            if api_key:
                key = api_key
            elif api_key_file:
                key = read_key_file(api_key_file, "api_key_file")
            elif env.get(f"{pre}API_KEY"):
                key = env[f"{pre}API_KEY"]
            elif env.get(f"{pre}API_KEY_FILE"):
                key = read_key_file(env[f"{pre}API_KEY_FILE"], f"{pre}API_KEY_FILE")
            elif env.get("OPENAI_API_KEY"):
                key = env["OPENAI_API_KEY"]
            elif urlparse(base_url or "").hostname in LOCAL_HOSTS:
                key = "EMPTY"  # local OpenAI-compatible servers (vLLM, Ollama, llama.cpp) accept any key
            else:
                raise ValueError(f"{who} needs an API key, got none (fix: pass api_key= or "
                                 f"api_key_file=, set {pre}API_KEY or {pre}API_KEY_FILE, or give the base_url "
                                 f"of a local server)")
        return cls(role=role, base_url=base_url.rstrip("/") if base_url else None, model=model, api_key=key)


def make_client(endpoint: Endpoint, *, timeout: float = 600.0, max_retries: int = 0, who: str = "this model call") -> Any:
    """An ``openai.OpenAI`` client for ``endpoint``; a clear error if ``openai`` is not installed."""
    try:
        import openai
    except ImportError:
        raise MissingDependencyError(who, "openai", "llm") from None
    return openai.OpenAI(base_url=endpoint.base_url, api_key=endpoint.api_key, timeout=timeout,
                         max_retries=max_retries)
