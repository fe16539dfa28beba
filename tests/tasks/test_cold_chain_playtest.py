"""cold_chain findings of the first playtests: with the RP on leave, her deputy Hannah was asked to
sign the coldwatch change off and could only say "I don't know that one" and name the RP, who was away;
rules.json's "change via CAB only" then had no owner anyone would confirm."""

from __future__ import annotations

from tests.tasks.people_of import people_of, told

SOP = "QR-26-2785 was released 'within SOP'. Which revision of QA-SOP-014 was it raised under, and what does it allow above 8 °C?"
SIGN = ("Thanks - that explains it. I plan to count minutes above the limit as readings above it times the logger "
        "interval, and quarantine only past rev 7's 20 minutes. May I update rules.json with your sign-off as deputy RP?")


def test_the_deputy_signs_the_change_off_while_the_rp_is_away():
    ppl = people_of("cold_chain", "qa_on_leave")
    assert "F_sop" in ppl.contact("hannah_brook", SOP).facts
    r = ppl.contact("hannah_brook", SIGN)
    assert told(r) == ["deputy_signoff"] and "I can sign it" in r.reply and "CAB" in r.reply


def test_with_the_rp_in_the_deputy_sends_the_signature_to_her():
    ppl = people_of("cold_chain")
    ppl.contact("anjali_mistry", "Which revision of QA-SOP-014 is in force, and what counts as an excursion?")
    r = ppl.contact("hannah_brook", SIGN)
    assert "deputy_signoff" in told(r) and "Anjali" in r.reply and "RP" in r.reply


def test_the_deputy_signs_nothing_before_the_sop_in_force_is_known():
    r = people_of("cold_chain", "qa_on_leave").contact("hannah_brook", "Can you sign off the coldwatch change as deputy RP?")
    assert told(r) == ["deputy_signoff"] and "not the rev 5" in r.reply


ANJALI = ("Welcome back, Anjali. Hannah gave me QA-SOP-014 rev 7 (in force 1 July): a line is an excursion at more than "
          "20 min cumulative outside its label range, 20 exactly is fine. I've changed the drop check to rev 7 and fixed "
          "the misread master rows. Two questions: (1) below 2C on a 2-8 line - same 20-min cumulative allowance, or is any "
          "reading below 2C an excursion? (2) rules.json says Quality-owned, change via CAB - will you approve this change "
          "to the drop check?")


def test_a_numbered_sign_off_question_gets_the_verdict():
    """The RP back from leave, asked two numbered questions, the second "will you approve this change", restated the
    SOP and gave no verdict; each numbered question asking for a decision now gets the sign-off topic."""
    ppl = people_of("cold_chain", "qa_on_leave")
    ppl.contact("hannah_brook", SOP)
    ppl.wait(80)
    r = ppl.contact("anjali_mistry", ANJALI)
    assert "change_signoff" in told(r) and "I'll sign it" in r.reply
