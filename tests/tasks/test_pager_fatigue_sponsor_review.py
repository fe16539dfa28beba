"""Graham, the sponsor, answers whether he will present the delivery at his own Friday review
(his sign-off), however long the update before the question: the round-10 playtester's message
(which mentioned Compliance's contract ruling and got "Not mine to answer, that's Aisling's") and
paraphrases."""

from __future__ import annotations

import pytest
from people_of import people_of

PLAYTEST = ("Hi Graham, news for Friday: in yesterday's shadow trial the new router gave Kasia 3 pages, 1 at night "
            "(vs 61 live). Replaying Feb 16 - Mar 2 it goes from 1,400 pages to about 70, and every February incident "
            "still pages. The volume was not thresholds: since OPS-877 the dedup key contained the event timestamp "
            "(and lb-healthd adds a #g suffix per flap), so nothing was ever grouped; plus settlement-batch replica "
            "lag, planned CAB changes and the Sydney probe were paging. I fixed those with Kasia, Dev, Priya and "
            "Aisling. I have deliberately NOT raised every threshold by 50%: Aisling confirms card-auth alerts are "
            "bound by MSA Schedule 4 clause 4.3, and +50% would have hidden the 1,020 ms page in PM-2026-004. Are you "
            "OK presenting it on that basis on Friday?")
PARAPHRASES = [
    "Are you happy to take this to the Friday ops review instead of the +50% thresholds?",
    "Can you present the routing fix at Friday's review, given it doesn't raise thresholds?",
    "Pages are down from 61 to 3 a night without touching thresholds. OK to present that on Friday?",
]


@pytest.mark.parametrize("variant", ["base", "sample:8623", "sample:7046"])
@pytest.mark.parametrize("message", [PLAYTEST, *PARAPHRASES])
def test_the_sponsor_answers_about_his_own_review(variant, message):
    res = people_of("pager_fatigue", variant).contact("graham_tulloch", message)
    assert "signoff" in res.tags, res.reply
