"""The AEC (turn-by-turn) stakeholder env: ``fdegym_env.multiagent.env(...)``.

Example:
    >>> from fdegym_env.multiagent import env
    >>> e = env(task="tests/fixtures/tiny_task", external=["ops"], sandbox="none")   # doctest: +SKIP
    >>> e.reset(seed=0)                                                              # doctest: +SKIP
    >>> for agent in e.agent_iter():                                                 # doctest: +SKIP
    ...     obs, reward, term, trunc, info = e.last()
    ...     e.step(None if term or trunc else policies[agent].act(obs, info))
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from fdegym_env.multiagent.core import ENGINEER, Engagement


class StakeholderAECEnv(AECEnv):
    """Engineer and stakeholder agents taking turns (see :mod:`fdegym_env.multiagent`).

    Args:
        task, external, stakeholder_reward, **env_kwargs: as :class:`~fdegym_env.multiagent.core.Engagement`.
    """

    metadata = {"name": "fdegym_stakeholders_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, task: Any = "news_incident", external: Any = None, **kwargs: Any):
        super().__init__()
        self.core = Engagement(task, external, **kwargs)
        self.render_mode = self.core.inner.render_mode
        self.possible_agents = list(self.core.possible_agents)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = ENGINEER

    @property
    def engineer_env(self):
        """The engineer's single-agent env (for single-agent agents' ``reset(env, obs, info)``)."""
        return self.core.inner

    def observation_space(self, agent: str):
        return self.core.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.core.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.core.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self.core.info(a) for a in self.agents}
        self.agent_selection = self.core.acting
        self._skip_agent_selection = None

    def observe(self, agent: str):
        return self.core.observe(agent)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        out = self.core.step(agent, action)
        self.rewards = {a: float(out.rewards.get(a, 0.0)) for a in self.agents}
        if out.done:
            self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {a: self.core.info(a) for a in self.agents}
        self.agent_selection = self.core.acting
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self.core.inner.render()

    def close(self) -> None:
        self.core.close()
