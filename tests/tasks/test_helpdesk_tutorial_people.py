"""helpdesk_tutorial people: the CHANGELOG parks R15-handheld "until Depot IT confirm who should get them and at
what priority". Tomasz runs Depot IT and carries its on-call, so he answers the priority half too: whether a dead
RT7 is worth paging his on-call, consistent with Shona's floor facts and with what the grader counts as a wasted
page (the variant's scanner_priority; no on-call at all where Korvex owns the fleet)."""
from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.grading.grade import held_out_traffic
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
    if night_pick:   # both name the desk handbook's "replen only" line as out of date
        assert "handbook" in tomasz and "handbook" in shona
    else:
        assert "replen only" in tomasz and "replen only" in shona


@pytest.mark.parametrize("variant", VARIANTS + ["sample:9059"])
def test_asked_who_and_at_what_priority_tomasz_answers_both(variant):
    params = TASK.variant(variant).params
    r = _people(variant).contact(
        "tomasz_wierzbicki", "INC004812 was an RT7 log-on fault that R20-login sent to L1, and it was reassigned a day "
        "later. Which queue should handheld tickets go to, and at what priority?")
    assert "handheld_owner" in r.tags and {"F_owner", "F_priority"} <= set(r.facts), r.reply
    assert params["scanner_priority"] in r.reply and params["owner_queue"] in r.reply


# How L1 handles a broken RT7 today, and whether any of her rules route to vendor_korvex, is Priya's own area.
HARDWARE = [
    "Hi Priya - Tomasz has now confirmed the parked R15-handheld: RT7 enrolment/profile/cert/log-on tickets go "
    "straight to field_ops at P1 (nights have no spares and no Depot IT on site; ~2-5 a day in last log week, within "
    "his ~6 call-outs/day), and RT7 hardware faults (battery swell, cracked screen) go to vendor_korvex. Before I "
    "enable it: is there anything in how L1 handles these today I should keep - e.g. do RT7 hardware RMAs need to go "
    "to vendor_korvex at a particular priority, or via L1/Depot IT rather than straight to Korvex?",
    "Priya, does the desk do anything with broken RT7s today - a cracked screen or a swollen battery - that my new "
    "rule should preserve?",
    "Quick one: when someone rings in an RT7 with a swollen battery, where does it end up and at what priority?",
    "I'm about to enable R15 for the RT7 software faults and add a line sending RT7 hardware (battery swell, cracked "
    "screen) to vendor_korvex. Do L1 currently raise the hardware RMAs with Korvex, and is there a priority Korvex "
    "expect on those?",
    "Should RT7 hardware RMAs go to Korvex via the service desk, or straight to vendor_korvex?",
]


@pytest.mark.parametrize("ask", HARDWARE)
@pytest.mark.parametrize("variant", VARIANTS + ["sample:1", "sample:9059"])
def test_priya_answers_what_l1_does_with_rt7_hardware_today(variant, ask):
    r = _people(variant).contact("priya_nair", ask)
    assert r.tags == ["handheld_hardware"], (r.tags, r.reply)
    # what her rules do today, and who has the rest (the RMA side is Depot IT's, not the Head of IT's)
    assert "Nothing of mine routes to vendor_korvex" in r.reply and "service_desk at P3" in r.reply
    assert "Tomasz" in r.reply and "Graham" not in r.reply


@pytest.mark.parametrize("variant", ["base", "vendor_desk"])
def test_what_priya_says_about_hardware_words_is_what_the_tickets_say(variant):
    # no RT7 hardware fault is ever ticketed; 'battery' and 'screen' are in RT7 software faults and laptop tickets
    traffic = held_out_traffic(TASK, TASK.variant(variant))
    kinds = {t["id"]: traffic["truth"][t["id"]]["kind"] for week in traffic["weeks"] for t in week
             if re.search(r"battery|screen", t["subject"] + " " + t["body"], re.I)}
    assert "scanner" in kinds.values() and "laptop" in kinds.values(), kinds


# Label printer priority is Tomasz's own area; he says what the world's R40 does (P2 at field_ops, never a page).
LABEL_ASKS = [
    "Thanks - done: RT7/handheld tickets now go straight to vendor_korvex at P2, so they stop landing on you. One "
    "more specific: Zebra label printer tickets (\"Zebra at pick line 2 shows offline\", ~8 a week, usually 2-4 "
    "pickers stopped) come to field_ops at P3 and take 9-17h. With the RT7 load gone, do you want those at P2 "
    "(your 2-hour response, no paging), or keep them at P3?",
    "What priority should the Zebra label printer tickets be at when they land with you?",
]


@pytest.mark.parametrize("ask", LABEL_ASKS)
@pytest.mark.parametrize("variant", ["base", "vendor_desk", "night_pick", "sample:5905"])
def test_tomasz_answers_what_priority_label_printers_get(variant, ask):
    r = _people(variant).contact("tomasz_wierzbicki", ask)
    assert r.tags == ["label_printers"], (r.tags, r.reply)
    assert "field_ops at P2" in r.reply and "not a P1" in r.reply, r.reply
