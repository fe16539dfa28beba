"""loan_prequal people: Marisol (Lending Ops, owner of docs/intake_mapping.md and the extracts) answers what her
own documents make hers.

- intake_mapping.md's open item "LendCompass v3 announced for 'early 2026' - mapping TBD": she says whether v3
  referrals are coming through and in what period their income is, consistent with the variant (v3 is live only
  where LendCompass is the channel that changed; elsewhere every referral is LC-API-v2, annual);
- asked for the shadow day's application-level data, she says herself that the mirror leaves no extract and what
  to replay instead, rather than sending the agent to underwriting, whose script has no records.
"""
from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people import People, make_router

TASK = load_task("loan_prequal")
VARIANTS = sorted(TASK.variants)


def _people(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


def _forms(variant):
    """Which LendCompass form versions the variant's traffic carries (the truth the answer must agree with)."""
    params = dict(TASK.variant(variant).params)
    weeks = TASK.module("traffic").held_out(params, TASK.held_out_seed)["weeks"]
    return {a["form"] for week in weeks for a in week if a.get("channel") == "partner"}


@pytest.mark.parametrize("variant", VARIANTS + ["sample:713"])
def test_marisol_says_where_lendcompass_v3_stands(variant):
    r = _people(variant).contact(
        "marisol_vega", "Your intake mapping doc lists LendCompass v3 as an open item for early 2026. Has the v3 "
        "API gone live - are referrals arriving as v3 yet - and does it state self-employed income yearly or monthly?")
    assert "lendcompass_v3" in r.tags, r.reply
    live = TASK.variant(variant).params["quirk_channel"] == "partner"
    if live:
        assert "monthly" in r.reply and "Feb 2" in r.reply
        assert "F_income_units" in r.facts
    else:
        assert "LC-API-v2" in r.reply and "annual" in r.reply and "Not yet" in r.reply
        assert "F_income_units" not in r.facts


@pytest.mark.parametrize("variant", ["base", "partner_feed"])
def test_the_lendcompass_answer_agrees_with_the_traffic(variant):
    forms = _forms(variant)
    assert forms
    assert ("LC-API-v3" in forms) == (TASK.variant(variant).params["quirk_channel"] == "partner")


@pytest.mark.parametrize("variant", ["base", "partner_feed", "sample:9289"])
def test_marisol_answers_for_shadow_day_records_herself(variant):
    r = _people(variant).contact(
        "marisol_vega", "Could you cut me an extract of the shadow day - each application the new engine saw, "
        "with what it decided and why? I want to look at the self-employed declines row by row.")
    assert r.tags == ["shadow_data"], r.reply
    assert "applications_2026-02.csv" in r.reply


def _shadow_forms(variant):
    params = dict(TASK.variant(variant).params)
    return {a["form"] for day in (0, 1) for a in TASK.module("traffic").shadow(params, day)["weeks"][0]}


@pytest.mark.parametrize("variant", VARIANTS + ["sample:4418", "sample:9289"])
def test_marisol_says_which_form_versions_the_shadow_day_carried(variant):
    """Asked which form versions the mirrored applications came on, the owner of the intake answers it - every
    form value in the shadow traffic, LC-API-v3 as present only where it is - not the channel overview."""
    r = _people(variant).contact(
        "marisol_vega", "Quick one about the shadow run: did the mirrored applications all come in on form versions "
        "I already know from the February extract, or did something newer turn up - a v3 LendCompass referral, "
        "say, or another OLA build?")
    assert r.tags == ["shadow_forms"], r.reply
    forms = _shadow_forms(variant)
    for form in forms:
        assert form in r.reply, (form, r.reply)
    assert ("still no LC-API-v3" in r.reply) == ("LC-API-v3" not in forms), r.reply


def test_denise_answers_a_sent_diff_now_rather_than_promising_a_review_that_never_comes():
    """No inbox message carries a later verdict on a diff, so her reply is the verdict itself."""
    spec = TASK.people_spec(TASK.variant("base"))
    assert not any(m["from"] == "denise_okafor" and "review" in m["text"] and "after_stall" in m for m in spec["inbox"])
    r = _people("base").contact(
        "denise_okafor", "Here is my diff for your review: prequal/income.py now reads the self-employed figure on its "
        "real basis per form version and parses text amounts. No identity fields, config untouched, declines keep "
        "their AA codes. Can it go live?")
    assert r.tags == ["compliance_review"], r.reply
    assert "OK to ship" in r.reply, r.reply
    assert not re.search(r"turn it round|get back to you|come back to you|in a day|take it from here", r.reply), r.reply


@pytest.mark.parametrize("variant", ["base", "tight_appetite", "sample:6048"])
def test_anita_explains_what_outside_appetite_measures(variant):
    """The trial says Anita's team found approvals 'outside appetite on our own numbers': the owner of those numbers
    says what the measure is (DTI on verified income past the committee's max, the score floor) and which policy."""
    params = TASK.variant(variant).params
    r = _people(variant).contact(
        "anita_raghunathan", "After the shadow day your team reported that a few of the engine's approvals were "
        "outside appetite. What was the yardstick there - debt-to-income, score, or expected loss - and on which "
        "income?")
    assert r.tags == ["outside_appetite"], r.reply
    assert params["policy_version"] in r.reply, r.reply
    assert f"{float(params['appetite_dti']):.0%}" in r.reply and "640" in r.reply, r.reply
    assert ("still runs the old 43%" in r.reply) == (float(params["appetite_dti"]) < 0.43), r.reply


def test_denise_answers_a_change_summary_asking_whether_she_objects():
    """Her inbox asks for the diff before it ships; a summary of the change ending 'do you object?' reaches her
    review verdict, not a referral to underwriting."""
    r = _people("sample:6048").contact(
        "denise_okafor", "Per your note, the change to prequal before it ships. 1) income.py parses free-text "
        "amounts such as '$5,100' and '4.8k' instead of reading them as zero. 2) For OLA-2.0 self-employed applicants "
        "the figure is taken as monthly rather than divided by 12. Thresholds, reason codes and identity fields are "
        "untouched; every decline still carries its codes. Do you object to this being deployed?")
    assert r.tags == ["compliance_review"], r.reply
    assert "OK to ship" in r.reply and "no objection" in r.reply, r.reply


@pytest.mark.parametrize("variant", ["base", "underwriter_knows", "sample:6048"])
def test_ken_says_how_prequal_should_treat_stated_self_employed_income(variant):
    """Ken reviews the manual files and the recons: asked whether prequal should haircut or average a stated
    self-employed figure, he answers (the grader's true income is the stated figure on the form's period)."""
    spec = TASK.people_spec(TASK.variant(variant))
    p = People(spec, make_router("semantic", spec["people"]))
    p.wait(30)
    r = p.contact(
        "ken_ostrowski", "Should the engine discount a self-employed applicant's stated income, or average it over "
        "two years, or is the figure they give - turned into a monthly number - what you'd use for prequal?")
    assert r.tags == ["prequal_se_rule"], r.reply
    assert "No haircut" in r.reply and "period the form asked for" in r.reply, r.reply


@pytest.mark.parametrize("variant", VARIANTS + ["sample:5172"])
def test_denises_first_note_is_in_the_inbox_from_the_start(variant):
    """"I hear you're looking at prequal ... send me the diff before it ships" is her opening note: it is there when
    the engagement starts, before any question to her or anyone, not a day later after the agent has written to her."""
    p = _people(variant)
    mine = [m for m in p.read_inbox() if m["from"] == "denise_okafor"]
    assert len(mine) == 1 and "send me the diff before it ships" in mine[0]["text"], mine
    assert all(m["id"] != mine[0]["id"] for m in p.read_inbox() if m["new"])     # read once, not again later
