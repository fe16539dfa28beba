"""A reply is stamped when it comes back: never before the message it answers, and on the customer's
clock as it stands once the reply is in, whatever came before (messages, waits, trial days, an
out-of-office, someone who has left, someone out of patience)."""

from __future__ import annotations

import copy
import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from fdegym_env.people import People, make_router
from fdegym_env.people.spec import validate_people


def _spec(start_hour: int, ask_minutes: int, advance_hours: int) -> dict:
    def who(pid, **kw):
        return {"id": pid, "name": pid.title(), "role": "Role", "blurb": "Blurb.", "fallback": "Not mine.",
                "cost": 0.01, "topics": [{"id": "alpha", "about": "alpha", "triggers": ["alpha"], "answer": "Alpha."}],
                **kw}
    away = who("away")
    away["topics"][0].update(stall=["(auto-reply) Away until Thursday."], available_after_hours=48)
    return validate_people(copy.deepcopy({
        "clock": {"start": f"2026-03-02T{start_hour:02d}:00", "ask_minutes": ask_minutes},
        "trial": {"max_runs": 3, "cost": [0.0], "advance_hours": advance_hours},
        "people": [who("ann"), who("brief", patience=1), away, who("gone", gone_at="2026-03-03T12:00")]}), "test")


def _when(stamp: str) -> dt.datetime:
    return dt.datetime.strptime(f"2026 {stamp}", "%Y %a %d %b %H:%M")


ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("contact"), st.sampled_from(["ann", "brief", "away", "gone"]),
              st.sampled_from(["alpha?", "anything else?"])),
    st.tuples(st.just("wait"), st.sampled_from([0.25, 1, 7.5, 24, 72])),
    st.tuples(st.just("trial")),
    st.tuples(st.just("inbox"))), min_size=1, max_size=25)


@settings(max_examples=150, deadline=None)
@given(start_hour=st.integers(0, 23), ask_minutes=st.sampled_from([0, 15, 60, 120, 240]),
       advance_hours=st.sampled_from([0, 8, 24]), actions=ACTIONS)
def test_a_reply_is_never_stamped_before_its_message(start_hour, ask_minutes, advance_hours, actions):
    spec = _spec(start_hour, ask_minutes, advance_hours)
    p = People(spec, make_router("regex", spec["people"]))
    last_reply = None
    for act in actions:
        if act[0] == "contact":
            sent = p.clock.now()
            r = p.contact(act[1], act[2])
            back = _when(r.at)
            assert back >= sent, (r.tags, r.at, sent)
            assert _when(p.ledger[-1]["at"]) == sent            # the message is logged as sent
            assert r.at == p.stamp(), (r.tags, r.at, p.stamp())  # the reply is the customer's latest time
            if ask_minutes and not {"gone", "auto_reply"} & set(r.tags):
                assert back - sent == dt.timedelta(minutes=ask_minutes), r.tags
            assert last_reply is None or back >= last_reply
            last_reply = back
        elif act[0] == "wait":
            p.wait(act[1])
        elif act[0] == "trial":
            p.trial(lambda day: {"feedback": f"day {day}"})
        else:
            p.read_inbox()
