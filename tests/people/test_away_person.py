"""Away persons: an auto-reply stall tied to the calendar (``available_at``) ends at that time, whenever
the person was first asked; a "let me check" stall (``available_after_hours``) runs from the first ask.

claims_fasttrack's Aileen Park (at a DOI hearing on Monday, back Tuesday morning) was scripted with
``available_after_hours: 24``: asked for the first time after waiting a day she was still "at a DOI
hearing today" for 24 more hours, and a second topic first asked on Tuesday got Monday's auto-reply."""

from __future__ import annotations

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

ACK = "What is the statutory acknowledgement deadline for a claim, and when does our letter go out?"
AUTHORITY = "What is the delegated authority for paying a claim straight through without an adjuster review?"


def _spec(stall_key: str, value, stall: str = "(auto-reply) Away today.", again: str = "(auto-reply) Still away.") -> dict:
    topic = {"id": "rule", "about": "the acknowledgement rule", "keywords": ["acknowledgement"],
             "answer": "Fifteen days.", "facts": ["F_rule"], "stall": [stall],
             "stall_again": again, stall_key: value}
    return {"clock": {"start": "2026-03-02T08:30", "ask_minutes": 60},
            "people": [{"id": "ann", "name": "Ann Lee", "role": "Compliance", "blurb": "b", "fallback": "Not mine.",
                        "topics": [topic]}]}


def _ask(eng: People, to: str, msg: str) -> list[str]:
    return eng.contact(to, msg).tags


def test_available_at_is_calendar_time_whenever_first_asked():
    spec = _spec("available_at", "2026-03-03T08:30")
    eng = People(spec, make_router("lexical", spec["people"]))
    eng.wait(24)                                     # Tuesday 08:30: back, never asked before
    assert _ask(eng, "ann", "what is the acknowledgement rule?") == ["rule"]
    eng = People(spec, make_router("lexical", spec["people"]))
    # an out-of-office: free, and no time passes
    assert _ask(eng, "ann", "what is the acknowledgement rule?") == ["rule:stalled", "auto_reply"]
    assert _ask(eng, "ann", "the acknowledgement rule, please?") == ["rule:too_soon", "auto_reply"]
    eng.wait(23)
    assert _ask(eng, "ann", "the acknowledgement rule, please?") == ["rule:too_soon", "auto_reply"]
    eng.wait(1)                                      # Tuesday 08:30
    assert _ask(eng, "ann", "what is the acknowledgement rule?") == ["rule"]


def test_available_after_hours_runs_from_the_first_ask():
    spec = _spec("available_after_hours", 24, "Let me check and come back to you.", "Still checking.")
    eng = People(spec, make_router("lexical", spec["people"]))
    eng.wait(24)
    assert _ask(eng, "ann", "what is the acknowledgement rule?") == ["rule:stalled"]   # "let me check" starts now
    eng.wait(22)                                     # Wednesday 07:30: 23 h after the stall
    assert _ask(eng, "ann", "what is the acknowledgement rule?") == ["rule:too_soon"]
    assert _ask(eng, "ann", "what is the acknowledgement rule?") == ["rule"]   # 08:30, 24 h on


def test_claims_fasttrack_aileen_is_back_on_tuesday_for_every_topic():
    task = load_task("claims_fasttrack")
    for variant in task.variants:
        spec = task.people_spec(task.variant(variant))
        router = make_router(task.router, spec["people"])
        late = People(spec, router)
        late.wait(24)                                # first contact on Tuesday morning
        assert _ask(late, "aileen_park", ACK) == ["ack_rule"], variant
        assert _ask(late, "aileen_park", AUTHORITY) == ["authority"], variant
        early = People(spec, router)
        assert _ask(early, "aileen_park", ACK) == ["ack_rule:stalled", "auto_reply"], variant   # free, no time passes
        early.wait(24)                               # Tuesday 08:30, the hearing is over
        assert _ask(early, "aileen_park", ACK) == ["ack_rule"], variant
        assert _ask(early, "aileen_park", AUTHORITY) == ["authority"], variant   # first asked now: no Monday auto-reply


def test_zero_hours_away_means_not_away():
    """A variant that sets ``available_after_hours`` to 0 (the tutorial's ``bev_back_h: 0``) has the person
    in the office: the out-of-office stall is never sent."""
    spec = _spec("available_after_hours", 0)
    eng = People(spec, make_router("lexical", spec["people"]))
    assert _ask(eng, "ann", "what is the acknowledgement rule?") == ["rule"]
    away = _spec("available_after_hours", 48)
    eng = People(away, make_router("lexical", away["people"]))
    assert _ask(eng, "ann", "what is the acknowledgement rule?") == ["rule:stalled", "auto_reply"]
