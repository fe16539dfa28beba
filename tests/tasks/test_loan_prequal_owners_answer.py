"""loan_prequal people answer a clear question in their own area, rather than "I don't have that detail to hand"
with a referral away from themselves (a strong-agent L3 playtest found Jared, who built OLA 2.0, sending the agent
to Marisol when asked what the OLA 2.0 income question asks), and Denise's review verdict never doubts a diff or
summary the message plainly contains ("if you've sent it, thank you").

Every case goes through the engine with the task's default (semantic) router, on the base variant and others.
"""
from __future__ import annotations

import re

import pytest

from tests.tasks.people_of import people_of

TASK = "loan_prequal"
VARIANTS = ["base", "weekly_gig", "partner_feed", "underwriter_knows", "sample:7553"]


def _topic_answer(people, pid: str, tid: str) -> str:
    person = next(p for p in people.spec["people"] if p["id"] == pid)
    return next(t["answer"] for t in person["topics"] if t["id"] == tid)


# The playtest's message (as the playtest report gives it), then paraphrases, short and long.
JARED_ASKED = [
    "Hi Jared — I'm looking at the prequal engine's income handling. Since the Feb 2 relaunch, online applications on "
    "form OLA-2.0 seem to carry much smaller income_amount values than OLA-1.9. What exactly does the OLA 2.0 income "
    "question ask the applicant — annual, monthly, take-home? And is it the same for self-employed applicants?",
    "What does the income question on the new form say?",
    "Did the income question change wording from annual to monthly?",
    "Is the OLA 2.0 income figure annual or monthly?",
    "Jared, quick one before your contract ends: on OLA 2.0, what is the applicant asked for income - yearly, monthly, "
    "take-home pay? I'm trying to understand what lands in income_amount.",
    "Hi Jared, I'm working on prequal's income reading. The income_amount values from OLA-2.0 look much smaller than "
    "from OLA-1.9. Did the income question's wording change with the relaunch, and what period does it ask for now?",
    "How is the income question worded on OLA 2.0 for self-employed applicants?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", JARED_ASKED, ids=[f"q{i}" for i in range(len(JARED_ASKED))])
def test_jared_says_what_the_ola_income_question_asks(variant, message):
    """Jared built OLA 2.0 (his role, blurb and ola_fields topic): he answers what its income question asks, in the
    variant's words (monthly, weekly, unchanged yearly or the paycheck question), and sends nobody elsewhere."""
    p = people_of(TASK, variant)
    r = p.contact("jared_fink", message)
    assert r.tags == ["ola_fields"], (variant, r.reply)
    assert r.reply == _topic_answer(p, "jared_fink", "ola_fields"), r.reply
    assert "to hand" not in r.reply and "would have it" not in r.reply


SENT = [
    "Denise, as you asked, the diff before it ships: prequal/income.py now treats OLA-2.0 self-employed income as "
    "monthly and parses '$4,250'-style text. No identity fields, no thresholds, codes unchanged. Any concerns?",
    "Hi Denise - summary of my change for your review: 1) self-employed income on OLA-2.0 is read as monthly, 2) "
    "free-text amounts are parsed instead of zeroed. Every decline still carries AA codes from the current list. "
    "Can I deploy it?",
    "Here's the change summary: income.py now reads OLA-2.0 self-employed income as monthly. Nothing else. OK to ship?",
]


@pytest.mark.parametrize("variant", ["base", "new_codes", "sample:7553"])
@pytest.mark.parametrize("message", SENT, ids=["diff", "summary", "short"])
def test_denise_signs_off_a_sent_change_without_doubting_she_has_it(variant, message):
    """The message carries the change: her verdict must not read as if she had not seen it."""
    r = people_of(TASK, variant).contact("denise_okafor", message)
    assert r.tags == ["compliance_review"], r.reply
    assert "OK to ship" in r.reply, r.reply
    assert not re.search(r"if you('ve| have)? sent|once you send|when you send", r.reply, re.I), r.reply


@pytest.mark.parametrize(("pid", "message", "topic"), [
    ("denise_okafor", "What does your review of a prequal change involve, and how long does it take?",
     "compliance_review"),
    ("denise_okafor", "What would make you block a prequal change?", "compliance_review"),
    ("tom_brandvold", "If I can lift approvals without touching DTI or FICO, would you sign off on that?",
     "scope_signoff"),
    ("tom_brandvold", "Who signs off on a change to the engine?", "scope_signoff"),
    ("tom_brandvold", "What outcome do you need from this piece of work by the 9th?", "approvals_gap"),
    ("marisol_vega", "Hi Marisol - docs/intake_mapping.md says all income is annual. Is that still true after the "
     "OLA 2.0 relaunch?", "intake_income"),
    ("marisol_vega", "Could you pull me last week's online self-employed applications? Their income_amount values "
     "look far lower than the branch ones - is the online form asking for a monthly figure?", "intake_income"),
])
@pytest.mark.parametrize("variant", ["base", "underwriter_knows", "sample:7553"])
def test_owners_answer_in_their_own_area(variant, pid, message, topic):
    """Questions squarely in a person's own role got "I don't have that detail to hand" (or another topic's
    paragraph); each now gets the owner's answer."""
    r = people_of(TASK, variant).contact(pid, message)
    assert topic in r.tags and not any(t.startswith("dont_know") for t in r.tags), r.reply
