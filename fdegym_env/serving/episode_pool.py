"""Many episodes behind unguessable tokens, capped and reaped when idle (``fdegym mcp --http``).

    pool = EpisodePool(max_episodes=8, idle_timeout_s=1800, record_dir="runs/mcp")
    token, host = pool.start("news_incident", level="L3", seed=0)   # host.brief is the brief
    step = pool.get(token).act({"tool": "directory"})
    pool.end(token)
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fdegym_env.serving.episode_host import EpisodeHost


class PoolError(ValueError):
    """A request the pool cannot serve (unknown token, full pool, task not offered): the caller's mistake."""


@dataclass
class _Entry:
    host: EpisodeHost
    last_used: float


class EpisodePool:
    """Episodes keyed by token.

    Args:
        max_episodes: how many may be live at once; a start beyond it is refused.
        idle_timeout_s: an episode without a call for this long is closed (ungraded) by :meth:`reap`.
        record_dir: each episode is recorded to ``<record_dir>/<task>-<n>.jsonl`` (``None``: not recorded).
        tasks: the task ids callers may start (``None``: every registered task). Task folders are never
            taken from a caller: a task's code runs on this machine.
        host_kwargs: passed to every :class:`EpisodeHost` (sandbox, router, ...).
    """

    def __init__(self, max_episodes: int = 8, idle_timeout_s: float = 1800.0, record_dir: str | Path | None = None,
                 tasks: list[str] | None = None, **host_kwargs: Any):
        from fdegym_env.core.registry import list_tasks
        self.max_episodes = max_episodes
        self.idle_timeout_s = idle_timeout_s
        self.record_dir = Path(record_dir) if record_dir else None
        self.tasks = list(tasks) if tasks else list_tasks()
        self.host_kwargs = host_kwargs
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()
        self._serial = itertools.count(1)

    def live_count(self) -> int:
        """Episodes not yet ended (an ended one stays to repeat its result until it is reaped or ended)."""
        return sum(not e.host.ended and not e.host.closed for e in self._entries.values())

    def start(self, task: str, level: str = "L3", variant: str = "base", seed: int | None = 0,
              agent: str = "mcp") -> tuple[str, EpisodeHost]:
        """Start an episode; returns its token and its host (``host.brief`` holds the brief)."""
        self.reap()
        if task not in self.tasks:
            raise PoolError(f"task {task!r} is not served here; tasks: {', '.join(self.tasks)}")
        with self._lock:
            if self.live_count() >= self.max_episodes:
                raise PoolError(f"{self.max_episodes} episodes are already running (the cap); end one with "
                                "end_episode, or wait until an idle one is reaped")
            n = next(self._serial)
            token = secrets.token_urlsafe(18)
            record = self.record_dir / f"{Path(task).name}-{n:04d}.jsonl" if self.record_dir else None
            host = EpisodeHost(task, level=level, variant=variant, seed=seed, record=record,
                               result_path=record.with_suffix(".result.json") if record else None,
                               agent=agent, **self.host_kwargs)
            self._entries[token] = _Entry(host, time.monotonic())  # holds the place while it starts
        try:
            host.start()
        except Exception:
            with self._lock:
                self._entries.pop(token, None)
            host.close()
            raise
        return token, host

    def act(self, token: Any, action: Any):
        """One action on the episode behind ``token``; an episode that this action ended releases its
        workspace and sandbox at once (its result stays for the calls that follow)."""
        host = self.get(token)
        step = host.act(action)
        if step.ended:
            host.close()
        return step

    def get(self, token: Any) -> EpisodeHost:
        """The live episode behind ``token``; :class:`PoolError` when there is none."""
        with self._lock:
            entry = self._entries.get(token) if isinstance(token, str) else None
            if entry is None:
                raise PoolError("no live episode with that token (it ended, was reaped after being idle, or "
                                "never existed); start one with start_episode")
            entry.last_used = time.monotonic()
            return entry.host

    def end(self, token: Any) -> EpisodeHost:
        """Close the episode behind ``token`` (nothing is submitted) and forget it."""
        with self._lock:
            entry = self._entries.pop(token, None) if isinstance(token, str) else None
        if entry is None:
            raise PoolError("no live episode with that token")
        entry.host.close()
        return entry.host

    def reap(self) -> list[str]:
        """Close episodes idle past the timeout; returns their tokens."""
        now = time.monotonic()
        with self._lock:
            old = [t for t, e in self._entries.items() if now - e.last_used > self.idle_timeout_s]
            entries = [self._entries.pop(t) for t in old]
        for e in entries:
            e.host.close()
        return old

    def close(self) -> None:
        with self._lock:
            entries = list(self._entries.values())
            self._entries.clear()
        for e in entries:
            e.host.close()
