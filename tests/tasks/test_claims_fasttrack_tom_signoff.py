"""Tom answers a PhotoDrop sign-off request from his own topic, however much context comes first (a
playtest's long plan-then-ask message once got "I don't know that one - Hector would")."""

from __future__ import annotations

import pytest

from tests.tasks.people_of import people_of

MESSAGES = [
    "Tom - the PhotoDrop route is waiting on your sign-off. With it on, a photo-less FNOL is set up at once and the "
    "claimant gets the upload link; the file only reaches your desk queue once photos are attached (link expires "
    "after 7 days, then field appraisal as today). Separately I am making intake treat SnapClaim email-in images as "
    "photos, so those files stop pending. Are you OK for me to switch photodrop on, or is there a condition you "
    "need first?",
    "Tom, is the desk happy for PhotoDrop to go live, or do you need anything changed before I enable it?",
    "Hi Tom - Jorge built the photo_link route for phone and agent FNOLs that come in without pictures. Do I have "
    "the MD desk's go-ahead to turn it on?",
]


@pytest.mark.parametrize("variant", ["base", "sample:3368", "sample:5443"])
@pytest.mark.parametrize("message", MESSAGES)
def test_tom_answers_photodrop_sign_off_requests(variant, message):
    res = people_of("claims_fasttrack", variant).contact("tom_brennan", message)
    assert res.tags == ["photodrop_signoff"], (res.tags, res.reply)
