"""fdegym tasks behind OpenEnv's server contract, for RL trainers on other hosts.

OpenEnv (``openenv-core``) serves an environment over HTTP and a WebSocket route (``/ws``): each
connection gets its own environment instance, messages are ``reset``/``step``/``state``/``close``.
This module adapts one :class:`~fdegym_env.FDEGymEnv` episode to that contract:

* **Action** (:class:`FDEGymAction`): any fdegym action as JSON — ``{"tool": "read_file", "path": ...}``
  or an OpenAI-style tool call ``{"name": ..., "arguments": "..."}``. It is handed to the env's own
  parser unchanged, so a malformed action is an observation that says what was wrong, never a crash.
* **Observation** (:class:`FDEGymObservation`): the env's ``text`` and numeric keys, the step's
  ``reward`` (dense by default: the sum over an episode equals the score), ``done``, and ``info``
  (the step's info: ``last_action_error``, ``customer_time``; ``result`` once the episode ended).
* **reset** takes ``seed`` and, per episode, ``task``, ``level`` and ``variant`` (defaults from the
  server); an unknown id is an error message that names the known ones.
* **state**: episode id, step count, task, variant, level, turn, whether it ended, and the result.

Sessions are capped (``max_episodes``) and reaped when idle (``idle_timeout_s``) or when their client
disconnects; closing a session closes its env (workspace and sandbox removed).

Example:
    >>> app = create_fdegym_app(task="news_incident", max_episodes=8)        # doctest: +SKIP
    >>> # uvicorn.run(app, port=8000); or: fdegym serve-env --port 8000
"""

from __future__ import annotations

import uuid
from typing import Any, Optional

from openenv.core.env_server.http_server import create_fastapi_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import Action, ConcurrencyConfig, Observation, State
from pydantic import ConfigDict, Field

ENDED_TEXT = "The episode has ended; send reset to start another."


class FDEGymAction(Action):
    """One fdegym action; every field is passed to the env's action parser as it is."""

    model_config = ConfigDict(extra="allow", validate_assignment=True, arbitrary_types_allowed=True)

    tool: Optional[Any] = Field(default=None, description="list_files, read_file, ..., submit (see tool_schemas())")


class FDEGymObservation(Observation):
    """What the agent sees after a reset or a step."""

    text: str = Field(default="", description="the observation text (brief, file contents, replies, ...)")
    turn: int = 0
    hours: float = 0.0
    inbox_new: int = 0
    valid: bool = True
    info: dict[str, Any] = Field(default_factory=dict,
                                 description="the step's info: last_action_error, customer_time; result once ended")


class FDEGymState(State):
    """Where the session's episode stands (no grading before it ended)."""

    task: str = ""
    variant: Optional[str] = None
    level: str = ""
    turn: int = 0
    max_turns: int = 0
    done: bool = False
    result: Optional[dict[str, Any]] = None


def _plain(value: Any) -> Any:
    """Info values as JSON types (numpy scalars and arrays become numbers and lists)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return value.tolist()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


class FDEGymEnvironment(Environment[FDEGymAction, FDEGymObservation, FDEGymState]):
    """One fdegym episode at a time, in OpenEnv's ``Environment`` shape (one instance per connection).

    Args:
        task, level, variant: defaults for ``reset`` (each can be overridden per reset).
        env_kwargs: passed to :class:`~fdegym_env.FDEGymEnv` (``sandbox``, ``router``, ``reward_mode``, ...).
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, task: str = "news_incident", level: str = "L3", variant: str = "base",
                 env_kwargs: dict[str, Any] | None = None):
        super().__init__()
        self.defaults = {"task": task, "level": level, "variant": variant}
        self.env_kwargs = dict(env_kwargs or {})
        self._env: Any = None
        self._task_id: str | None = None
        self._state = FDEGymState()

    def _env_for(self, task: str) -> Any:
        from fdegym_env.core.env import FDEGymEnv
        from fdegym_env.core.registry import load_task
        if self._env is None or self._task_id != task:
            loaded = load_task(task)                          # an unknown id raises with "did you mean"
            if self._env is not None:
                self._env.close()
            self._env = FDEGymEnv(task=loaded, **self.env_kwargs)
            self._task_id = task
        return self._env

    def reset(self, seed: Optional[int] = None, episode_id: Optional[str] = None, task: Optional[str] = None,
              level: Optional[str] = None, variant: Optional[str] = None, **kwargs: Any) -> FDEGymObservation:
        if kwargs:
            raise ValueError(f"unknown reset field(s): {', '.join(sorted(kwargs))} "
                             "(known: seed, episode_id, task, level, variant)")
        env = self._env_for(task or self.defaults["task"])
        options = {"level": level or self.defaults["level"], "variant": variant or self.defaults["variant"],
                   "agent": "openenv"}
        obs, info = env.reset(seed=seed, options=options)
        self._state = FDEGymState(episode_id=episode_id or str(uuid.uuid4()), step_count=0, task=env.task.id,
                                  variant=info.get("variant"), level=info.get("level") or options["level"],
                                  max_turns=env.max_turns)
        return self._observation(obs, 0.0, False, info)

    def step(self, action: FDEGymAction, timeout_s: Optional[float] = None, **kwargs: Any) -> FDEGymObservation:
        if self._env is None:
            raise RuntimeError("no episode: send reset first")
        if self._state.done:
            return FDEGymObservation(text=ENDED_TEXT, done=True, reward=0.0, valid=False, turn=self._state.turn,
                                     info={"result": self._state.result, "last_action_error": ENDED_TEXT})
        payload = action.model_dump(exclude={"metadata"}, exclude_none=True)
        obs, reward, terminated, truncated, info = self._env.step(payload)
        done = bool(terminated or truncated)
        self._state.step_count += 1
        self._state.turn = int(info.get("turn") or self._state.turn + 1)
        if done:
            self._state.done = True
            self._state.result = _plain(info.get("result"))
        return self._observation(obs, float(reward), done, info)

    @property
    def state(self) -> FDEGymState:
        return self._state

    def close(self) -> None:
        if self._env is not None:
            self._env.close()
            self._env = None

    @staticmethod
    def _observation(obs: dict[str, Any], reward: float, done: bool, info: dict[str, Any]) -> FDEGymObservation:
        return FDEGymObservation(text=obs["text"], turn=int(obs["turn"][0]), hours=float(obs["hours"][0]),
                                 inbox_new=int(obs["inbox_new"][0]), valid=bool(obs["valid"]), reward=reward,
                                 done=done, info=_plain({k: v for k, v in info.items() if k != "ledger"}))


class _QuietClientClose:
    """ASGI middleware: a client that closed its WebSocket first is a normal end of session.

    OpenEnv's ``/ws`` handler closes the socket after the client's ``close`` message; when the client
    has already gone, Starlette raises ``WebSocketDisconnect`` there and the server logs a traceback
    for every well-behaved client. The session was already destroyed by then: nothing is lost.
    """

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        from starlette.websockets import WebSocketDisconnect
        try:
            await self.app(scope, receive, send)
        except WebSocketDisconnect:
            if scope.get("type") != "websocket":
                raise


def create_fdegym_app(task: str = "news_incident", level: str = "L3", variant: str = "base",
                      max_episodes: int = 8, idle_timeout_s: float | None = 900.0, **env_kwargs: Any):
    """The FastAPI app serving fdegym episodes with OpenEnv's routes (``/ws``, ``/reset``, ``/step``, ...).

    Args:
        task, level, variant: each session's defaults for ``reset``.
        max_episodes: concurrent sessions (one env each); a connection past the cap gets a clear error.
        idle_timeout_s: a session with no message for this long is closed (None: never).
        **env_kwargs: passed to every :class:`~fdegym_env.FDEGymEnv` (``sandbox``, ``router``, ...).
    """
    from fdegym_env.core.registry import load_task
    load_task(task)                                           # fail at start-up, not at the first reset
    if max_episodes < 1:
        raise ValueError(f"max_episodes must be at least 1, got {max_episodes}")

    def factory() -> FDEGymEnvironment:
        return FDEGymEnvironment(task=task, level=level, variant=variant, env_kwargs=env_kwargs)

    config = ConcurrencyConfig(max_concurrent_envs=max_episodes, session_timeout=idle_timeout_s)
    app = create_fastapi_app(factory, FDEGymAction, FDEGymObservation, concurrency_config=config)
    app.add_middleware(_QuietClientClose)
    return app
