"""helpdesk_tutorial: Priya's own inbox message says a handheld ticket bounced off R20-login. Asked what that
ticket said, or what wording her analysts see on RT7 tickets, she answers herself (she leads L1 and keeps the
rules) instead of referring the engineer elsewhere; the wording she quotes is one R20-login really catches and
fits the variant (kiosk tickets carry the category, phoned and emailed ones name the kit)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people import People, make_router

TASK = load_task("helpdesk_tutorial")
VARIANTS = sorted(TASK.variants) + ["sample:2954", "sample:17", "sample:9059", "sample:123"]
ASKS = [
    "Priya, about the RT7 one that bounced - what did the subject and description on that ticket actually say?",
    "Could you paste me the text of the handheld ticket Sandeep reassigned? I want to see why R20 took it.",
    "What wording do your L1 analysts typically see on RT7 tickets - what words should tell them it's a handheld?",
    "Which phrases on depot device tickets would a keyword rule miss, from what your team sees?",
]


def _people(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


def _r20():
    cfg = json.loads((Path(TASK.path) / "world" / "system" / "config.json").read_text())
    return next(r for r in cfg["rules"] if r["id"] == "R20-login")


@pytest.mark.parametrize("ask", ASKS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_priya_quotes_the_bounced_ticket_and_the_desk_wording(variant, ask):
    params = TASK.variant(variant).params
    ppl = _people(variant)
    ppl.contact("moira_quinlan", "Hello")  # any earlier traffic must not matter
    r = ppl.contact("priya_nair", ask)
    assert "bounced_handhelds" in r.tags, (r.tags, r.reply)
    assert not any(t.startswith("refer:") or t == "dont_know" for t in r.tags), r.tags
    assert "Subject '" in r.reply and "body '" in r.reply
    for alias in ("HHT", "RF gun", "0x2F", "copiers"):
        assert alias in r.reply
    assert ("Device/Handheld" in r.reply) == (params["match_on"] == "category")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_quoted_ticket_is_one_r20_login_catches(variant):
    text = TASK.variant(variant).params["say_bounced_ticket"]
    subj = re.search(r"Subject '([^']*)'", text)[1]
    body = re.search(r"body '([^']*)'", text)[1]
    r20 = _r20()
    words = (subj + " " + body).lower()
    assert any(m in words for m in r20["match"]), (subj, body)
    assert not any(w in words for w in ("rt7", "scan gun")), "R15's parked words would not have bounced"


def test_priya_offers_the_detail_in_her_message_and_it_arrives_in_working_hours():
    spec = TASK.people_spec(TASK.variant("base"))
    m2 = next(m for m in spec["inbox"] if m["id"] == "m2_bounce")
    assert "what it said" in m2["text"]
    start = 9  # the clock starts Mon 09:00; the desk works 08:00-18:00
    assert 8 <= (start + m2["after_hours"]) % 24 < 18


# The playtest (sample:5784) asked about the ticket its trial day reported: Priya's FYI had said the bounced one was
# "yesterday", the very day the first trial mirrors, so her quote of another ticket read as that one's text.
PLAYTEST_ASK = ("Thanks Priya - yes please. What exactly did the handheld ticket that bounced say (subject and body "
                "wording, e.g. INC0042405 \"frozen\")? I am enabling R15-handheld to send RT7s straight to Depot IT "
                "and want to catch the words our keyword list is missing.")


@pytest.mark.parametrize("variant", VARIANTS + ["sample:5784"])
def test_the_ticket_priya_flags_is_from_before_any_trial_day_and_she_says_which_one(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    m2 = next(m for m in spec["inbox"] if m["id"] == "m2_bounce")
    assert "Friday's" in m2["text"] and "yesterday" not in m2["text"]
    # Friday 27 Feb: after the workspace's log week, before the first trial day (Mon 2 Mar)
    assert TASK.module("traffic").shadow_date(1).strftime("%a %d %b") == "Mon 02 Mar"
    for ask in (PLAYTEST_ASK, ASKS[0]):
        r = _people(variant).contact("priya_nair", ask)
        assert "bounced_handhelds" in r.tags, (r.tags, r.reply)
        assert "the one that bounced on Friday" in r.reply, r.reply
        # asked before her FYI arrives (a day in), she does not speak of it as something she sent
        assert "I flagged" not in r.reply, r.reply


# A playtest (sample:5705) asked Priya which kiosk category a handheld ticket carries; where the kiosks take no
# handheld tickets her answer said only that phone and email tickets carry none, leaving the question open.
KIOSK_ASK = ("One specific question: the depot kiosks send a category - what category value(s) does a kiosk ticket "
             "about a handheld/RT7 carry, so I can route those too?")


@pytest.mark.parametrize("variant", VARIANTS + ["sample:5705"])
def test_asked_for_the_kiosk_category_priya_says_what_it_is_or_that_there_is_none(variant):
    r = _people(variant).contact("priya_nair", KIOSK_ASK)
    kiosks_take_handhelds = "Device/Handheld" in TASK.variant(variant).params["say_format"]
    if kiosks_take_handhelds:
        assert "Device/Handheld" in r.reply, r.reply
    else:
        assert "no kiosk category" in r.reply, r.reply
