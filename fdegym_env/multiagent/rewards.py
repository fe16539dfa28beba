"""Stakeholder reward functions: what a stakeholder agent is paid for one reply.

A reward function takes a :class:`ReplyEvent` (one message answered by a stakeholder agent) and
returns a float. Pass one to the env as ``stakeholder_reward=`` (a name from :data:`REWARDS` or any
callable). The engineer's reward never depends on it: the engineer always gets the single-agent
reward.

Built-ins:

- ``faithfulness`` (default): how closely the released facts follow the scripted disclosure,
  the Jaccard similarity of ``released`` and ``releasable`` (1.0 when both are empty). A stakeholder
  trained on it learns to behave like the script while choosing its own words.
- ``adversarial``: minus the share of the task's key facts released by this reply. Summed over an
  episode it is minus this stakeholder's contribution to ``key_fact_coverage``: a stakeholder that
  resists discovery.
- ``patience_weighted``: faithfulness scaled by the patience left after the reply
  (``questions left / patience``; 1.0 for people without a patience cap), so early answers count
  more than answers squeezed out of someone who is running out of time.

Example:
    >>> ev = ReplyEvent(agent="ops", message="cutoff?", scripted_reply="It is 5.", reply="5.",
    ...                 releasable=("F_threshold",), released=("F_threshold",))
    >>> faithfulness(ev), adversarial(ev)
    (1.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fdegym_env.core.errors import did_you_mean


@dataclass(frozen=True)
class ReplyEvent:
    """One reply of a stakeholder agent, as the env committed it.

    Attributes:
        agent: the stakeholder's agent id (its person id).
        message: what the engineer wrote.
        scripted_reply: what the script would have answered.
        reply: what the engineer was shown.
        releasable: facts the rules allowed for this message (the script releases all of them).
        released: facts actually released (the policy's mask AND ``releasable``).
        asked: questions this person has answered so far, this one included.
        patience: the person's cap on questions (None: no cap).
        key_facts: the task's key facts (truth.yaml).
        turn: the engineer's turn number.
    """

    agent: str
    message: str
    scripted_reply: str
    reply: str
    releasable: tuple[str, ...]
    released: tuple[str, ...]
    asked: int = 1
    patience: int | None = None
    key_facts: tuple[str, ...] = ()
    turn: int = 0


RewardFn = Callable[[ReplyEvent], float]


def faithfulness(ev: ReplyEvent) -> float:
    """Jaccard similarity of released and releasable facts (1.0 when both are empty)."""
    a, b = set(ev.released), set(ev.releasable)
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def adversarial(ev: ReplyEvent) -> float:
    """Minus the share of the task's key facts this reply released (0.0 without key facts)."""
    if not ev.key_facts:
        return 0.0
    return -len(set(ev.released) & set(ev.key_facts)) / len(set(ev.key_facts))


def patience_weighted(ev: ReplyEvent) -> float:
    """Faithfulness scaled by the share of patience left after this reply."""
    if not ev.patience:
        return faithfulness(ev)
    left = max(0, int(ev.patience) - int(ev.asked))
    return faithfulness(ev) * left / int(ev.patience)


REWARDS: dict[str, RewardFn] = {"faithfulness": faithfulness, "adversarial": adversarial,
                                "patience_weighted": patience_weighted}


def resolve_reward(spec: str | RewardFn) -> RewardFn:
    """A reward function from a name in :data:`REWARDS` or a callable.

    Example:
        >>> resolve_reward("faithfulness") is faithfulness
        True
    """
    if callable(spec):
        return spec
    if isinstance(spec, str) and spec in REWARDS:
        return REWARDS[spec]
    hint = did_you_mean(str(spec), list(REWARDS))
    raise ValueError(f"stakeholder_reward must be one of {', '.join(REWARDS)} or a callable(ReplyEvent) -> float, "
                     f"got {spec!r}.{hint}")
