"""An out-of-office is not a conversation: a message that only reaches auto-replies costs nothing,
uses none of the person's patience and no customer time, and says its auto-reply once."""

from __future__ import annotations

from fdegym_env.people.engine import People
from fdegym_env.people.routers import RegexRouter

AWAY = "(auto-reply) On leave until Tuesday afternoon. - Ken"


def _people():
    spec = {"clock": {"start": "2026-02-23T09:00", "ask_minutes": 60},
            "people": [{"id": "ken", "name": "Ken", "role": "Underwriter", "blurb": "Reviews files.",
                        "fallback": "Not mine.", "cost": 0.02, "patience": 3,
                        "topics": [
                            {"id": "units", "triggers": ["income"], "answer": "Monthly on the new form.",
                             "available_at": "2026-02-24T14:00", "stall": [AWAY], "stall_again": AWAY},
                            {"id": "odd", "triggers": ["income"], "answer": "Old forms are annual.",
                             "available_at": "2026-02-24T14:00", "stall": [AWAY]},
                            {"id": "desk", "triggers": ["desk"], "answer": "Four files a day."}]}]}
    return People(spec, RegexRouter())


def test_a_message_that_only_reaches_an_out_of_office_is_free():
    p = _people()
    before = p.clock.minutes
    r = p.contact("ken", "What income basis does the form use?")
    assert r.reply == AWAY                                   # once, though two topics were held back
    assert r.cost == 0 and "auto_reply" in r.tags and p.contact_cost == 0
    assert p.clock.minutes == before and p.asked["ken"] == 0
    assert p.discovery([])["questions_asked"] == 0


def test_a_message_that_also_reaches_the_person_costs_as_usual():
    p = _people()
    r = p.contact("ken", "What income basis does the form use, and how many files can the desk do?")
    assert "Four files a day." in r.reply and AWAY in r.reply
    assert r.cost == 0.02 and "auto_reply" not in r.tags and p.asked["ken"] == 1


def test_after_the_leave_the_answer_comes_and_costs():
    p = _people()
    p.wait(30)
    r = p.contact("ken", "What income basis does the form use?")
    assert "Monthly on the new form." in r.reply and r.cost == 0.02
