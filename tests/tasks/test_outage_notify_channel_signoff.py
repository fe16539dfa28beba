"""Marisol owns outage messaging: asked whether landline-only customers may get the automated voice
call instead of a text, she answers (a playtest's question once got "I don't have that detail to hand")."""

from __future__ import annotations

import pytest

from tests.tasks.people_of import people_of

MESSAGES = [
    "Hi Marisol, quick decision in your area. 27 customers have only a landline on file in CIS; ONS texts them and "
    "Twilio drops every one (error 30006), so they are never told. The FW-OUTAGE-1 Studio voice flow (~$0.11/call) "
    "exists. May ONS send those landline customers the automated voice call (channel ivr) instead of a text, at any "
    "hour of an outage? (Separately: I found the misses/false texts come from the network model being out of date, "
    "not from device tracing, so whole-feeder texting would not have reached the Buckeye Rd customer - I will "
    "explain in the hand-over.)",
    "Should customers whose only number on file is a landline get the automated IVR call instead of a text that "
    "can't be delivered? IT asked Comms in February and never heard back.",
]


@pytest.mark.parametrize("variant", ["base", "sample:9794", "sample:8639"])
@pytest.mark.parametrize("message", MESSAGES)
def test_marisol_decides_the_landline_channel(variant, message):
    res = people_of("outage_notify", variant).contact("marisol_vance", message)
    assert "scope_signoff" in res.tags, (res.tags, res.reply)
    assert "automated voice call" in res.reply
