"""Kerry, who owns the opening hours, says whether anything but the two Easter bank holidays shuts the
practice before mid-April (nothing does: the grader's calendar is the rota's hours and the bank
holidays): the round-10 playtester's message and paraphrases."""

from __future__ import annotations

import pytest
from people_of import people_of

PLAYTEST = ("Hi Kerry, I'm updating PortalRouter's opening hours and out-of-hours reply before you go on leave. I plan "
            "to use 08:00-18:30 Mon-Fri UK local time for all three sites, closed weekends and Good Friday 3 Apr / "
            "Easter Monday 6 Apr, and the OOH wording v3 from the policy folder word for word. Are there any other "
            "times between now and mid-April when the practice is closed and the portal isn't read (e.g. "
            "training/protected learning afternoons, a site closing early)?")
PARAPHRASES = [
    "Any protected learning afternoons or training closures coming up before mid-April?",
    "Besides Easter, is the practice shut at any other time in the next few weeks?",
    "Does any of the three sites close early on some days before April is out?",
]


@pytest.mark.parametrize("variant", ["base", "sample:9339", "sample:5750"])
@pytest.mark.parametrize("message", [PLAYTEST, *PARAPHRASES])
def test_kerry_says_nothing_else_shuts_the_practice(variant, message):
    res = people_of("clinic_inbox", variant).contact("kerry_ashdown", message)
    assert "bank_holidays" in res.tags, res.reply
    assert "Nothing else shuts us" in res.reply
