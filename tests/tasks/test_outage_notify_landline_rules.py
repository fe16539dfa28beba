"""Marisol, who owns how customers are told, answers whether landline-only customers may get the
automated voice call at any hour, and whether quiet hours, wording or opt-in rules apply: the message
a round-10 playtester sent (a question, then a long paragraph of findings) and paraphrases."""

from __future__ import annotations

import pytest
from people_of import people_of

PLAYTEST = ("Hi Marisol - quick decision in your area. About 40 customers have a landline on file; every text to them "
            "fails (Twilio 30006) and they were behind many 'nobody told me' calls. I plan to send them the automated "
            "voice call (Studio flow FW-OUTAGE-1, ~$0.11) instead of a text, any hour the outage happens. OK with you, "
            "or are there rules (quiet hours, wording, opt-in) I must respect? (Findings so far: the misses were "
            "switching ONS didn't know about, not the device tracing - so texting the whole feeder would add "
            "~thousands of wrong texts; I'm fixing the tracing, de-duplicating per incident, and putting life-support "
            "first on the call list instead.)")
PARAPHRASES = [
    "Are there quiet hours for the automated outage voice call to landline customers, or can it ring at 3am?",
    "Do landline-only customers have to opt in before ONS sends them the automated voice call about an outage?",
    "Can the IVR outage call go to landline numbers at any hour, and is there wording I must use?",
]


@pytest.mark.parametrize("variant", ["base", "sample:8372", "sample:3263"])
@pytest.mark.parametrize("message", [PLAYTEST, *PARAPHRASES])
def test_marisol_answers_the_landline_call_rules(variant, message):
    res = people_of("outage_notify", variant).contact("marisol_vance", message)
    assert "scope_signoff" in res.tags, res.reply
    assert "quiet hours" in res.reply and "any hour" in res.reply
