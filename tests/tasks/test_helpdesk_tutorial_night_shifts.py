"""helpdesk_tutorial: the desk handbook (Moira's, last reviewed November) says "Nights are replenishment only, with
a skeleton crew". Where the depots now pick through the night (night_pick and its samples) that line is stale on
purpose, and whoever says otherwise says so: Moira, who reviewed it, answers whether it is current (she was "I don't
have that detail to hand"), and Tomasz's and Shona's night-pick answers name the handbook line as out of date. Where
the handbook is right, everyone says nights are replen only. Moira never gives the handheld priority herself."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of

TASK = load_task("helpdesk_tutorial")
VARIANTS = sorted(TASK.variants) + ["sample:5784", "sample:5530", "sample:3"]

HANDBOOK_ASKS = [
    # the playtest's finding, as an agent would put it to the handbook's reviewer
    "Moira, quick check on the desk handbook: section 1 says 'Depots work days (06:00-14:00) and back shift "
    "(14:00-22:00), Monday to Saturday. Nights are replenishment only, with a skeleton crew.' But triage.log has "
    "RT7 tickets between 01:00 and 05:00 saying pick lines stood down, and Tomasz tells me the depots pick through "
    "the night. Which is right - is that section of the handbook still up to date?",
    "Is the desk handbook up to date? It says nights are replen only.",
    "The handbook's shift pattern doesn't match the night shift pick tickets in the log - has something changed "
    "since you last reviewed it?",
    "Do the depots still only do replenishment on nights with a skeleton crew, like your handbook says?",
    "Is section 1 of the handbook still current?",
]


def _night_pick(variant: str) -> bool:
    return TASK.variant(variant).params["scanner_priority"] == "P1"


@pytest.mark.parametrize("ask", HANDBOOK_ASKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_moira_says_whether_her_handbook_is_right_about_nights(variant, ask):
    r = people_of("helpdesk_tutorial", variant).contact("moira_quinlan", ask)
    assert r.tags == ["handbook_shifts"], (r.tags, r.reply)
    if _night_pick(variant):
        assert "out of date" in r.reply and "pick chilled through the night, 10 till 6" in r.reply, r.reply
    else:
        assert "replen only" in r.reply and "through the night" not in r.reply, r.reply
    # the handbook's reviewer is not the one who sets the handheld priority
    assert not r.facts and "P1" not in r.reply and "P2" not in r.reply, r.reply


# The playtest's message to Tomasz (sample:5784): his answer is where the agent first hears of the night pick.
OWNER_ASK = (
    "Hi Tomasz - about the parked R15-handheld triage rule. Last week ~25 RT7/handheld tickets (frozen at sign-in, "
    "enrolment failed 0x2F, device not compliant, profile missing, MDM policy not applied) all landed in L1 at P3; "
    "L1 has no MDM console so every one was reassigned to you and sat ~30h (several were night-shift pick lines with "
    "3-6 pickers stood down). I'd like to enable R15 so these go straight to field_ops. What priority do you want "
    "them at - P2 for all handheld tickets, or something different (e.g. hardware faults like battery swell to "
    "vendor_korvex)?")


@pytest.mark.parametrize("variant", VARIANTS)
def test_whoever_says_the_depots_pick_at_night_says_the_handbook_is_out_of_date(variant):
    r = people_of("helpdesk_tutorial", variant).contact("tomasz_wierzbicki", OWNER_ASK)
    assert "handheld_owner" in r.tags, (r.tags, r.reply)
    shona = people_of("helpdesk_tutorial", variant).contact(
        "shona_baird", "When a picker's handheld dies on the night shift, what happens on the floor?")
    assert shona.tags == ["handheld_impact"], (shona.tags, shona.reply)
    for reply in (r.reply, shona.reply):
        if _night_pick(variant):
            assert "pick through the night" in reply and "handbook" in reply, reply
        else:
            assert "through the night" not in reply, reply
