"""Golden tests of the stakeholder engine: one per semantic of people.yaml (docs/design.md, People), against
hand-written specs, with the reference harness's numbers and tags."""

from __future__ import annotations

import copy

import pytest

from fdegym_env.people import People, make_router
from fdegym_env.people.engine import DEFAULT_OVERFLOW
from fdegym_env.people.spec import validate_people

CLOCK = {"start": "2026-03-02T09:00", "ask_minutes": 60, "wait_cost_per_day": 0.0}


def person(pid="ann", **kw):
    p = {"id": pid, "name": pid.title(), "role": "Role", "blurb": "Blurb.", "fallback": f"{pid}: not my area.",
         "cost": 0.01, "topics": []}
    p.update(kw)
    return p


def topic(tid, trigger=None, **kw):
    t = {"id": tid, "about": f"the {tid} subject", "triggers": [trigger or tid], "answer": f"{tid} answer",
         "facts": [f"F_{tid}"]}
    t.update(kw)
    return t


def make(people, router="regex", **top):
    spec = validate_people(copy.deepcopy({"people": people, **top}), "test")
    return People(spec, make_router(router, spec["people"]))


# --- patience and pricing -------------------------------------------------------------------------
def test_patience_exhaustion_answers_nothing_and_costs_nothing():
    p = make([person(patience=2, out_of_patience="Busy, sorry.", topics=[topic("alpha")])])
    assert [p.contact("ann", "alpha?").tags for _ in range(2)] == [["alpha"], ["alpha"]]
    r = p.contact("ann", "alpha again?")
    assert (r.reply, r.tags, r.facts, r.cost, r.questions_left) == ("Busy, sorry.", ["out_of_patience"], [], 0.0, 0)
    assert p.asked["ann"] == 2 and p.contact_cost == pytest.approx(0.02)


def test_soft_limit_first_over_limit_message_is_charged_at_over_factor():
    p = make([person(cost=0.01, soft_limit=2, over_factor=3, topics=[topic("alpha")])])
    costs = [p.contact("ann", "alpha?").cost for _ in range(4)]
    assert costs == pytest.approx([0.01, 0.01, 0.03, 0.03])
    assert p.contact_cost == pytest.approx(0.08)
    q = make([person(cost=0.02, soft_limit=0)])             # default over_factor is 3
    assert q.contact("ann", "hello").cost == pytest.approx(0.06)


# --- off limits ------------------------------------------------------------------------------------
def test_off_limits_without_topics_replies_and_charges_every_time():
    p = make([person("ceo", off_limits=True, cost=0.2, soft_limit=0, over_factor=5, off_limits_reply="Go via Dana.")])
    for _ in range(2):
        r = p.contact("ceo", "Can I ask about the budget?")
        assert (r.reply, r.tags, r.facts, r.cost) == ("Go via Dana.", ["off_limits"], ["F_off_limits:ceo"], 0.2)
    assert p.discovery([])["off_limits_contacts"] == ["ceo"]


def test_off_limits_with_topics_answers_but_is_marked_and_charged():
    p = make([person("ceo", off_limits=True, cost=0.2, topics=[topic("budget")])])
    r = p.contact("ceo", "What is the budget?")
    assert r.reply == "budget answer" and r.tags == ["off_limits", "budget"]
    assert r.facts == ["F_off_limits:ceo", "F_budget"] and r.cost == 0.2
    r = p.contact("ceo", "Nice weather?")
    assert r.tags == ["off_limits"] and r.reply == "ceo: not my area." and r.cost == 0.2


# --- people who leave ------------------------------------------------------------------------------
@pytest.mark.parametrize("field,value,steps", [
    ("gone_after_hours", 3, "three messages of 60 min"),
    ("gone_at", "2026-03-02T12:00", "noon on the first day"),
    ("gone_after_asks", 3, "three messages to anyone"),
])
def test_gone(field, value, steps):
    p = make([person(topics=[topic("alpha")], **{field: value, "gone_label": "on leave", "gone_reply": "(auto) away"}),
              person("bob")], clock=CLOCK)
    for _ in range(3):
        assert p.contact("bob" if field == "gone_after_asks" else "ann", "alpha?").tags != ["gone"]
    assert [d["gone"] for d in p.directory()] == ["on leave", None]
    assert p.directory()[0]["reachable"] is False
    before = p.clock.minutes
    r = p.contact("ann", "alpha?")
    assert (r.reply, r.tags, r.facts, r.cost) == ("(auto) away", ["gone"], [], 0.0)
    assert p.clock.minutes == before, "an automatic reply takes no customer time"
    assert p.discovery([])["questions_asked"] == 3 and p.ledger[-1]["tags"] == ["gone"]


def test_gone_by_calendar_needs_a_clock():
    p = make([person(gone_after_hours=0, gone_at="2020-01-01T00:00")])   # no clock: never gone
    assert p.contact("ann", "hi").tags == []


# --- stalls on the simulated clock -------------------------------------------------------------------
def test_stall_sequence_then_answer():
    p = make([person(topics=[topic("alpha", stall=["Let me check.", "Still checking."])])], clock=CLOCK)
    got = [p.contact("ann", "alpha?") for _ in range(3)]
    assert [r.reply for r in got] == ["Let me check.", "Still checking.", "alpha answer"]
    assert [r.tags for r in got] == [["alpha:stalled"], ["alpha:stalled"], ["alpha"]]
    assert got[2].facts == ["F_alpha"]


def test_available_after_hours_counts_simulated_hours_from_the_stall():
    t = topic("alpha", stall=["Back on Thursday."], available_after_hours=48, stall_again="I said Thursday.")
    p = make([person(topics=[t])], clock={**CLOCK, "wait_cost_per_day": 0.01})
    assert p.contact("ann", "alpha?").tags == ["alpha:stalled"]          # Mon 09:00, free at Wed 09:00
    r = p.contact("ann", "alpha?")
    assert (r.tags, r.reply) == (["alpha:too_soon"], "I said Thursday.")
    p.wait(45)                                                            # 11:00 + 45 h = Wed 08:00
    assert p.contact("ann", "alpha?").tags == ["alpha:too_soon"]
    assert p.contact("ann", "alpha?").tags == ["alpha"]                   # Wed 09:00


def test_available_at_on_the_calendar():
    t = topic("alpha", stall=["After the audit."], available_at="2026-03-03T09:00")
    p = make([person(topics=[t])], clock=CLOCK)
    assert p.contact("ann", "alpha?").tags == ["alpha:stalled"]
    r = p.contact("ann", "alpha?")
    assert (r.tags, r.reply) == (["alpha:too_soon"], "After the audit.")   # no stall_again: the last stall
    p.wait(24)
    assert p.contact("ann", "alpha?").tags == ["alpha"]
    q = make([person(topics=[t])], clock=CLOCK)
    q.wait(30)                                                            # asked first after the date: no stall
    assert q.contact("ann", "alpha?").tags == ["alpha"]


def test_stall_seconds_run_on_the_simulated_clock():
    t = topic("alpha", stall=["Give me an hour."], stall_seconds=7200)
    p = make([person(topics=[t])], clock=CLOCK)
    assert p.contact("ann", "alpha?").tags == ["alpha:stalled"]
    assert p.contact("ann", "alpha?").tags == ["alpha:too_soon"]           # 60 min later
    assert p.contact("ann", "alpha?").tags == ["alpha"]                    # 120 min later


# --- prerequisites and gates -------------------------------------------------------------------------
def _needs_legal():
    return topic("signoff", requires_facts=["F_legal"], requires_miss="Legal first, please.")


def test_requires_facts_from_another_person():
    p = make([person(topics=[_needs_legal()]), person("lee", topics=[topic("legal", facts=["F_legal"])])])
    r = p.contact("ann", "signoff?")
    assert (r.reply, r.tags, r.facts) == ("Legal first, please.", ["signoff:needs_prior"], [])
    p.contact("lee", "legal?")
    assert p.contact("ann", "signoff?").facts == ["F_signoff"]


def test_requires_facts_from_the_inbox():
    p = make([person(topics=[_needs_legal()]), person("lee")], clock=CLOCK,
             inbox=[{"id": "m1", "from": "lee", "text": "Legal is fine.", "facts": ["F_legal"], "after_hours": 0}])
    assert p.contact("ann", "signoff?").tags == ["signoff:needs_prior"]
    p.read_inbox()
    assert p.contact("ann", "signoff?").tags == ["signoff"]


def test_requires_facts_from_a_trial():
    p = make([person(topics=[_needs_legal()])], trial={"max_runs": 1, "cost": [0.05]})
    assert p.contact("ann", "signoff?").tags == ["signoff:needs_prior"]
    day, feedback, cost = p.trial(lambda d: {"feedback": "legal saw no issue", "facts": ["F_legal"]})
    assert (day, feedback, cost) == (1, "legal saw no issue", 0.05)
    assert p.contact("ann", "signoff?").tags == ["signoff"]
    assert p.trial(lambda d: pytest.fail("no second run")) == (2, "The trial window is used up.", 0.0)


def test_evidence_gate_regex_checks_this_message_only():
    t = topic("owner", requires=["INC\\d{5}"], gate_miss="Which ticket?")
    p = make([person(topics=[t])])
    r = p.contact("ann", "Who is the owner?")
    assert (r.reply, r.tags, r.facts) == ("Which ticket?", ["owner:gated"], [])
    assert p.contact("ann", "owner? see inc12345").tags == ["owner"]         # case-insensitive search
    assert p.contact("ann", "And the owner again?").tags == ["owner:gated"]   # harness regex: no memory


def test_exclusive_gate_met_replaces_everything_else():
    persuaded = topic("yes", trigger="budget", requires=["\\d+ (complaints|tickets)"], exclusive=True,
                      answer="OK, you convinced me.")
    old = topic("no", trigger="budget", answer="No budget for that.")
    p = make([person(topics=[old, persuaded])])
    r = p.contact("ann", "Can we get budget?")
    assert r.tags == ["no", "yes:gated"]
    r = p.contact("ann", "Can we get budget? We had 40 complaints.")
    assert (r.tags, r.reply, r.facts) == (["yes"], "OK, you convinced me.", ["F_yes"])


def test_overflow_past_four_topics():
    topics = [topic(f"t{i}", trigger="everything about", answer=f"a{i}") for i in range(6)]
    p = make([person(topics=topics, overflow="That's enough for now.")])
    r = p.contact("ann", "everything about it")
    assert r.tags == ["t0", "t1", "t2", "t3"] and r.facts == ["F_t0", "F_t1", "F_t2", "F_t3"]
    assert r.reply == "a0\n\na1\n\na2\n\na3\n\nThat's enough for now."
    q = make([person(topics=topics)])
    assert q.contact("ann", "everything about").reply.endswith(DEFAULT_OVERFLOW)
    assert make([person(topics=topics[:4])]).contact("ann", "everything about").reply == "a0\n\na1\n\na2\n\na3"


# --- inbox, budget, waiting ------------------------------------------------------------------------
def test_inbox_conditions():
    inbox = [{"id": "now", "from": "ann", "text": "hello"},
             {"id": "day", "from": "ann", "text": "a day on", "after_hours": 24, "facts": ["F_day"]},
             {"id": "asks", "from": "ann", "text": "two asks", "after_asks": 2},
             {"id": "fact", "from": "ann", "text": "heard about alpha", "after_fact": "F_alpha", "facts": ["F_more"]}]
    p = make([person(topics=[topic("alpha")])], clock=CLOCK, inbox=inbox)
    assert p.inbox_new() == 1 and [m["id"] for m in p.read_inbox()] == ["now"]
    assert p.inbox_new() == 0 and p.read_inbox()[0]["new"] is False
    p.contact("ann", "alpha?")
    assert p.inbox_new() == 1                                              # after_fact
    p.contact("ann", "beta?")
    assert p.inbox_new() == 2                                              # after_asks
    p.wait(22)                                                             # 2 h of asks + 22 h
    msgs = p.read_inbox()
    assert [m["id"] for m in msgs] == ["now", "day", "asks", "fact"] and [m["new"] for m in msgs] == [False, True, True, True]
    assert {"F_day", "F_more"} <= p.known and p.facts_obtained() == ["F_alpha", "F_day", "F_more"]
    assert make([person()], inbox=inbox).inbox_new() == 1, "after_hours needs a clock"


def test_inbox_after_stall_arrives_once_the_topic_was_held_back():
    topics = [topic("alpha", stall=["Let me check and come back to you."]),
              topic("beta", requires=["INC\\d+"], gate_miss="Which incident?"),
              topic("gamma")]
    inbox = [{"id": "dug", "from": "ann", "text": "Dug it out: alpha is X.", "after_stall": "ann/alpha",
              "stall_delay_hours": 24, "facts": ["F_dug"]},
             {"id": "gate", "from": "ann", "text": "Found the incident you meant.", "after_stall": "ann/beta"}]
    p = make([person(topics=topics)], clock=CLOCK, inbox=inbox)
    p.contact("ann", "gamma?")                                 # answered, not held back
    p.contact("ann", "beta?")                                  # gated: no incident number
    assert p.inbox_new() == 1 and [m["id"] for m in p.read_inbox()] == ["gate"]
    assert p.contact("ann", "alpha?").tags == ["alpha:stalled"]
    p.wait(22)                                                 # stalled at 11:00; 1 h ask + 22 h < 24 h
    assert p.inbox_new() == 0
    p.wait(1)
    assert [m["id"] for m in p.read_inbox() if m["new"]] == ["dug"] and "F_dug" in p.known
    q = make([person(topics=topics)], clock=CLOCK, inbox=inbox)
    q.contact("ann", "alpha?")
    q.wait(48)
    assert q.inbox_new() == 1, "only the topic that was held back counts ('gate' waits for ann/beta)"
    shadow = make([person(topics=topics)], clock=CLOCK, inbox=inbox)
    shadow.releasable("ann", "beta?")
    assert shadow.inbox_new() == 0, "a dry run (releasable) holds nothing back"


@pytest.mark.parametrize("entry, error", [
    ({"after_stall": "bob/alpha"}, "person of"),
    ({"after_stall": "ann/delta"}, "no topic 'delta'"),
    ({"after_stall": "ann/gamma"}, "never held back"),
    ({"stall_delay_hours": 5}, "needs 'after_stall"),
    ({"after_stall": "ann/alpha", "stall_delay_hours": "a day"}, r"stall_delay_hours: Input should be a valid number \(got 'a day'\)"),
    ({"after_stall": "ann/alpha", "stall_delay_hours": -1}, "stall_delay_hours: Input should be greater than or equal to 0"),
    ({"from": "lee"}, r"inbox\[0\] \(m\): from: unknown person 'lee'"),
])
def test_inbox_after_stall_is_checked(entry, error):
    topics = [topic("alpha", stall=["Let me check."]), topic("gamma")]
    with pytest.raises(ValueError, match=error):
        make([person(topics=topics)], inbox=[{"id": "m", "from": "ann", "text": "t", **entry}])


@pytest.mark.parametrize("show", [True, False])
def test_total_questions_with_and_without_show_budget(show):
    p = make([person(topics=[topic("alpha")]), person("bob", patience=5)], total_questions=3, show_budget=show)
    r = p.contact("ann", "alpha?")
    assert (r.questions_left, r.total_questions_left) == ((2, 2) if show else (None, None))
    assert p.contact("bob", "hi").questions_left == (1 if show else None)      # min(patience left, total left)
    assert [d["questions_left"] for d in p.directory()] == ([1, 1] if show else [None, None])
    p.contact("ann", "alpha?")
    r = p.contact("bob", "hi")                                              # the shared budget is spent
    assert r.tags == ["out_of_patience"] and r.cost == 0.0
    assert p.total_left == 0, "the bound is enforced whether or not it is shown"


def test_waiting_cost_per_day():
    p = make([person()], clock={**CLOCK, "wait_cost_per_day": 0.02})
    assert p.wait(36) == pytest.approx(0.03)
    assert p.wait(10_000) == pytest.approx(0.02 * 14)                       # capped at two weeks
    assert p.clock.hours == 36 + 24 * 14 and p.contact_cost == pytest.approx(0.31)
    with pytest.raises(ValueError, match="no calendar"):
        make([person()]).wait(1)


# --- clock, directory, ledger, metrics --------------------------------------------------------------
def test_each_message_takes_ask_minutes_and_is_stamped():
    p = make([person()], clock=CLOCK)
    # sent at 09:00 and 10:00 (the ledger), each reply back an hour later
    assert p.contact("ann", "hi").at == "Mon 02 Mar 10:00"
    assert p.contact("ann", "hi").at == "Mon 02 Mar 11:00"
    assert [r["at"] for r in p.ledger] == ["Mon 02 Mar 09:00", "Mon 02 Mar 10:00"]
    assert make([person()], clock={"start": "2026-03-02T09:00"}).clock_cfg.get("ask_minutes", 120) == 120


def test_unknown_person_gets_did_you_mean():
    p = make([person("night_editor")])
    r = p.contact("nigt_editor", "hi")
    assert r.error and "Did you mean 'night_editor'?" in r.error and p.ledger == []


def test_discovery_metrics_and_ledger():
    p = make([person(topics=[topic("alpha"), topic("beta")]), person("ceo", off_limits=True, off_limits_reply="No.")])
    p.contact("ann", "alpha and beta?")
    p.contact("ceo", "hi")
    d = p.discovery(["F_alpha", "F_gamma"])
    assert d == {"questions_asked": 2, "asked_by_person": {"ann": 1, "ceo": 1},
                 "facts_obtained": ["F_alpha", "F_beta", "F_off_limits:ceo"], "off_limits_contacts": ["ceo"],
                 "key_fact_coverage": 0.5}
    assert [(r["to"], r["tags"], r["cost"]) for r in p.ledger] == [("ann", ["alpha", "beta"], 0.01), ("ceo", ["off_limits"], 0.01)]


def test_releasable_changes_nothing():
    p = make([person(topics=[topic("alpha", stall=["wait"])])], clock=CLOCK)
    assert p.releasable("ann", "alpha?") == ("wait", ["alpha:stalled"], [])
    assert p.ledger == [] and p.stalled == {} and p.asked["ann"] == 0
    assert p.contact("ann", "alpha?").tags == ["alpha:stalled"]


@pytest.mark.parametrize("router", ["regex", "lexical"])
def test_same_messages_replay_exactly(router):
    def run():
        p = make([person(patience=4, soft_limit=1, topics=[topic("alpha", stall=["later"], available_after_hours=2)]),
                  person("bob", topics=[topic("beta")])], router=router, clock=CLOCK,
                 inbox=[{"id": "m", "from": "bob", "text": "x", "after_asks": 2}])
        for to, m in [("ann", "alpha?"), ("bob", "beta?"), ("ann", "alpha?"), ("ann", "alpha now?")]:
            p.contact(to, m)
        p.read_inbox()
        return p.ledger
    assert run() == run()


# --- replies: referrals and recaps (fdegym's own tasks turn these on; harness cases keep them off) --
def _replies(**kw):
    return {"replies": {"refer_elsewhere": True, "recap_repeats": True, **kw}}


def test_unknown_question_names_the_person_who_would_know():
    p = make([person("ann", topics=[topic("alpha")]),
              person("bob", role="Feeds Engineer", topics=[topic("beta", about="how the beta feed is parsed")]),
              person("cat", role="Counsel", off_limits=True, topics=[topic("gamma")])], router="lexical", **_replies())
    r = p.contact("ann", "How is the beta feed parsed?")
    assert r.reply == "I don't know that one — Bob (Feeds Engineer) would be the person to ask."
    assert (r.tags, r.facts, r.cost) == (["dont_know", "refer:bob"], [], 0.01)
    r = p.contact("ann", "What does gamma say?")          # only an off-limits person knows: nobody is named
    assert (r.reply, r.tags) == ("ann: not my area.", ["dont_know"])


def test_dont_know_template_is_the_persons_own_and_gone_people_are_not_named():
    p = make([person("ann", dont_know="No idea - try {name}, {role}.", topics=[topic("alpha")]),
              person("bob", role="Feeds", topics=[topic("beta")]),
              person("dan", role="Ex-feeds", gone_after_asks=1, topics=[topic("beta")])], **_replies())
    assert p.contact("ann", "beta?").reply == "No idea - try Bob, Feeds."
    q = make([person("ann", topics=[topic("alpha")]), person("dan", gone_after_asks=1, topics=[topic("beta")])],
             **_replies())
    assert q.contact("ann", "alpha?").tags == ["alpha"]          # dan is gone after one question
    assert q.contact("ann", "beta?").tags == ["dont_know"]


def test_a_topic_already_answered_is_recapped_in_one_line_at_the_normal_price():
    long = "First sentence here. Then a long paragraph that should not be repeated word for word."
    p = make([person(topics=[topic("alpha", answer=long), topic("beta", recap="Beta is weekly.")])], **_replies())
    assert p.contact("ann", "alpha?").reply == long
    r = p.contact("ann", "alpha again, differently worded?")
    assert (r.reply, r.tags, r.facts, r.cost) == ("As I said: First sentence here.", ["alpha:repeat"], ["F_alpha"], 0.01)
    p.contact("ann", "beta?")
    r = p.contact("ann", "alpha and beta?")
    assert r.reply == "As I said: First sentence here.\n\nAs I said: Beta is weekly."


def test_gated_or_stalled_topics_are_not_recapped_until_really_answered():
    p = make([person(topics=[topic("alpha", requires=["INC-\\d+"], gate_miss="Which incident?")])], **_replies())
    assert p.contact("ann", "alpha?").reply == "Which incident?"
    assert p.contact("ann", "alpha for INC-12?").reply == "alpha answer"
    assert p.contact("ann", "alpha for INC-12 again?").tags == ["alpha:repeat"]


def test_harness_semantics_without_replies_block():
    p = make([person(topics=[topic("alpha")]), person("bob", topics=[topic("beta")])])
    assert p.contact("ann", "beta?").tags == [] and p.contact("ann", "beta?").reply == "ann: not my area."
    assert [p.contact("ann", "alpha?").reply for _ in range(2)] == ["alpha answer", "alpha answer"]


def test_replies_block_is_checked():
    with pytest.raises(ValueError, match=r"replies\.refer_elswhere: unknown field\. Did you mean 'refer_elsewhere'\?"):
        make([person()], replies={"refer_elswhere": True})
    with pytest.raises(ValueError, match=r"replies\.not_to_hand: Input should be a valid boolean \(got 'yes'\)"):
        make([person()], replies={"not_to_hand": "yes"})
