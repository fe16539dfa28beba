"""One episode held for a caller outside the process: the core that ``fdegym episode``, ``fdegym mcp``
and the OpenEnv server share.

An :class:`EpisodeHost` owns one env for one graded attempt: :meth:`start` resets it once (there is
no second reset), :meth:`act` takes one action in any form the env accepts and returns the
observation text exactly as the env wrote it, and once the episode has ended every further
:meth:`act` says so and repeats the result. Everything is recorded with the
:class:`~fdegym_env.wrappers.Recorder` (so ``fdegym show`` and ``fdegym replay`` read it), and the
result is written as JSON when the episode ends.

    host = EpisodeHost("news_incident", level="L3", seed=0, record="ep/transcript.jsonl",
                       result_path="ep/result.json")
    brief = host.start()
    step = host.act({"tool": "read_file", "path": "TASK.md"})
    print(step.text)
    host.close()
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fdegym_env.grading.result_text import result_text


@dataclass
class Step:
    """What one :meth:`EpisodeHost.act` returns."""

    text: str                   # the env's observation text (after the end: a notice plus the result)
    turn: int
    valid: bool                 # the action parsed and ran
    ended: bool                 # the episode is over (this step ended it, or it had already ended)
    reward: float = 0.0
    result: dict[str, Any] | None = None  # the graded result, only once the episode has ended
    already_ended: bool = False  # the action came after the end and was not executed
    error: str | None = None    # info["last_action_error"]

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "turn": self.turn, "valid": self.valid, "ended": self.ended,
                "reward": self.reward, "result": self.result, "already_ended": self.already_ended,
                "error": self.error}


@dataclass
class EpisodeHost:
    """One episode of one task, one attempt.

    Args:
        task: a registered task id or a task folder.
        level, variant, seed: as for :class:`~fdegym_env.FDEGymEnv` and its ``reset``.
        sandbox, router: the env's backends.
        record: a JSONL recording to write (``None``: none).
        result_path: where the graded result goes as JSON when the episode ends (``None``: nowhere).
        agent: the agent name written into the result.
    """

    task: str
    level: str = "L3"
    variant: str = "base"
    seed: int | None = 0
    sandbox: str = "auto"
    router: str | None = None
    record: str | Path | None = None
    result_path: str | Path | None = None
    agent: str = "external"
    # None: no wall-clock limit, as for a person, since the agent's host decides how long it may think
    # (the episode daemon drops an abandoned episode); a number is stated in the brief and counted down
    max_wall_seconds: float | None = None
    env_kwargs: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._env = None
        self.brief: str | None = None
        self.turn = 0
        self.result: dict[str, Any] | None = None
        self.closed = False

    # --- lifecycle -------------------------------------------------------------------------------
    def start(self) -> str:
        """Build the env, reset it once with the seed, and return the brief (the reset observation)."""
        from fdegym_env.core.env import NO_WALL_LIMIT, FDEGymEnv
        with self._lock:
            if self._env is not None or self.closed:
                raise RuntimeError("an EpisodeHost starts once: one start is one graded attempt")
            env: Any = FDEGymEnv(task=self.task, level=self.level, variant=self.variant, sandbox=self.sandbox,
                                 router=self.router,
                                 **{"max_wall_seconds": self.max_wall_seconds or NO_WALL_LIMIT, **self.env_kwargs})
            if self.record is not None:
                from fdegym_env.wrappers.recorder import Recorder
                env = Recorder(env, self.record)
            self._env = env
            obs, _ = env.reset(seed=self.seed, options={"agent": self.agent})
            self.brief = obs["text"]
            return self.brief

    @property
    def ended(self) -> bool:
        return self.result is not None

    @property
    def workspace(self) -> Path | None:
        return None if self._env is None else self._env.unwrapped.workspace

    @property
    def env(self):
        """The (possibly recorded) env; ``None`` before :meth:`start`."""
        return self._env

    def act(self, action: Any) -> Step:
        """Execute one action (a dict, an OpenAI-style tool call, a typed action or a JSON string).

        A malformed action is the env's business: its observation says what was wrong. After the end,
        nothing runs: the step says the episode has ended and carries the result.
        """
        with self._lock:
            if self._env is None:
                raise RuntimeError("act() before start(): start the episode first")
            if self.result is not None or self.closed:
                return self._ended_step()
            obs, reward, terminated, truncated, info = self._env.step(action)
            self.turn = int(info.get("turn") or self.turn + 1)
            ended = bool(terminated or truncated)
            if ended:
                self.result = dict(info.get("result") or {})
                self._write_result()
            return Step(text=obs["text"], turn=self.turn, valid=bool(obs["valid"]), ended=ended,
                        reward=float(reward), result=self.result if ended else None,
                        error=info.get("last_action_error"))

    def _ended_step(self) -> Step:
        if self.result is None:
            text = "This episode was stopped before it ended; nothing was submitted or graded."
        else:
            text = (f"This episode has ended ({self.result.get('end_reason')} at turn {self.result.get('turns', self.turn)});"
                    f" no further actions run.\n\n{result_text(self.result)}")
        return Step(text=text, turn=self.turn, valid=False, ended=True, result=self.result, already_ended=True)

    def _write_result(self) -> None:
        if self.result_path is None:
            return
        p = Path(self.result_path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.result, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")

    def close(self) -> None:
        """End the episode without submitting: the env and its workspace and sandbox go away."""
        with self._lock:
            self.closed = True
            if self._env is not None:
                self._env.close()

    def close_from_signal(self) -> None:
        """:meth:`close` for a signal handler, which may interrupt this very thread inside
        :meth:`start` or :meth:`step` (holding the lock): then the folders this process made are
        deleted directly instead of waiting on a lock that is never released."""
        if self._lock.acquire(blocking=False):
            try:
                self.closed = True
                if self._env is not None:
                    self._env.close()
            finally:
                self._lock.release()
        else:
            from fdegym_env.core.owned import release_all
            self.closed = True
            release_all()

