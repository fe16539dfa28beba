"""Clients for an fdegym OpenEnv server (``fdegym serve-env``).

* :class:`FDEGymClient` — OpenEnv's ``EnvClient`` typed for fdegym (async; ``.sync()`` for a blocking one).
* :class:`RemoteFDEGymEnv` — the same remote episode with the Gymnasium call shapes the rest of the
  package uses: ``reset(seed, options) -> (obs, info)``, ``step(action) -> (obs, reward, terminated,
  truncated, info)``. The TRL/SkyRL adapters take it (``base_url=...``), so a trainer on another host
  drives remote episodes exactly as local ones.

Example:
    >>> env = RemoteFDEGymEnv("http://127.0.0.1:8000", task="news_incident")     # doctest: +SKIP
    >>> obs, info = env.reset(seed=0)                                              # doctest: +SKIP
    >>> obs, r, terminated, truncated, info = env.step({"tool": "submit"})        # doctest: +SKIP
    >>> info["result"]["score"]                                                    # doctest: +SKIP
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np
from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from fdegym_env.core.actions import make_action_space
from fdegym_env.core.env import make_observation_space


class FDEGymClient(EnvClient[dict, dict, dict]):
    """OpenEnv client for fdegym: actions are fdegym action dicts; observations and state are dicts."""

    def _step_payload(self, action: Any) -> dict[str, Any]:
        return dict(action)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[dict]:
        return StepResult(observation=payload.get("observation", {}), reward=payload.get("reward"),
                          done=bool(payload.get("done", False)))

    def _parse_state(self, payload: dict[str, Any]) -> dict:
        return payload


class RemoteFDEGymEnv(gym.Env):
    """One remote fdegym episode at a time, called like :class:`~fdegym_env.FDEGymEnv`.

    A ``gymnasium.Env`` with fdegym's spaces, so wrappers (:class:`~fdegym_env.wrappers.ChatEnv`, the
    SkyRL/GEM adapters) take it as they take a local env.

    Args:
        base_url: the server (``http://host:port`` or ``ws://host:port``).
        task, level, variant: sent with every reset (``options`` ``level``/``variant`` override them).
        message_timeout_s: how long one step may take on the server (grading at submit included).

    ``max_turns`` is the server's episode limit, known once an episode was reset (``None`` before).
    """

    def __init__(self, base_url: str, task: str | None = None, level: str | None = None, variant: str | None = None,
                 message_timeout_s: float = 600.0):
        self.base_url = base_url
        self.observation_space = make_observation_space()
        self.action_space = make_action_space()
        self.max_turns: int | None = None
        self.defaults = {k: v for k, v in {"task": task, "level": level, "variant": variant}.items() if v}
        self._client = FDEGymClient(base_url=base_url, message_timeout_s=message_timeout_s).sync()
        self._client.connect()

    @staticmethod
    def _split(result: StepResult[dict]) -> tuple[dict[str, Any], dict[str, Any]]:
        o = dict(result.observation)
        info = dict(o.get("info") or {})
        obs = {"text": o.get("text", ""), "turn": np.array([o.get("turn", 0)], dtype=np.int64),
               "hours": np.array([o.get("hours", 0.0)], dtype=np.float32),
               "inbox_new": np.array([o.get("inbox_new", 0)], dtype=np.int64), "valid": int(bool(o.get("valid", True)))}
        return obs, info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        fields: dict[str, Any] = dict(self.defaults)
        fields.update({k: v for k, v in (options or {}).items() if k in ("task", "level", "variant")})
        if seed is not None:
            fields["seed"] = int(seed)
        out = self._split(self._client.reset(**fields))
        self.max_turns = int(self.state().get("max_turns") or 0) or None
        return out

    def step(self, action: Any):
        payload = action if isinstance(action, dict) else {"tool": action}
        result = self._client.step(payload)
        obs, info = self._split(result)
        return obs, float(result.reward or 0.0), bool(result.done), False, info

    def state(self) -> dict[str, Any]:
        return dict(self._client.state())

    def score_now(self) -> dict[str, Any]:
        raise NotImplementedError("a remote episode is graded when it ends: send {'tool': 'submit'}")

    def close(self) -> None:
        self._client.close()


def launch_local_server(task: str, max_episodes: int = 8, idle_timeout_s: float = 900.0,
                        quiet: bool = False, wait_s: float = 60.0) -> tuple[subprocess.Popen, str]:
    """Start ``fdegym serve-env`` on a free local port; returns the process and its ``http://`` address
    once it accepts connections (for demos, benches and tests; stop it with ``proc.terminate()``)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "fdegym_env.cli.main", "serve-env", "--port", str(port),
                             "--task", task, "--max-episodes", str(max_episodes), "--idle-timeout", str(idle_timeout_s)],
                            stdout=subprocess.DEVNULL if quiet else None)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, f"http://127.0.0.1:{port}"
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"fdegym serve-env exited with code {proc.returncode} before listening") from None
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"fdegym serve-env did not listen within {wait_s:.0f} s")
