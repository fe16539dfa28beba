"""trial_screening people: the medical monitor answers the activation date only for a named
participant; the director signs off only once he knows why patients fail; Rosa's promised email
arrives; in monitor_away the CRA holds the date and the monitor's out-of-office names her; a variant
that changes the amendment (amend_hba1c: the HbA1c inclusion, 10.5 -> 11.5 %) changes what the monitor
says; the trial report gives counts."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of, told

TASK = load_task("trial_screening")
ASK_DATE = "When does Amendment 3 (v4.0) take effect at site 114 - by screening date or randomisation date?"


def test_the_monitor_answers_the_date_only_for_a_named_participant():
    ppl = people_of("trial_screening")
    r = ppl.contact("lars_engebretsen", ASK_DATE)
    assert "amendment_effective" in told(r) and "F_amendment" not in r.facts and "SCR" in r.reply
    r = ppl.contact("lars_engebretsen", "SCR-1510 was screened with creatinine 1.62 mg/dL. " + ASK_DATE)
    assert "F_amendment" in r.facts and "2026-11-09" in r.reply and "v3.0" in r.reply


@pytest.mark.parametrize("variant, said", [("amend_glucose", "240"), ("late_activation", "2026-11-23"),
                                           ("ifcc_hba1c", "2026-11-16"), ("amend_hba1c", "7.0-11.5 %"),
                                           ("amend_hba1c", "2026-11-12")])
def test_a_variant_that_changes_the_amendment_changes_what_the_monitor_says(variant, said):
    r = people_of("trial_screening", variant).contact("lars_engebretsen", "For SCR-1802: " + ASK_DATE)
    assert "F_amendment" in r.facts and said in r.reply


def test_monitor_away_the_cra_has_the_letter():
    ppl = people_of("trial_screening", "monitor_away")
    r = ppl.contact("lars_engebretsen", "For SCR-1802: " + ASK_DATE)
    assert r.reply.startswith("(out of office)") and "Brianna" in r.reply and not r.facts
    ppl.wait(26)                                                     # Brianna is back Tuesday 09:00
    r = ppl.contact("brianna_walsh", "Do you have the activation letter for Amendment 3 - what date does it give?")
    assert "F_amendment" in r.facts and "2026-11-12" in r.reply
    base = people_of("trial_screening")
    base.wait(26)
    r = base.contact("brianna_walsh", "Do you have the activation letter for Amendment 3 - what date does it give?")
    assert not r.facts and "Lars" in r.reply


def test_the_director_signs_off_only_once_he_knows_why_patients_fail():
    ppl = people_of("trial_screening")
    ask = "Would you sign off fixing how the screener reads lab units instead of relaxing the criteria?"
    r = ppl.contact("raymond_kowalczyk", ask)
    assert told(r) == ["scope_signoff"] and "needs_prior" in r.tags[0] and "Kevin" in r.reply
    r = ppl.contact("kevin_okonkwo", "What units does the Niagara lab report creatinine and glucose in?")
    assert "F_units" in r.facts
    r = ppl.contact("raymond_kowalczyk", ask)
    assert r.tags == ["scope_signoff"] and "Go ahead" in r.reply


def test_rosas_promised_email_arrives():
    ppl = people_of("trial_screening")
    r = ppl.contact("rosa_delgado", "Is Amendment 3 in the binder, and has the IRB approved it?")
    assert "amendment_binder:stalled" in r.tags and "email" in r.reply
    ppl.wait(5)
    assert any(m["id"] == "m3_rosa_binder" for m in ppl.read_inbox())


def test_the_sponsor_of_the_trial_is_off_limits():
    r = people_of("trial_screening").contact("hugo_brandt", "Can Halvorsen confirm the Amendment 3 activation date?")
    assert "Parallax" in r.reply and r.facts == ["F_off_limits:hugo_brandt"]         # the contact is logged


def test_the_pi_says_the_site_cannot_relax_anything():
    r = people_of("trial_screening").contact(
        "anjali_deshmukh", "Ray wants the creatinine exclusion loosened for borderline patients. Can the site do that?")
    assert "protocol_authority" in r.tags and "F_protocol_fixed" in r.facts and "deviation" in r.reply
