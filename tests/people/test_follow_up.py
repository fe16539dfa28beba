"""A second question that lands on a topic already told is answered by the person's other topic
that answers it, not with "As I said: …"; a message sent again word for word, or a follow-up no
other topic answers, still gets the recap."""

from __future__ import annotations

import json

import pytest

from fdegym_env.people import People, make_router
from fdegym_env.people.spec import validate_people

TOY = {
    "people": [
        {"id": "tomasz", "name": "Tomasz Nowak", "role": "Service desk lead",
         "blurb": "Runs the service desk and its vendor escalations.", "fallback": "Not the desk's, sorry.",
         "cost": 0.01,
         "topics": [
             {"id": "vendor_route", "about": "which handheld scanner tickets go to the vendor Korvex and how",
              "answer": "RT7 scanner faults go to Korvex's repair desk by e-mail with the serial number; "
                        "we only log them."},
             {"id": "vendor_turnaround", "about": "how long Korvex takes to turn a repair round, after hours "
                                                  "and weekends included",
              "answer": "Korvex turns a swap round in four working hours; after 18:00 it waits for the "
                        "morning, and nothing moves at weekends."},
             {"id": "desk_hours", "about": "the service desk's own opening hours",
              "answer": "The desk is staffed 07:00 to 19:00, Monday to Saturday."}]}],
}


def _people(recap: bool = True, router: str = "semantic") -> People:
    spec = validate_people(json.loads(json.dumps(dict(TOY, replies={"recap_repeats": recap}))), "toy")
    return People(spec, make_router(router, spec["people"]))


FIRST = "Which scanner tickets go to Korvex, and how do you send them?"
FOLLOW = "Thanks. And when a Korvex ticket is sent to them after hours, how long until the scanner is back?"


@pytest.mark.parametrize("router", ["semantic", "lexical"])
def test_a_follow_up_on_the_next_detail_gets_its_own_paragraph(router):
    p = _people(router=router)
    assert p.contact("tomasz", FIRST).tags == ["vendor_route"]
    res = p.contact("tomasz", FOLLOW)
    assert res.tags == ["vendor_turnaround"] and res.reply.startswith("Korvex turns a swap round")


def test_the_same_message_again_is_a_repeat():
    p = _people()
    p.contact("tomasz", FIRST)
    again = p.contact("tomasz", "  which scanner tickets go to Korvex, and how do you send them? ")
    assert again.tags == ["vendor_route:repeat"] and again.reply.startswith("As I said: ")


def test_a_follow_up_only_the_told_topic_answers_is_recapped():
    p = _people()
    p.contact("tomasz", FIRST)
    res = p.contact("tomasz", "Sorry, to confirm: RT7 scanner faults go to Korvex by e-mail with the serial?")
    assert res.tags == ["vendor_route:repeat"]


def test_harness_semantics_without_recaps_are_unchanged():
    p = _people(recap=False)
    p.contact("tomasz", FIRST)
    assert p.contact("tomasz", FIRST).tags == ["vendor_route"]
