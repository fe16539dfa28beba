"""Inbox messages are delivered only if they are news when they fall due: not when the agent already
knows every fact they carry, nor after the agent has asked whom their ``unless_asked`` names. The
decision is taken once, when the message's conditions first hold, and kept."""

from __future__ import annotations

import copy

import pytest

from fdegym_env.core.errors import TaskFormatError
from fdegym_env.people import People, make_router
from fdegym_env.people.spec import validate_people

CLOCK = {"start": "2026-03-02T09:00", "ask_minutes": 60, "wait_cost_per_day": 0.0}


def person(pid, topics=()):
    return {"id": pid, "name": pid.title(), "role": "Role", "blurb": "Blurb.", "fallback": f"{pid}: not my area.",
            "cost": 0.01, "topics": [{"id": t, "about": f"the {t} subject", "triggers": [t], "answer": f"{t} answer",
                                      "facts": [f"F_{t}"]} for t in topics]}


def make(inbox, people=None):
    people = people or [person("ann", ["alpha", "beta"]), person("bob", ["gamma"])]
    spec = validate_people(copy.deepcopy({"people": people, "clock": CLOCK, "inbox": inbox}), "people.yaml")
    return People(spec, make_router("regex", spec["people"]))


def delivered(p):
    return [m["id"] for m in p.read_inbox()]


def test_a_message_whose_facts_the_agent_already_knows_is_not_delivered():
    inbox = [{"id": "old", "from": "ann", "text": "FYI alpha.", "after_hours": 24, "facts": ["F_alpha"]},
             {"id": "half", "from": "ann", "text": "FYI alpha and more.", "after_hours": 24,
              "facts": ["F_alpha", "F_more"]},
             {"id": "plain", "from": "ann", "text": "Any news?", "after_hours": 24}]
    p = make(inbox)
    assert p.contact("ann", "alpha?").facts == ["F_alpha"]
    p.wait(24)
    assert p.inbox_new() == 2 and delivered(p) == ["half", "plain"]
    assert "old" not in p.ledger[-1]["tags"] and "F_more" in p.known
    fresh = make(inbox)
    fresh.wait(24)
    assert delivered(fresh) == ["old", "half", "plain"], "without the conversation all three are news"


def test_unless_asked_a_person():
    inbox = [{"id": "nudge", "from": "ann", "text": "Come and talk to me.", "after_hours": 24,
              "unless_asked": "ann"},
             {"id": "either", "from": "bob", "text": "Talk to Ann or me.", "after_hours": 24,
              "unless_asked": ["ann", "bob"]}]
    p = make(inbox)
    p.contact("bob", "anything?")                    # bob's "not my area" still counts as asking bob
    p.wait(24)
    assert delivered(p) == ["nudge"]
    q = make(inbox)
    q.contact("ann", "what's new?")                  # not a topic of hers: asking her is what counts
    q.wait(24)
    assert q.inbox_new() == 0 and delivered(q) == []


def test_unless_asked_a_topic():
    inbox = [{"id": "beta_nudge", "from": "ann", "text": "Ask me about beta.", "after_hours": 24,
              "unless_asked": "ann/beta"}]
    p = make(inbox)
    p.contact("ann", "alpha?")                       # talked to ann, but not about beta
    p.wait(24)
    assert delivered(p) == ["beta_nudge"]
    q = make(inbox)
    q.contact("ann", "beta?")
    q.wait(24)
    assert delivered(q) == []


def test_decided_once_when_the_conditions_first_hold():
    inbox = [{"id": "tip", "from": "ann", "text": "FYI alpha.", "after_hours": 24, "facts": ["F_alpha"],
              "unless_asked": "bob"}]
    p = make(inbox)
    p.wait(24)
    assert p.inbox_new() == 1                        # arrived, not read yet
    p.contact("ann", "alpha?")                       # now the agent knows its fact...
    p.contact("bob", "gamma?")                       # ...and has asked bob
    assert p.inbox_new() == 1 and delivered(p) == ["tip"], "an arrived message never vanishes"
    assert delivered(p) == ["tip"] and p.inbox_new() == 0
    q = make(inbox)
    q.contact("ann", "alpha?")
    q.wait(24)
    assert q.inbox_new() == 0
    q.known.discard("F_alpha")                       # forgetting does not bring back a dropped message
    assert q.inbox_new() == 0 and delivered(q) == []


def test_decided_at_the_step_that_makes_it_due_whoever_reads_the_inbox():
    """A wait makes the message due; the agent learns its fact afterwards and only then looks."""
    p = make([{"id": "tip", "from": "ann", "text": "FYI alpha.", "after_hours": 24, "facts": ["F_alpha"]}])
    p.wait(24)                                       # nobody asks inbox_new here
    p.contact("ann", "alpha?")
    assert delivered(p) == ["tip"]


def test_a_new_episode_starts_with_nothing_decided():
    inbox = [{"id": "nudge", "from": "ann", "text": "Come and talk to me.", "after_hours": 24, "unless_asked": "ann"}]
    first = make(inbox)
    first.contact("ann", "alpha?")
    first.wait(24)
    assert delivered(first) == []
    second = People(first.spec, first.router)        # what a reset builds
    assert second.inbox_fate == {}
    second.wait(24)
    assert delivered(second) == ["nudge"]


@pytest.mark.parametrize("entry, error", [
    ({"unless_asked": "carol"}, r"people\.yaml: inbox\[0\] \(m\): unless_asked: unknown person 'carol'"),
    ({"unless_asked": "an"}, r"unknown person 'an'.*Did you mean 'ann'"),
    ({"unless_asked": ["ann", "bob/delta"]}, r"inbox\[0\] \(m\): unless_asked: bob has no topic 'delta'"),
    ({"unless_asked": "ann/"}, r"ann has no topic ''"),
    ({"unless_asked": []}, r"unless_asked: expected '<person>'"),
    ({"unless_asked": {"ann": "alpha"}}, r"unless_asked: expected '<person>'"),
    ({"facts": "F_alpha"}, r"inbox\[0\] \(m\)\.facts: Input should be a valid list \(got 'F_alpha'\)"),
])
def test_unless_asked_and_facts_are_checked(entry, error):
    with pytest.raises(TaskFormatError, match=error):
        make([{"id": "m", "from": "ann", "text": "t", **entry}])


def test_valid_unless_asked_forms_pass():
    make([{"id": "a", "from": "ann", "text": "t", "unless_asked": "ann"},
          {"id": "b", "from": "ann", "text": "t", "unless_asked": "bob/gamma"},
          {"id": "c", "from": "ann", "text": "t", "unless_asked": ["ann/alpha", "bob"]}])
