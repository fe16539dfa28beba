"""Kasia, asked whether LB flaps should page once or go to a ticket, answers from her own LB topic
(a playtest's plan-and-ask message once got "I don't have that detail to hand")."""

from __future__ import annotations

import pytest

from tests.tasks.people_of import people_of

PLAYTEST = ("Hi Kasia - LBHealthCheckFailed in the router. Plan: dedup on lb/pool/member (dropping the #gNNNN "
            "suffix), page once when a member starts flapping (1-3 failed checks, back in rotation within a minute "
            "or two) and group further flaps of that member into that page; page separately and at once when a "
            "member is really down (connection refused / TCP RST, N consecutive checks, no recovery). Is that what "
            "you want at 3am, or should pure flaps not page at all and go to a ticket instead?")
PARAPHRASES = [
    PLAYTEST,
    "Kasia, for a flapping lb-healthd member that the pool rides out: one page, or no page and a ticket?",
    "Do you want to be woken when a load balancer member keeps bouncing but the pool is fine?",
]


@pytest.mark.parametrize("variant", ["base", "sample:3", "sample:4713"])
@pytest.mark.parametrize("message", PARAPHRASES)
def test_kasia_says_what_she_wants_for_lb_flaps(variant, message):
    res = people_of("pager_fatigue", variant).contact("kasia_wrona", message)
    assert "lb_flaps" in res.tags, (res.tags, res.reply)
    assert "NET ticket" in res.reply
