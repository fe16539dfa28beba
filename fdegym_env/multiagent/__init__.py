"""Multi-agent FDE-Gym: PettingZoo envs where stakeholders are agents.

One engagement, an engineer agent (``engineer_0``) and one agent per stakeholder named in
``external``; every other stakeholder stays scripted, as in the single-agent env. The scripted
rules still decide everything that makes scores comparable; agents only choose wording and how
much of what the rules allow they disclose.

Usage::

    from fdegym_env.multiagent import env, parallel_env, ScriptedStakeholder, LLMStakeholder

    e = env(task="news_incident", external=["night_editor"], level="L3")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
        elif agent == "engineer_0":
            e.step(my_engineer.act(obs, info))        # any single-agent action form
        else:
            e.step(stakeholder_policy.act(obs, info))  # {"reply": str, "disclose": mask}

Agents
    ``possible_agents = ["engineer_0", *external]`` (stakeholder agents are named by their person
    id), fixed for the env's life. People who are "gone" stay agents; messages to them get the
    automatic reply without their turn.

Turn order
    The engineer acts. A ``contact`` to an external stakeholder that the rules let through hands the
    turn to that stakeholder; its reply returns the turn to the engineer. Every other action is
    executed at once. The Parallel env is a turn-based conversion (not ``aec_to_parallel``): each
    step executes only the acting agent's action (``infos[a]["acting"]``).

Rules before policies
    The env decides, before any policy is asked: unknown person (an error observation, as
    single-agent), gone (automatic reply), patience and the shared budget (the scripted refusal),
    off-limits without topics (the fixed reply), pricing and the clock (charged as scripted), and
    which facts are releasable for this message (routing, evidence gates, ``requires_facts``,
    stalls, availability). The stakeholder agent is asked only when the person would answer.

Spaces
    Engineer: the single-agent env's spaces (``Dict(text, turn, hours, inbox_new, valid)``;
    ``Dict(tool, <argument fields>)``; its ``to`` field samples mostly person ids).
    Stakeholder observation: ``Dict(text, releasable: MultiBinary(n), pending: Discrete(2),
    asked, hours)``: ``text`` holds the persona (role, blurb, manner, misconceptions), the
    conversation with this engineer, the new message, the scripted reply and the releasable facts
    with their descriptions; ``releasable`` is the mask of facts the rules allow now, over the
    person's facts ``info["facts"]`` (``n = max(1, number of facts)``; a person with no facts has
    one unused bit). ``info["request"]`` carries the same content as structured data.
    Stakeholder action: ``Dict(reply: text, disclose: MultiBinary(n))``; ``reply=""`` means the
    script's words. Also accepted: ``disclose`` as a list of fact ids, ``"all"`` or ``"none"``;
    a missing ``disclose`` means the scripted disclosure. A malformed action is an error
    observation for the stakeholder (its turn again); after 3 the scripted reply is used.

Disclosure
    The env ANDs the agent's mask with the releasable facts: a policy can be less helpful than the
    script but never leak what the rules withhold. Released facts (not the wording) decide the
    discovery metrics (``key_fact_coverage``, ``facts_obtained``) and ``after_fact`` inbox messages.
    Unasked inbox messages stay scripted.

Rewards
    Engineer: exactly the single-agent reward (dense or sparse; the return equals the score). For a
    message to a stakeholder agent the engineer's step pays 0 and the message's cost arrives with
    the reply (AEC accumulates it, so ``last()`` on the engineer's next turn shows the single-agent
    reward). Stakeholders: ``stakeholder_reward`` per reply, see :mod:`fdegym_env.multiagent.rewards`
    (``faithfulness`` by default; ``adversarial``, ``patience_weighted``; or any callable).

Episode end
    As single-agent (``submit`` or a limit); every agent is terminated at once and gets
    ``info["result"]``.

Determinism
    Seeded runs replay exactly (with deterministic routers and deterministic policies).

Version history
    v0: first release.
"""

from __future__ import annotations

from typing import Any

from fdegym_env.multiagent.aec import StakeholderAECEnv
from fdegym_env.multiagent.core import ENGINEER, Engagement
from fdegym_env.multiagent.parallel import ParallelStakeholderEnv
from fdegym_env.multiagent.policies import LLMStakeholder, ScriptedStakeholder, parse_llm_reply
from fdegym_env.multiagent.rewards import REWARDS, ReplyEvent, adversarial, faithfulness, patience_weighted


def env(task: Any = "news_incident", external: Any = None, **kwargs: Any) -> StakeholderAECEnv:
    """The AEC stakeholder env.

    Args:
        task: task id or task folder path.
        external: stakeholder ids played by agents, ``"all"``, or None.
        **kwargs: ``stakeholder_reward`` and the single-agent env's arguments (level, variant, sandbox,
            router, reward_mode, max_turns, ...).

    Example:
        >>> e = env(task="news_incident", external=["night_editor"])   # doctest: +SKIP
        >>> e.possible_agents                                          # doctest: +SKIP
        ['engineer_0', 'night_editor']
    """
    return StakeholderAECEnv(task, external, **kwargs)


raw_env = env


def parallel_env(task: Any = "news_incident", external: Any = None, **kwargs: Any) -> ParallelStakeholderEnv:
    """The Parallel (turn-based) stakeholder env; arguments as :func:`env`."""
    return ParallelStakeholderEnv(task, external, **kwargs)


__all__ = [
    "ENGINEER",
    "REWARDS",
    "Engagement",
    "LLMStakeholder",
    "ParallelStakeholderEnv",
    "ReplyEvent",
    "ScriptedStakeholder",
    "StakeholderAECEnv",
    "adversarial",
    "env",
    "faithfulness",
    "parallel_env",
    "parse_llm_reply",
    "patience_weighted",
    "raw_env",
]
