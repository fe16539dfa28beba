"""helpdesk_tutorial people: the CHANGELOG parks R15-handheld "until Depot IT confirm who should get them and at
what priority". Tomasz runs Depot IT and carries its on-call, so he answers the priority half too: whether a dead
RT7 is worth paging his on-call, consistent with Shona's floor facts and with what the grader counts as a wasted
page (the variant's scanner_priority; no on-call at all where Korvex owns the fleet)."""
from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people import People, make_router

TASK = load_task("helpdesk_tutorial")
VARIANTS = sorted(TASK.variants)
ASKS = [
    "If R15 sends the RT7 tickets your way, what priority do you want them at? Should a dead handheld out of hours "
    "page your on-call as a P1, or is P2 enough?",
    "Would you want your on-call woken for a handheld that fails on the night shift?",
]


def _people(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


@pytest.mark.parametrize("ask", ASKS)
@pytest.mark.parametrize("variant", VARIANTS + ["sample:9059"])
def test_tomasz_answers_the_priority_half_of_the_parked_rule(variant, ask):
    params = TASK.variant(variant).params
    r = _people(variant).contact("tomasz_wierzbicki", ask)
    assert r.tags == ["handheld_priority"], r.reply
    assert "F_priority" in r.facts
    # the priority he names is the one the grader does not count as a wasted page
    assert f"{params['scanner_priority']} to {params['owner_queue']}" in r.reply
    if params["scanner_priority"] == "P1":
        assert "pick through the night" in r.reply
    else:
        assert "don't page" in r.reply.lower() or "pages nobody" in r.reply


@pytest.mark.parametrize("variant", VARIANTS)
def test_tomasz_and_shona_agree_on_nights(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    topics = {(p["id"], t["id"]): t["answer"] for p in spec["people"] for t in p.get("topics") or []}
    tomasz, shona = topics[("tomasz_wierzbicki", "handheld_priority")], topics[("shona_baird", "handheld_impact")]
    night_pick = TASK.variant(variant).params["scanner_priority"] == "P1"
    assert ("10 till 6" in tomasz and "10 till 6" in shona) == night_pick
    assert ("replen only" in tomasz and "replen only" in shona) == (not night_pick)


@pytest.mark.parametrize("variant", VARIANTS + ["sample:9059"])
def test_asked_who_and_at_what_priority_tomasz_answers_both(variant):
    params = TASK.variant(variant).params
    r = _people(variant).contact(
        "tomasz_wierzbicki", "INC004812 was an RT7 log-on fault that R20-login sent to L1, and it was reassigned a day "
        "later. Which queue should handheld tickets go to, and at what priority?")
    assert "handheld_owner" in r.tags and {"F_owner", "F_priority"} <= set(r.facts), r.reply
    assert params["scanner_priority"] in r.reply and params["owner_queue"] in r.reply
