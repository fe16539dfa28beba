"""The one retry rule for model calls, whichever client makes them.

Rate limits and server trouble (HTTP 408, 409, 429 and every 5xx), timeouts and dropped connections
are retried with exponential, jittered backoff (``backoff_s * 2**attempt``, capped at
``max_backoff_s``), honouring ``Retry-After``; other HTTP errors are not, and neither is a refused
connection on a client's first call (nothing listens there). These are the statuses the ``openai``
SDK retries; :func:`call_with_retries` runs the loop for the SDK client of
:class:`~fdegym_env.agents.llm.LLMAgent` (built with ``max_retries=0``) and for the stdlib client of
the harness gateways (:func:`fdegym_env.harness.servers.chat`), each with a ``classify`` for its
own exceptions. Callers content with the SDK's own loop (the LLM router, LLM stakeholders) pass
``max_retries`` to :func:`~fdegym_env.llm.make_client`: it retries the same statuses.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

T = TypeVar("T")
RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
FATAL_STATUS = frozenset({401, 403, 404})   # a configuration mistake: key, model name or URL


def retryable(status: int) -> bool:
    """True for an HTTP status worth retrying (see the module docstring)."""
    return status in RETRY_STATUS or status >= 500


@dataclass(frozen=True)
class Retry:
    """``classify``'s verdict that a failure is worth another attempt, after ``after`` seconds if the server said."""

    after: float | None = None


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry."""

    retries: int = 6
    backoff_s: float = 1.0
    max_backoff_s: float = 60.0

    def delay(self, attempt: int, retry_after: float | None = None, rng: Any = random) -> float:
        """Seconds to wait before attempt ``attempt + 1`` (``attempt`` counts from 0)."""
        if retry_after is not None:
            return min(self.max_backoff_s, retry_after)
        return min(self.max_backoff_s, self.backoff_s * 2 ** attempt) * (0.5 + 0.5 * rng.random())


DEFAULT_RETRY = RetryPolicy()


def call_with_retries(fn: Callable[[], T], classify: Callable[[Exception], Retry | None], *,
                      policy: RetryPolicy = DEFAULT_RETRY, sleep: Callable[[float], None] = time.sleep,
                      rng: Any = random, on_retry: Callable[[float], None] | None = None) -> T:
    """``fn()``, retried per ``policy`` while ``classify(error)`` returns a :class:`Retry`.

    ``classify`` returns ``None`` to let the error through unchanged (or raises one of its own);
    when the retries are spent a ``RuntimeError`` says how many attempts were made.

    Example:
        >>> replies, waits = iter([TimeoutError(), TimeoutError(), "ok"]), []
        >>> def once():
        ...     r = next(replies)
        ...     if isinstance(r, Exception):
        ...         raise r
        ...     return r
        >>> call_with_retries(once, lambda e: Retry(after=0.5), sleep=waits.append)
        'ok'
        >>> waits
        [0.5, 0.5]
        >>> call_with_retries(lambda: 1 / 0, lambda e: Retry(), policy=RetryPolicy(retries=1), sleep=waits.append)
        Traceback (most recent call last):
        ...
        RuntimeError: gave up after 2 attempts (429/5xx/timeouts)
    """
    attempt = 0
    while True:
        try:
            return fn()
        except Exception as e:  # classify decides what is retried
            verdict = classify(e)
            if verdict is None:
                raise
        if attempt >= policy.retries:
            raise RuntimeError(f"gave up after {attempt + 1} attempts (429/5xx/timeouts)")
        delay = policy.delay(attempt, verdict.after, rng)
        if on_retry is not None:
            on_retry(delay)
        attempt += 1
        sleep(delay)


def retry_after(headers: Any) -> float | None:
    """The ``Retry-After`` seconds in response ``headers`` (``None`` if absent or not a number)."""
    try:
        value = headers.get("retry-after") or headers.get("Retry-After")
        return max(0.0, float(value)) if value is not None else None
    except (AttributeError, TypeError, ValueError):
        return None


def refused(e: BaseException) -> bool:
    """True if a connection error was caused by a refused TCP connection (anywhere in its chain)."""
    seen = 0
    x: BaseException | None = e
    while x is not None and seen < 10:
        if isinstance(x, ConnectionRefusedError) or "Connection refused" in str(x) or "[Errno 111]" in str(x):
            return True
        x = x.__cause__ or x.__context__
        seen += 1
    return False
