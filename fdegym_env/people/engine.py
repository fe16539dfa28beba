"""The stakeholder state machine, with the reference harness's semantics on a simulated clock.

Everything a message does — who answers, what it costs, which facts it releases, how the
customer's calendar moves — is decided here, in the env process, out of the sandbox's reach.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from fdegym_env.core.clock import STAMP_FORMAT, Clock, parse_time
from fdegym_env.core.errors import did_you_mean
from fdegym_env.people.areas import AreaIndex
from fdegym_env.people.details import missing_details, not_to_hand_line
from fdegym_env.people.routers import MAX_TOPICS_PER_MESSAGE, Router
from fdegym_env.people.spec import AUTO_REPLY_MARKS

DEFAULT_OUT_OF_PATIENCE = "Sorry, I'm in back-to-back meetings for the rest of the week."
DEFAULT_OVERFLOW = ("That's what I can give you right now, I'm being pulled into something. "
                    "Come back to me on the rest.")
DEFAULT_DONT_KNOW = "I don't know that one — {name} ({role}) would be the person to ask."
# What a person says about something in their own area that their script does not hold.
DEFAULT_NOT_TO_HAND = "I don't have that detail to hand, I'm afraid."
DEFAULT_NOT_TO_HAND_REFER = "I don't have that detail to hand — {name} ({role}) would have it."
# Nobody's script answers it, and it is not the person's area: no referral is invented.
DEFAULT_NO_ONE = "I don't have anything on that, sorry, and I can't think who would."
RECAP_PREFIX = "As I said: "
DEFAULT_AWAY_LABEL = "away"
DEFAULT_AWAY_REPLY = "(automatic reply) I'm {note}."
# Reply tags of a topic the person matched but held back ("let me check", gate, too soon, needs
# someone else first): what an inbox message's ``after_stall`` waits for.
HELD_BACK = ("stalled", "too_soon", "gated", "needs_prior")
# Reply tag: the person gave a paragraph but said it lacks the figure or date asked for (details.py).
NOT_TO_HAND_TAG = "not_to_hand"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _norm(message: str) -> str:
    return " ".join(str(message).lower().split())


def recap_of(topic: dict[str, Any]) -> str:
    """One line that stands for a topic already answered: its ``recap`` or its answer's first sentence."""
    if topic.get("recap"):
        return str(topic["recap"]).strip()
    return _SENTENCE_END.split(" ".join(str(topic["answer"]).split()), maxsplit=1)[0]


def trial_terms(trial_cfg: dict[str, Any] | None) -> dict[str, Any]:
    """What a people spec's ``trial`` window offers: ``max_runs`` days, each day's ``costs`` (day 1
    first) and the customer ``advance_hours`` each day takes.

    Example:
        >>> trial_terms({"max_runs": 3, "cost": [0.03, 0.06]})["costs"]
        [0.03, 0.06, 0.06]
    """
    cfg = trial_cfg or {}
    n = int(cfg.get("max_runs", 3))
    costs = [float(c) for c in (cfg.get("cost", [0.0]) or [0.0])]
    return {"max_runs": n, "costs": [costs[min(d, len(costs)) - 1] for d in range(1, n + 1)],
            "advance_hours": float(cfg.get("advance_hours", 0.0))}


def _only_auto_replies(reply: str, tags: list[str]) -> bool:
    """Every topic the message reached is held back by a stall written as an out-of-office
    (a stall text beginning ``(auto-reply)``): the person never read it, so it costs nothing."""
    return (bool(tags) and all(t.endswith((":stalled", ":too_soon")) for t in tags)
            and all(part.startswith(AUTO_REPLY_MARKS) for part in reply.split("\n\n")))


@dataclass
class ContactResult:
    """The outcome of one message. ``error`` is set (and nothing happened) for an unknown person;
    ``at`` is when the reply came back (the message was sent ``ask_minutes`` earlier)."""

    to: str
    reply: str = ""
    name: str = ""
    tags: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    cost: float = 0.0
    at: str = ""
    questions_left: int | None = None
    total_questions_left: int | None = None
    error: str | None = None


def cost_parts(ledger: list[dict[str, Any]]) -> dict[str, float]:
    """A ledger's costs split by what spent them: people's time, trial days and waiting.

    >>> cost_parts([{"to": "maria", "cost": 0.05}, {"to": "trial", "cost": 0.03}, {"to": "wait", "cost": 0.02}])
    {'people': 0.05, 'trials': 0.03, 'waiting': 0.02}
    """
    parts = {"people": 0.0, "trials": 0.0, "waiting": 0.0}
    for r in ledger:
        key = {"trial": "trials", "wait": "waiting"}.get(r["to"], "people")
        parts[key] = round(parts[key] + r["cost"], 6)
    return parts


class People:
    """Scripted stakeholders of one episode.

    Args:
        spec: validated people.yaml content (see :func:`fdegym_env.people.spec.validate_people`).
        router: a :class:`~fdegym_env.people.routers.Router`.
    """

    def __init__(self, spec: dict[str, Any], router: Router):
        self.spec = spec
        self.router = router
        self.people: dict[str, dict[str, Any]] = {p["id"]: p for p in spec["people"]}
        clock = spec.get("clock")
        self.clock_cfg = clock or {}
        self.clock = Clock(clock.get("start") if clock else None)
        self.show_budget = bool(spec.get("show_budget", True))
        self.total_left: int | None = spec.get("total_questions")
        self.asked = {pid: 0 for pid in self.people}
        self.stalled: dict[str, int] = {}
        self.stalled_at: dict[str, float] = {}
        self.held_back: dict[str, float] = {}            # "person/topic" -> clock minutes it was first held back
        self.free_at: dict[str, dt.datetime] = {}
        self.said: dict[str, list[str]] = {}
        self.answered: dict[str, set[str]] = {}          # person -> topics fully answered to the agent
        replies = spec.get("replies") or {}
        self.refer_elsewhere = bool(replies.get("refer_elsewhere", False))
        self.recap_repeats = bool(replies.get("recap_repeats", False))
        self.not_to_hand = bool(replies.get("not_to_hand", False))
        self.known: set[str] = set()
        self.inbox_msgs: list[dict[str, Any]] = list(spec.get("inbox") or [])
        self.inbox_seen: set[str] = set()
        self.inbox_fate: dict[str, bool] = {}            # message id -> delivered?, decided when it first fell due
        self._sent_by: dict[str, dict[str, Any]] = {}    # message id -> the message as its stand-in sender sent it
        self.trial_cfg: dict[str, Any] = spec.get("trial") or {}
        self.trials = 0
        self.ledger: list[dict[str, Any]] = []
        self.referred: set[tuple[str, str]] = set()      # (who referred, to whom): never sent back in a circle
        # (who, whom their answer named) -> the topics that named them ("check with Dev"): the named
        # person never refers the agent back to the first on those topics' subject
        self.pointed: dict[tuple[str, str], set[str]] = {}
        self._areas: AreaIndex | None = None

    # --- bookkeeping -------------------------------------------------------------------------
    @property
    def deterministic(self) -> bool:
        """Whether the same messages always get the same answers (False with the ``llm`` router)."""
        return bool(getattr(self.router, "deterministic", True))

    def total_questions_left(self) -> int | None:
        """The shared budget left (``total_questions``), or None when unbounded or not shown."""
        return self.total_left if self.show_budget else None

    @property
    def has_clock(self) -> bool:
        return self.clock.enabled

    def stamp(self) -> str | None:
        return self.clock.stamp() if self.has_clock else None

    def _log(self, **rec: Any) -> None:
        rec.setdefault("at", self.stamp())
        rec.setdefault("hours", round(self.clock.hours, 4))
        self.ledger.append(rec)

    @property
    def contact_cost(self) -> float:
        return sum(r["cost"] for r in self.ledger)

    def cost_parts(self) -> dict[str, float]:
        """``contact_cost`` split by what spent it (:func:`cost_parts`)."""
        return cost_parts(self.ledger)

    def facts_obtained(self) -> list[str]:
        return sorted({f for r in self.ledger for f in r["facts"]})

    def _left(self, pid: str) -> int | None:
        cap = self.people[pid].get("patience")
        if cap is None:
            return self.total_left
        left = max(0, int(cap) - self.asked[pid])
        return left if self.total_left is None else min(left, self.total_left)

    def _cost(self, person: dict[str, Any]) -> float:
        base = float(person.get("cost", 0.0))
        if person.get("off_limits"):
            return base
        over = self.asked[person["id"]] > person.get("soft_limit", 10 ** 9)
        return base * (float(person.get("over_factor", 3.0)) if over else 1.0)

    def gone(self, person: dict[str, Any]) -> bool:
        if "gone_after_hours" in person and self.has_clock and self.clock.minutes >= float(person["gone_after_hours"]) * 60:
            return True
        if person.get("gone_at") and self.has_clock and self.clock.now() >= parse_time(person["gone_at"]):
            return True
        if "gone_after_asks" in person and sum(self.asked.values()) >= int(person["gone_after_asks"]):
            return True
        return False

    def away(self, person: dict[str, Any]) -> bool:
        """Before ``away_until`` on the episode's clock: every message gets the out-of-office."""
        return bool(person.get("away_until") and self.has_clock and self.clock.now() < parse_time(person["away_until"]))

    def away_note(self, person: dict[str, Any]) -> str:
        """``on leave until Thu 05 Mar 09:00``: the ``away_label`` and the stamp of ``away_until``."""
        until = parse_time(person["away_until"]).strftime(STAMP_FORMAT)
        return f"{person.get('away_label') or DEFAULT_AWAY_LABEL} until {until}"

    def _away_reply(self, person: dict[str, Any]) -> str:
        return person.get("away_reply") or DEFAULT_AWAY_REPLY.format(note=self.away_note(person))

    # --- the directory -------------------------------------------------------------------------
    def directory(self) -> list[dict[str, Any]]:
        out = []
        for p in self.people.values():
            gone = self.gone(p)
            away = not gone and self.away(p)
            out.append({"id": p["id"], "name": p["name"], "role": p["role"], "blurb": p["blurb"],
                        "reachable": not gone and not away,
                        "gone": (p.get("gone_label") or "no longer reachable") if gone else None,
                        "away": self.away_note(p) if away else None,
                        "questions_left": self._left(p["id"]) if self.show_budget else None,
                        "total_questions_left": self.total_questions_left()})
        return out

    def unknown_person_message(self, to: str) -> str:
        hint = did_you_mean(str(to), list(self.people))
        return f"Unknown person {to!r}.{hint} Use the `directory` tool to see who can be contacted."

    # --- messages --------------------------------------------------------------------------------
    def contact(self, to: str, message: str) -> ContactResult:
        person = self.people.get(to)
        if person is None:
            return ContactResult(to=to, error=self.unknown_person_message(to))
        if self.gone(person):
            # Nobody is there: costs nothing, takes no time, releases nothing.
            reply = person.get("gone_reply") or f"(automatic reply) {person['name']} is no longer reachable at this address."
            self._log(to=to, message=message, tags=["gone"], facts=["F_gone:" + to], cost=0.0, n_asked=self.asked[to])
            return ContactResult(to=to, reply=reply, name=person["name"], tags=["gone"], at=self.stamp() or "")
        left, cost = self._left(to), 0.0
        facts: list[str]
        if self.away(person):
            # an out-of-office (see _only_auto_replies): nobody reads it, whatever the patience left
            reply, tags, facts = self._away_reply(person), ["away", "auto_reply"], []
        elif left is not None and left <= 0:
            reply, tags, facts = person.get("out_of_patience", DEFAULT_OUT_OF_PATIENCE), ["out_of_patience"], []
        else:
            self.asked[to] += 1
            if self.total_left is not None:
                self.total_left -= 1
            cost = self._cost(person)
            if person.get("off_limits") and not person.get("topics"):
                reply, tags, facts = person["off_limits_reply"], ["off_limits"], ["F_off_limits:" + to]
            elif person.get("off_limits"):
                reply, tags, facts = self._answer(person, message)
                tags, facts = ["off_limits"] + tags, ["F_off_limits:" + to] + facts
            else:
                reply, tags, facts = self._answer(person, message)
            if _only_auto_replies(reply, tags):
                # an out-of-office answered: nobody's time or patience was spent, and none passes
                self.asked[to] -= 1
                if self.total_left is not None:
                    self.total_left += 1
                cost, tags = 0.0, tags + ["auto_reply"]
        self.known.update(facts)
        self._log(to=to, message=message, tags=tags, facts=facts, cost=cost, n_asked=self.asked[to])   # as sent
        if self.has_clock and "auto_reply" not in tags:
            self.clock.advance(float(self.clock_cfg.get("ask_minutes", 120)))
        # the reply is stamped when it comes back, after the person's time: never before the message
        at = self.stamp() or ""
        self._arrived()    # inbox messages that fell due meanwhile are decided now
        return ContactResult(to=to, reply=reply, name=person["name"], tags=tags, facts=facts, cost=cost, at=at,
                             questions_left=self._left(to) if self.show_budget else None,
                             total_questions_left=self.total_questions_left())

    def releasable(self, person_id: str, message: str) -> tuple[str, list[str], list[str]]:
        """What the script would answer, without changing any state (for stakeholder agents)."""
        import copy
        shadow = copy.copy(self)
        shadow.stalled, shadow.stalled_at, shadow.free_at = dict(self.stalled), dict(self.stalled_at), dict(self.free_at)
        shadow.held_back = dict(self.held_back)
        shadow.said = {k: list(v) for k, v in self.said.items()}
        shadow.answered = {k: set(v) for k, v in self.answered.items()}
        shadow.referred = set(self.referred)
        shadow.pointed = {k: set(v) for k, v in self.pointed.items()}
        return shadow._answer(self.people[person_id], message)

    def _answer(self, person: dict[str, Any], message: str) -> tuple[str, list[str], list[str]]:
        earlier = self.said.setdefault(person["id"], [])
        matched, gates = self.router.route(person, message, list(earlier))
        if self.recap_repeats and matched:
            matched, gates = self._follow_up(person, message, list(earlier), matched, gates)
        earlier.append(message)
        if not matched:
            return self._dont_know(person, message)
        # An exclusive topic whose gate is met replaces everything else: a person who has just been
        # persuaded does not also recite their old position.
        for t in matched:
            if t.get("exclusive") and gates.get(t["id"]):
                matched = [t]
                break
        parts: list[str] = []
        tags: list[str] = []
        facts: list[str] = []
        now = self.clock.now()
        # a topic that needs a fact not yet known comes after the others, which may give it in this very
        # reply ("nothing has landed since the 27th" before "the vendor quote early in the new year")
        for t in sorted(matched[:MAX_TOPICS_PER_MESSAGE], key=lambda t: not set(t.get("requires_facts", [])) <= self.known):
            key = person["id"] + "/" + t["id"]
            if not set(t.get("requires_facts", [])) <= self.known | set(facts):
                parts.append(t.get("requires_miss") or person["fallback"])
                tags.append(t["id"] + ":needs_prior")
                continue
            if (t.get("gate") or t.get("requires")) and not gates.get(t["id"]):
                parts.append(t.get("gate_miss") or t.get("requires_hint") or person["fallback"])
                tags.append(t["id"] + ":gated")
                continue
            stalls = t.get("stall", [])
            until = t.get("available_at")
            past = bool(until and self.has_clock and now >= parse_time(until))
            # ``available_after_hours: 0`` (a variant where the person is not away): nothing to wait for
            past = past or (not until and "available_after_hours" in t and not float(t["available_after_hours"] or 0))
            if self.stalled.get(key, 0) < len(stalls) and not past:
                parts.append(stalls[self.stalled.get(key, 0)])
                self.stalled[key] = self.stalled.get(key, 0) + 1
                self.stalled_at[key] = self.clock.minutes
                if t.get("available_after_hours") and self.has_clock:
                    self.free_at[key] = now + dt.timedelta(hours=float(t["available_after_hours"]))
                tags.append(t["id"] + ":stalled")
                continue
            if key in self.free_at and now < self.free_at[key]:
                parts.append(t.get("stall_again") or stalls[-1])
                tags.append(t["id"] + ":too_soon")
                continue
            if stalls and until and self.has_clock and not past and key in self.stalled:
                parts.append(t.get("stall_again") or stalls[-1])
                tags.append(t["id"] + ":too_soon")
                continue
            wait_s = float(t.get("stall_seconds", 0))
            # ``stall_seconds`` (wall seconds in the harness) runs on the simulated clock here;
            # without a calendar no time can pass, so it does not apply.
            if stalls and wait_s and self.has_clock and (self.clock.minutes - self.stalled_at.get(key, 0.0)) * 60 < wait_s:
                parts.append(t.get("stall_again") or stalls[-1])
                tags.append(t["id"] + ":too_soon")
                continue
            done = self.answered.setdefault(person["id"], set())
            if self.recap_repeats and t["id"] in done:
                parts.append(RECAP_PREFIX + recap_of(t))
                tags.append(t["id"] + ":repeat")
            else:
                parts.append(t["answer"])
                tags.append(t["id"])
                done.add(t["id"])
            facts.extend(t.get("facts", []))
        if self.refer_elsewhere:
            for tag, part in zip(tags, parts):           # one line per topic, in order
                for named in self.areas.named_in(person["id"], part):
                    self.pointed.setdefault((person["id"], named), set()).add(tag.partition(":")[0])
        if self.not_to_hand:
            given = [i for i, tag in enumerate(tags) if tag.partition(":")[2] in ("", "repeat")]
            by_id = {t["id"]: t for t in matched}
            missing = missing_details(message, [by_id[tags[i].partition(":")[0]]["answer"] for i in given]) if given else ()
            if missing:     # asked for a figure or date the paragraph lacks: say so, then say what they know
                parts.insert(given[0], not_to_hand_line(missing))
                tags.append(NOT_TO_HAND_TAG)
        if len(matched) > MAX_TOPICS_PER_MESSAGE:
            parts.append(person.get("overflow") or DEFAULT_OVERFLOW)
        for tag in tags:
            tid, _, how = tag.partition(":")
            if how in HELD_BACK:
                self.held_back.setdefault(person["id"] + "/" + tid, self.clock.minutes)
        return "\n\n".join(dict.fromkeys(parts)), tags, facts   # one out-of-office, not one per topic

    def _follow_up(self, person: dict[str, Any], message: str, earlier: list[str], matched: list[dict[str, Any]],
                   gates: dict[str, bool]) -> tuple[list[dict[str, Any]], dict[str, bool]]:
        """A new question that lands only on topics already answered to the agent: when another of
        the person's topics answers it (the same router, with its own threshold and cover, asked of
        the topics not yet told), that one is answered instead of a recap of what was said. A
        message sent before, word for word, is a repeat: it gets the recap. (A follow-up is asked
        because the paragraph told did not answer it; docs/routing.md has the measured trade-off.)"""
        done = self.answered.get(person["id"], set())
        if not all(t["id"] in done for t in matched) or _norm(message) in {_norm(e) for e in earlier}:
            return matched, gates
        rest = [t for t in person.get("topics") or [] if t["id"] not in done]
        decision = getattr(self.router, "decision_asked", None)
        if not rest or (decision and decision(message, matched)):
            return matched, gates           # asked again for their verdict on a proposal: they give it again
        untold = {**person, "topics": rest}
        other, other_gates = self.router.route(untold, message, earlier)
        if not other:
            # the bar is lower than for a first question: the alternative is a recap of what was said
            pick = getattr(self.router, "follow_up_pick", None)
            other, other_gates = pick(untold, message, earlier) if pick else ([], {})
        return (other, other_gates) if other else (matched, gates)

    def _dont_know(self, person: dict[str, Any], message: str) -> tuple[str, list[str], list[str]]:
        """No topic of ``person`` covers the message: one honest line, in the person's voice.

        With ``replies.refer_elsewhere`` on (fdegym's own tasks), the message is routed by the same
        router against everyone else who can be reached, is not off limits and has not sent the
        agent to this person already (no circles); the best answering person is named. About
        something the person's role, blurb or own inbox messages say they own, they never say it is
        not their area: they don't have that detail to hand (naming who does, if anyone). When
        nobody's script answers, no referral is invented: the person's ``fallback`` if it names
        nobody else and the message is not in their area, else a plain "I don't have anything on
        that". Without ``refer_elsewhere``: the ``fallback`` line, as the harness does."""
        if not self.refer_elsewhere:
            return person["fallback"], [], []
        own = self.areas.owns(person["id"], message)
        best = self._best_referral(person, message)
        if best is not None:
            self.referred.add((person["id"], best["id"]))
            template = DEFAULT_NOT_TO_HAND_REFER if own else person.get("dont_know") or DEFAULT_DONT_KNOW
            reply = template.format(name=best["name"], role=best["role"])
            if self.away(best):
                reply += f" {best['name'].split()[0]} is {self.away_note(best)}, though."
            return reply, ["dont_know", "refer:" + best["id"]], []
        if own:
            return DEFAULT_NOT_TO_HAND, ["dont_know"], []
        if self.areas.names_someone(person["id"], person["fallback"]):
            return DEFAULT_NO_ONE, ["dont_know"], []
        return person["fallback"], ["dont_know"], []

    @property
    def areas(self) -> AreaIndex:
        """What each person's role, blurb, topics and own inbox messages say they own."""
        if self._areas is None:
            self._areas = AreaIndex.of(self.spec)
        return self._areas

    def _best_referral(self, person: dict[str, Any], message: str) -> dict[str, Any] | None:
        """The reachable person one of whose topics the router says answers ``message`` (best score
        first, the earlier person on a tie); never someone who sent the agent to ``person``: by a
        referral, or by naming ``person`` in the answer of a topic that would answer it again; nor
        anyone further up a chain of referrals that led here (no circle of three or more)."""
        scores = getattr(self.router, "scores", None)
        chain = self._upstream(person["id"])
        best, best_score = None, 0.0
        for other in self.people.values():
            if other["id"] == person["id"] or other.get("off_limits") or not other.get("topics") or self.gone(other):
                continue
            if (other["id"], person["id"]) in self.referred or other["id"] in chain:
                continue
            matched, _ = self.router.route(other, message, [])
            if not matched or {t["id"] for t in matched} & self.pointed.get((other["id"], person["id"]), set()):
                continue
            s = scores(other, message)[matched[0]["id"]] if scores else 1.0
            if best is None or s > best_score:
                best, best_score = other, s
        return best

    def _upstream(self, pid: str) -> set[str]:
        """Everyone whose referrals or answers led, two steps or more, to ``pid`` (A named B, B
        referred C: A is upstream of C). Sending the agent back to any of them closes a circle."""
        edges = set(self.referred) | set(self.pointed)
        into: dict[str, set[str]] = {}
        for a, b in edges:
            into.setdefault(b, set()).add(a)
        seen: set[str] = set()
        frontier = set(into.get(pid, ()))
        while frontier:
            nxt = {a for b in frontier for a in into.get(b, ()) if a not in seen and a != pid}
            seen |= nxt
            frontier = nxt
        return seen

    # --- inbox -------------------------------------------------------------------------------------
    def _due(self, m: dict[str, Any]) -> bool:
        """Whether all of the message's conditions (``after_*``) hold now."""
        if "after_hours" in m and not (self.has_clock and self.clock.minutes >= float(m["after_hours"]) * 60):
            return False
        if "after_asks" in m and sum(self.asked.values()) < int(m["after_asks"]):
            return False
        if m.get("after_fact") and m["after_fact"] not in self.known:
            return False
        if m.get("after_stall"):
            since = self.held_back.get(m["after_stall"])
            if since is None:
                return False
            delay = float(m.get("stall_delay_hours", 0) or 0)
            if delay and not (self.has_clock and self.clock.minutes - since >= delay * 60):
                return False
        return True

    def _is_news(self, m: dict[str, Any]) -> bool:
        """False when the agent already knows every fact the message carries, or has already asked
        someone its ``unless_asked`` names (``person``, or ``person/topic`` answered to the agent)."""
        facts = m.get("facts") or []
        if facts and set(facts) <= self.known:
            return False
        refs = m.get("unless_asked") or []
        for ref in [refs] if isinstance(refs, str) else refs:
            pid, _, tid = ref.partition("/")
            if (tid in self.answered.get(pid, ())) if tid else self.asked.get(pid, 0) > 0:
                return False
        return True

    def _arrived(self) -> list[dict[str, Any]]:
        """The messages delivered so far. Whether a message is delivered is decided once, the first
        time its conditions are seen to hold, and kept: what the agent learns later never takes back
        a message that has arrived."""
        out = []
        for m in self.inbox_msgs:
            if m["id"] not in self.inbox_fate:
                if not self._due(m):
                    continue
                self.inbox_fate[m["id"]] = self._is_news(m)
                if m.get("from_if_gone") and self.gone(self.people[m["from"]]):
                    # someone who has left sends nothing: their deputy does, in their stead
                    self._sent_by[m["id"]] = {**m, "from": m["from_if_gone"]}
            if self.inbox_fate[m["id"]]:
                out.append(self._sent_by.get(m["id"], m))
        return out

    def inbox_new(self) -> int:
        return sum(1 for m in self._arrived() if m["id"] not in self.inbox_seen)

    def read_inbox(self) -> list[dict[str, Any]]:
        arrived = self._arrived()
        new = [m for m in arrived if m["id"] not in self.inbox_seen]
        facts = [f for m in new for f in m.get("facts", [])]
        if new:
            self.inbox_seen.update(m["id"] for m in new)
            self.known.update(facts)
            self._log(to="inbox", message=f"read {len(new)} message(s)", tags=[m["id"] for m in new],
                      facts=facts, cost=0.0, n_asked=0)
        return [{"id": m["id"], "from": m["from"], "text": m["text"], "new": m in new} for m in arrived]

    # --- time and trials ------------------------------------------------------------------------
    def wait(self, hours: float) -> float:
        """Advance the calendar; returns the cost of waiting. Needs a clock."""
        if not self.has_clock:
            raise ValueError("this engagement keeps no calendar, so there is nothing to wait for")
        hours = max(0.0, min(float(hours), 24.0 * 14))
        self.clock.advance(hours * 60)
        cost = round(float(self.clock_cfg.get("wait_cost_per_day", 0.0)) * hours / 24.0, 6)
        self._log(to="wait", message=f"waited {hours:g} h", tags=[], facts=[], cost=cost, n_asked=0)
        self._arrived()
        return cost

    def trial_terms(self) -> dict[str, Any]:
        """What the trial window offers (:func:`trial_terms`)."""
        return trial_terms(self.trial_cfg)

    def trial(self, run_day: Callable[[int], dict[str, Any]]) -> tuple[int, str, float]:
        """One trial day: ``run_day(day)`` runs the system and returns feedback. -> (day, feedback, cost)."""
        self.trials += 1
        n = self.trials
        if n > int(self.trial_cfg.get("max_runs", 3)):
            return n, self.trial_cfg.get("exhausted", "The trial window is used up."), 0.0
        out = run_day(n)
        costs = self.trial_cfg.get("cost", [0.0]) or [0.0]
        cost = float(costs[min(n, len(costs)) - 1]) + float(out.get("extra_cost", 0.0))
        facts = list(out.get("facts", []))
        self.known.update(facts)
        self._log(to="trial", message=f"trial day {n}", tags=list(out.get("topics", [])), facts=facts,
                  cost=cost, n_asked=n, stats=out.get("stats"))
        advance = float(self.trial_cfg.get("advance_hours", 0.0))
        if advance and self.has_clock:
            self.clock.advance(advance * 60)
        self._arrived()
        return n, str(out.get("feedback", "")), cost

    # --- discovery metrics (paper §5.3) --------------------------------------------------------------
    def discovery(self, key_facts: list[str]) -> dict[str, Any]:
        asked = 0
        by_person: dict[str, int] = {}
        for r in self.ledger:
            if r["to"] in ("wait", "inbox", "trial") or r["tags"] == ["gone"] or "auto_reply" in r["tags"]:
                continue
            asked += 1
            by_person[r["to"]] = by_person.get(r["to"], 0) + 1
        facts = set(self.facts_obtained())
        key = set(key_facts)
        return {"questions_asked": asked, "asked_by_person": by_person, "facts_obtained": sorted(facts),
                "off_limits_contacts": sorted(f.split(":", 1)[1] for f in facts if f.startswith("F_off_limits:")),
                "key_fact_coverage": round(len(facts & key) / len(key), 4) if key else None}
