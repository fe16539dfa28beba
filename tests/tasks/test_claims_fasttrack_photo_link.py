"""Hector, who runs intake, says whether any photo-less FNOL should not get the PhotoDrop link (none:
the simulator sends non-uploaders to the desk after four days with an appraiser): the round-10
playtester's message, which got his PEND_PHOTO story instead, and paraphrases."""

from __future__ import annotations

import pytest
from people_of import people_of

PLAYTEST = ("Hi Hector - Tom has signed off PhotoDrop, so FNOLs with no photos would be set up at once (claim no. + "
            "ack letter) and the claimant texted a SnapClaim upload link, instead of sitting in PEND_PHOTO until the "
            "Friday sweep. From your team's side: is there any kind of photo-less FNOL for which the text link would "
            "not work or should not be sent, and that should still be handled another way?")
PARAPHRASES = [
    "Are there photo-less claims we shouldn't send the upload link to?",
    "Before PhotoDrop goes on: any FNOLs where texting the link would be wrong?",
    "If a claimant never uploads after getting the PhotoDrop link, what happens to the file?",
]


@pytest.mark.parametrize("variant", ["base", "sample:8440", "sample:3253"])
@pytest.mark.parametrize("message", [PLAYTEST, *PARAPHRASES])
def test_hector_says_which_photo_less_fnols_get_the_link(variant, message):
    res = people_of("claims_fasttrack", variant).contact("hector_villanueva", message)
    assert "photo_link_exceptions" in res.tags, res.reply
    assert "None I'd hold back" in res.reply
