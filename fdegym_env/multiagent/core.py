"""The turn engine shared by the AEC and the Parallel stakeholder envs.

:class:`Engagement` owns one single-agent :class:`~fdegym_env.core.env.FDEGymEnv` (the engineer's env)
and routes turns: the engineer acts; a ``contact`` to an external stakeholder that the rules let
through is held, the stakeholder agent is asked, and the held action is then executed by the
single-agent env's own ``step`` with the stakeholder's wording and disclosure mask plugged into the
people engine. Everything else (costs, clock, patience, ledger, grading, reward) is the
single-agent code path, unchanged.

Example:
    >>> core = Engagement("tests/fixtures/tiny_task", external=["ops"], sandbox="none")   # doctest: +SKIP
    >>> core.reset(seed=0)                                                               # doctest: +SKIP
    >>> core.step("engineer_0", {"tool": "contact", "to": "ops", "message": "What is the cutoff?"})  # doctest: +SKIP
    >>> core.acting                                                                      # doctest: +SKIP
    'ops'
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from gymnasium import spaces

from fdegym_env.core.actions import ActionError, make_action_space, parse_action
from fdegym_env.core.env import MAX_OBS_CHARS, FDEGymEnv
from fdegym_env.core.errors import did_you_mean
from fdegym_env.core.spaces import UnicodeText
from fdegym_env.multiagent.rewards import ReplyEvent, RewardFn, resolve_reward
from fdegym_env.people import People

ENGINEER = "engineer_0"
MAX_REPLY_CHARS = 20_000
MAX_ATTEMPTS = 3  # malformed stakeholder actions per message before the scripted reply is used
RESET_OPTIONS = ("level", "variant", "agent")


# --- the people engine with a hook for stakeholder agents --------------------------------------------
Responder = Callable[[dict, str, list, list], tuple[str, list]]


class _HookedPeople(People):
    """:class:`People` whose scripted answer can be rewritten while ``responder`` is set.

    The rules (routing, gates, ``requires_facts``, stalls, patience, costs, clock) run exactly as in
    the single-agent env; the responder only gets to replace the wording and to drop facts.
    """

    responder: Responder | None = None

    def _answer(self, person, message):
        reply, tags, facts = super()._answer(person, message)
        if self.responder is not None:
            reply, facts = self.responder(person, reply, tags, facts)
        return reply, tags, facts


class _EngineerEnv(FDEGymEnv):
    """The single-agent env, with the hooked people engine (the only difference)."""

    def _make_people(self, variant):
        base = super()._make_people(variant)
        return _HookedPeople(base.spec, base.router)


class _PersonIdText(UnicodeText):
    """Any text (like :class:`UnicodeText`), but ``sample()`` mostly draws a person id.

    Used for the engineer's ``to`` field so random exploration reaches stakeholders; the set of
    accepted values is exactly the single-agent env's.
    """

    def __init__(self, ids: list[str], max_length: int = 1_000_000):
        self.ids = list(ids)
        super().__init__(max_length=max_length)

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        if self.ids and self.np_random.random() < 0.75:
            return self.ids[int(self.np_random.integers(len(self.ids)))]
        return super().sample()


@dataclass
class Pending:
    """A message held for a stakeholder agent's reply."""

    to: str
    message: str
    action: Any
    scripted_reply: str
    tags: list[str]
    releasable: list[str]
    attempts: int = 0
    error: str | None = None


@dataclass
class StepOutcome:
    """Rewards paid by one step (agents not named got 0.0) and whether the episode ended."""

    rewards: dict[str, float] = field(default_factory=dict)
    done: bool = False


def _fact_catalogue(task, variant_name: str) -> dict[str, list[str]]:
    """Every fact id each person can release, in topic order, over the named variants."""
    names = sorted(task.variants)
    if variant_name in task.variants:
        names = [variant_name] + [n for n in names if n != variant_name]
    out: dict[str, list[str]] = {}
    for name in names:
        for p in task.people_spec(task.variant(name))["people"]:
            facts = out.setdefault(p["id"], [])
            for t in p.get("topics", []):
                for f in t.get("facts", []):
                    if f not in facts:
                        facts.append(f)
    return out


def resolve_external(external: str | Iterable[str] | None, people: list[str]) -> list[str]:
    """Validate ``external`` (ids, ``"all"`` or None) against the task's people; keeps people.yaml order."""
    if external is None:
        return []
    if isinstance(external, str):
        if external == "all":
            return list(people)
        external = [external]
    wanted = list(external)
    for pid in wanted:
        if not isinstance(pid, str) or pid not in people:
            hint = did_you_mean(str(pid), people)
            raise ValueError(f"external: unknown stakeholder {pid!r}.{hint} Expected ids from people.yaml: "
                             f"{', '.join(people)} (or external='all').")
        if pid == ENGINEER:
            raise ValueError(f"external: a stakeholder may not be called {ENGINEER!r} (the engineer's agent id)")
    return [p for p in people if p in wanted]


class Engagement:
    """One task with an engineer agent and stakeholder agents (see :mod:`fdegym_env.multiagent`).

    Args:
        task: task id, task folder path, or loaded :class:`~fdegym_env.core.task.Task`.
        external: stakeholders played by agents (ids, ``"all"``, or None for none).
        stakeholder_reward: a name in :data:`~fdegym_env.multiagent.rewards.REWARDS` or a callable.
        **env_kwargs: passed to :class:`~fdegym_env.core.env.FDEGymEnv` (level, variant, split, sandbox,
            router, reward_mode, max_turns, max_customer_days, max_wall_seconds, router_kwargs,
            render_mode).
    """

    def __init__(self, task: Any = "news_incident", external: str | Iterable[str] | None = None, *,
                 stakeholder_reward: str | RewardFn = "faithfulness", **env_kwargs: Any):
        self.inner = _EngineerEnv(task=task, **env_kwargs)
        self.task = self.inner.task
        self.reward_fn = resolve_reward(stakeholder_reward)
        variant = self.inner.variant_name if self.inner.variant_name in self.task.variants else "base"
        self.persons: dict[str, dict] = {p["id"]: p for p in self.task.people_spec(self.task.variant(variant))["people"]}
        self.external = resolve_external(external, list(self.persons))
        self.possible_agents: list[str] = [ENGINEER, *self.external]
        catalogue = _fact_catalogue(self.task, variant)
        self.facts: dict[str, list[str]] = {pid: catalogue.get(pid, []) for pid in self.external}
        self.fact_text: dict[str, str] = dict(self.task.truth.get("facts") or {})
        self.key_facts = tuple(self.task.truth.get("key_facts") or ())
        eng_act = make_action_space()
        to_space = cast(UnicodeText, eng_act.spaces["to"])   # make_action_space makes every text field a UnicodeText
        eng_act.spaces["to"] = _PersonIdText(list(self.persons), to_space.max_length)
        self.action_spaces: dict[str, spaces.Space] = {ENGINEER: eng_act}
        self.observation_spaces: dict[str, spaces.Space] = {ENGINEER: self.inner.observation_space}
        for pid in self.external:
            n = max(1, len(self.facts[pid]))
            self.observation_spaces[pid] = spaces.Dict({
                "text": UnicodeText(max_length=MAX_OBS_CHARS),
                "releasable": spaces.MultiBinary(n),
                "pending": spaces.Discrete(2),
                "asked": spaces.Box(0, np.iinfo(np.int32).max, shape=(1,), dtype=np.int64),
                "hours": spaces.Box(0.0, 1e7, shape=(1,), dtype=np.float32),
            })
            self.action_spaces[pid] = spaces.Dict({
                "reply": UnicodeText(max_length=MAX_REPLY_CHARS),
                "disclose": spaces.MultiBinary(n),
            })
        self.acting = ENGINEER
        self.done = True
        self.pending: Pending | None = None

    # --- episode -----------------------------------------------------------------------------------
    @property
    def people(self) -> _HookedPeople:
        people = self.inner.people
        if not isinstance(people, _HookedPeople):   # the inner env makes only these, at reset
            raise RuntimeError("no episode is running; call reset() first")
        return people

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        opts = dict(options or {})
        unknown = sorted(k for k in opts if k not in RESET_OPTIONS)
        if unknown:
            warnings.warn(f"reset options {unknown} ignored; the stakeholder env knows {list(RESET_OPTIONS)}",
                          stacklevel=3)
            for k in unknown:
                opts.pop(k)
        obs, info = self.inner.reset(seed=seed, options=opts)
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(int(seed) + 7919 * i)
        self.eng_obs, self.eng_info = obs, info
        self.acting = ENGINEER
        self.pending = None
        self.done = False
        self.result: dict[str, Any] | None = None
        self.conversation: dict[str, list[dict[str, Any]]] = {pid: [] for pid in self.external}
        self.last_event: dict[str, ReplyEvent | None] = {pid: None for pid in self.external}
        self.returns: dict[str, float] = dict.fromkeys(self.possible_agents, 0.0)

    def step(self, agent: str, action: Any) -> StepOutcome:
        """Execute ``action`` of ``agent`` (who must be :attr:`acting`)."""
        if self.done:
            raise RuntimeError("step() on a finished episode; call reset() first")
        if agent != self.acting:
            raise ValueError(f"it is {self.acting!r}'s turn, got an action for {agent!r}")
        out = self._engineer_step(action) if agent == ENGINEER else self._stakeholder_step(agent, action)
        for a, r in out.rewards.items():
            self.returns[a] += r
        return out

    # --- the engineer ----------------------------------------------------------------------------------
    def _hands_over(self, action: Any) -> tuple[str, str] | None:
        """(to, message) when this action is a message the rules pass to a stakeholder agent."""
        try:
            act = parse_action(action)
        except ActionError:
            return None
        if act.tool != "contact" or act.args["to"] not in self.external or not act.args["message"].strip():
            return None
        people, to = self.people, act.args["to"]
        person = people.people[to]
        if people.gone(person) or people.away(person):
            return None  # the automatic reply: nobody is there to ask
        left = people._left(to)
        if left is not None and left <= 0:
            return None  # out of patience or of the shared budget: the scripted refusal
        if person.get("off_limits") and not person.get("topics"):
            return None  # a fixed off-limits reply
        return to, act.args["message"]

    def _engineer_step(self, action: Any) -> StepOutcome:
        handover = self._hands_over(action)
        if handover is None:
            return self._inner_step(action)
        to, message = handover
        reply, tags, facts = self.people.releasable(to, message)
        self.pending = Pending(to=to, message=message, action=action, scripted_reply=reply, tags=list(tags),
                               releasable=list(facts))
        self.acting = to
        return StepOutcome({ENGINEER: 0.0})

    def _inner_step(self, action: Any) -> StepOutcome:
        obs, reward, terminated, truncated, info = self.inner.step(action)
        self.eng_obs, self.eng_info = obs, info
        contact = info.get("contact") or {}
        if self.pending is None and contact.get("to") in self.conversation:  # an automatic reply
            self.conversation[contact["to"]].append({"engineer": self._last_message(action), "you": None,
                                                     "auto": ",".join(contact.get("tags", [])), "released": []})
        out = StepOutcome({ENGINEER: float(reward)})
        self.acting = ENGINEER
        if terminated or truncated:
            self.done = out.done = True
            self.result = info.get("result")
        return out

    @staticmethod
    def _last_message(action: Any) -> str:
        try:
            return parse_action(action).args.get("message", "")
        except ActionError:
            return ""

    # --- stakeholders ------------------------------------------------------------------------------------
    def parse_reply(self, agent: str, action: Any, releasable: list[str]) -> tuple[str, list[str]]:
        """A stakeholder action -> (reply text, facts it asks to disclose); raises ActionError."""
        if isinstance(action, str):
            action = {"reply": action}
        if not isinstance(action, dict):
            raise ActionError(f"A stakeholder action must be a dict like {{'reply': str, 'disclose': mask}}, "
                              f"got {type(action).__name__}.")
        extra = sorted(set(action) - {"reply", "disclose"})
        if extra:
            raise ActionError(f"A stakeholder action takes 'reply' and 'disclose', got also {extra}.")
        reply = action.get("reply")
        if reply is None:
            reply = ""
        if not isinstance(reply, str):
            raise ActionError(f"'reply' must be a string ('' for the script's words), got {type(reply).__name__}.")
        if len(reply) > MAX_REPLY_CHARS:
            raise ActionError(f"'reply' has {len(reply)} characters; at most {MAX_REPLY_CHARS}. Shorten it.")
        return reply, self._disclosure(agent, action.get("disclose"), releasable)

    def _disclosure(self, agent: str, disclose: Any, releasable: list[str]) -> list[str]:
        catalogue = self.facts[agent]
        if disclose is None or (isinstance(disclose, str) and disclose == "all"):
            return list(releasable)
        if isinstance(disclose, str) and disclose == "none":
            return []
        if isinstance(disclose, (set, frozenset, list, tuple)) and all(isinstance(x, str) for x in disclose) and disclose:
            return [str(x) for x in disclose]
        arr = np.asarray(disclose).reshape(-1) if not isinstance(disclose, (set, frozenset)) else None
        n = max(1, len(catalogue))
        if arr is None or arr.size not in (0, n) or not np.isin(arr, (0, 1, True, False)).all():
            raise ActionError(f"'disclose' must be a 0/1 mask of length {n} over {catalogue or ['(no facts)']}, "
                              f"a list of fact ids, 'all' or 'none'; got {disclose!r}.")
        return [f for f, bit in zip(catalogue, arr) if bit]

    def _stakeholder_step(self, agent: str, action: Any) -> StepOutcome:
        p = self.pending
        assert p is not None and p.to == agent
        try:
            reply, wanted = self.parse_reply(agent, action, p.releasable)
            p.error = None
        except ActionError as e:
            p.attempts += 1
            p.error = str(e)
            if p.attempts < MAX_ATTEMPTS:
                return StepOutcome({agent: 0.0})
            reply, wanted = "", list(p.releasable)  # too many malformed replies: the script answers
        wanted_set = set(wanted)
        committed: dict[str, Any] = {}

        def responder(person, scripted_reply, tags, facts):
            released = [f for f in facts if f in wanted_set]  # the mask AND what the rules allow
            committed.update(scripted=scripted_reply, facts=list(facts), released=released)
            return (reply if reply.strip() else scripted_reply), released

        self.people.responder = responder
        try:
            out = self._inner_step(p.action)
        finally:
            self.people.responder = None
            self.pending = None
        scripted = committed.get("scripted", p.scripted_reply)
        shown = reply if reply.strip() else scripted
        ev = ReplyEvent(agent=agent, message=p.message, scripted_reply=scripted, reply=shown,
                        releasable=tuple(committed.get("facts", p.releasable)),
                        released=tuple(committed.get("released", ())), asked=self.people.asked[agent],
                        patience=self.persons[agent].get("patience"), key_facts=self.key_facts,
                        turn=self.inner.turn)
        self.last_event[agent] = ev
        self.conversation[agent].append({"engineer": p.message, "you": shown, "auto": None,
                                         "released": list(ev.released)})
        out.rewards[agent] = float(self.reward_fn(ev))
        return out

    # --- observations -------------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, Any]:
        if agent == ENGINEER:
            return self.eng_obs
        pending = self.pending if (self.pending is not None and self.pending.to == agent) else None
        catalogue = self.facts[agent]
        mask = np.zeros(max(1, len(catalogue)), dtype=np.int8)
        if pending is not None:
            for i, f in enumerate(catalogue):
                mask[i] = f in pending.releasable
        hours = self.people.clock.hours if self.inner.people is not None else 0.0
        return {"text": self._render(agent, pending), "releasable": mask, "pending": int(pending is not None),
                "asked": np.array([self.people.asked.get(agent, 0)], dtype=np.int64),
                "hours": np.array([hours], dtype=np.float32)}

    def info(self, agent: str) -> dict[str, Any]:
        if agent == ENGINEER:
            return self.eng_info
        pending = self.pending if (self.pending is not None and self.pending.to == agent) else None
        ev = self.last_event.get(agent)
        info: dict[str, Any] = {"acting": self.acting, "pending": pending is not None,
                                "last_action_error": pending.error if pending else None,
                                "facts": list(self.facts[agent]),
                                "last_released": list(ev.released) if ev else [],
                                "last_releasable": list(ev.releasable) if ev else []}
        if pending is not None:
            info["request"] = {"message": pending.message, "scripted_reply": pending.scripted_reply,
                               "tags": list(pending.tags), "releasable": list(pending.releasable),
                               "fact_text": {f: self.fact_text.get(f, "") for f in pending.releasable},
                               "persona": self.persona(agent), "conversation": list(self.conversation[agent])}
        if self.done and self.result is not None:
            info["result"] = dict(self.result)
        return info

    def persona(self, agent: str) -> dict[str, Any]:
        p = self.persons[agent]
        return {"id": agent, "name": p["name"], "role": p["role"], "blurb": p["blurb"],
                "persona": p.get("persona", ""), "misconceptions": list(p.get("misconceptions") or [])}

    def _render(self, agent: str, pending: Pending | None) -> str:
        per = self.persona(agent)
        lines = [f"You are {per['name']}, {per['role']} at {self.task.customer}.", per["blurb"]]
        if per["persona"]:
            lines.append(f"Manner: {per['persona']}")
        if per["misconceptions"]:
            lines.append("You believe (you may be wrong):")
            lines += [f"- {m}" for m in per["misconceptions"]]
        lines.append("")
        conv = self.conversation.get(agent, [])
        if conv:
            lines.append("Your conversation with the engineer so far:")
            for c in conv:
                lines.append(f"  Engineer: {c['engineer']}")
                lines.append(f"  You: {c['you']}" if c["you"] is not None else f"  (automatic reply: {c['auto']})")
            lines.append("")
        if pending is None:
            lines.append("No message is waiting for you.")
            return "\n".join(lines)
        if pending.error:
            lines += [f"Error in your last action: {pending.error}", ""]
        stamp = self.people.stamp()
        lines.append(f"New message from the engineer{f' ({stamp})' if stamp else ''}:")
        lines.append(pending.message)
        lines += ["", "What the script would answer:", pending.scripted_reply, ""]
        if pending.releasable:
            lines.append("Facts you may disclose in this reply (anything else is withheld by the rules):")
            lines += [f"- {f}: {self.fact_text.get(f, '')}".rstrip(": ") for f in pending.releasable]
        else:
            lines.append("The rules let you disclose no facts in this reply.")
        lines += ["", f"Act with {{'reply': text ('' = the script's words), 'disclose': a 0/1 mask over "
                      f"{self.facts[agent] or ['(no facts)']}}}."]
        return "\n".join(lines)

    def close(self) -> None:
        self.inner.close()
        self.done = True
