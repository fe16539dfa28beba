"""The agent interface and the loop that plays one episode."""

from __future__ import annotations

from typing import Any, Protocol

import gymnasium as gym


class Agent(Protocol):
    name: str

    def reset(self, env: gym.Env, obs: dict, info: dict) -> None:
        """Called after env.reset(); ``env`` is the (possibly wrapped) environment."""

    def act(self, obs: dict, info: dict) -> Any:
        """Return the next action (any form env.step accepts)."""


def run_episode(env: gym.Env, agent: Agent, seed: int | None = None, options: dict | None = None,
                max_steps: int = 10_000) -> dict[str, Any]:
    """Play one episode; returns ``info["result"]`` with the undiscounted return as ``return``."""
    opts = dict(options or {})
    opts.setdefault("agent", agent.name)
    obs, info = env.reset(seed=seed, options=opts)
    agent.reset(env, obs, info)
    total = 0.0
    for _ in range(max_steps):
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        total += float(reward)
        if terminated or truncated:
            break
    result = dict(info.get("result") or {})
    if not result:
        raise RuntimeError(f"episode ended without a graded result (truncated={truncated}); "
                           "raise the TimeLimit above the task's max_turns")
    result["return"] = total
    extras = getattr(agent, "episode_extras", None)
    if callable(extras):  # e.g. an LLM agent's {"usage": {...}}
        result.update(extras())
    return result
