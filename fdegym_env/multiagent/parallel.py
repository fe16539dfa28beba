"""The Parallel stakeholder env: ``fdegym_env.multiagent.parallel_env(...)``.

A turn-based conversion written for this env (not ``aec_to_parallel``, which assumes simultaneous
moves): every ``step(actions)`` executes the action of the one agent whose turn it is
(``infos[a]["acting"]``, also ``obs[s]["pending"]`` for stakeholders) and ignores the others, so
samplers and batched learners can pass an action for every live agent. Rewards paid by that step
go to whoever earned them.

Example:
    >>> from fdegym_env.multiagent import parallel_env
    >>> e = parallel_env(task="tests/fixtures/tiny_task", external="all", sandbox="none")  # doctest: +SKIP
    >>> obs, infos = e.reset(seed=0)                                                       # doctest: +SKIP
    >>> obs, rew, term, trunc, infos = e.step({a: e.action_space(a).sample() for a in e.agents})  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any

from pettingzoo import ParallelEnv

from fdegym_env.multiagent.core import Engagement


class ParallelStakeholderEnv(ParallelEnv):
    """Engineer and stakeholder agents, one acting per step (see the module docstring)."""

    metadata = {"name": "fdegym_stakeholders_v0", "render_modes": ["ansi", "human"]}

    def __init__(self, task: Any = "news_incident", external: Any = None, **kwargs: Any):
        self.core = Engagement(task, external, **kwargs)
        self.render_mode = self.core.inner.render_mode
        self.possible_agents = list(self.core.possible_agents)
        self.agents: list[str] = []

    @property
    def engineer_env(self):
        """The engineer's single-agent env."""
        return self.core.inner

    @property
    def acting(self) -> str:
        """The agent whose action the next ``step`` executes."""
        return self.core.acting

    def observation_space(self, agent: str):
        return self.core.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.core.action_spaces[agent]

    def _infos(self) -> dict[str, dict]:
        out = {}
        for a in self.possible_agents:
            info = dict(self.core.info(a))
            info["acting"] = self.core.acting
            out[a] = info
        return out

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.core.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return {a: self.core.observe(a) for a in self.agents}, self._infos()

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise RuntimeError("step() on a finished episode; call reset() first")
        acting = self.core.acting
        if acting not in actions:
            raise KeyError(f"it is {acting!r}'s turn: actions must include {acting!r}; got {sorted(actions)}. "
                           "Fix: pass an action for every live agent (others' are ignored) or read infos[a]['acting'].")
        live = list(self.agents)
        out = self.core.step(acting, actions[acting])
        obs = {a: self.core.observe(a) for a in live}
        rewards = {a: float(out.rewards.get(a, 0.0)) for a in live}
        terminations = dict.fromkeys(live, out.done)
        truncations = dict.fromkeys(live, False)
        infos = self._infos()
        if out.done:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.core.inner.render()

    def close(self) -> None:
        self.core.close()
