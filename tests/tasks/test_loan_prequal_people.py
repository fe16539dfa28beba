"""loan_prequal people: Marisol (Lending Ops, owner of docs/intake_mapping.md and the extracts) answers what her
own documents make hers.

- intake_mapping.md's open item "LendCompass v3 announced for 'early 2026' - mapping TBD": she says whether v3
  referrals are coming through and in what period their income is, consistent with the variant (v3 is live only
  where LendCompass is the channel that changed; elsewhere every referral is LC-API-v2, annual);
- asked for the shadow day's application-level data, she says herself that the mirror leaves no extract and what
  to replay instead, rather than sending the agent to underwriting, whose script has no records.
"""
from __future__ import annotations

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
