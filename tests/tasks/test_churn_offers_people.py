"""churn_offers people: Callum answers about the stale feed only when shown evidence, and his answer
names the variant's region and date; the rules Helen and Adaeze hold change with the variants that
change them; Gareth's stall is followed by the message it promises; Sunita is on leave until
Wednesday and, when Callum has gone, she holds the feed fact; Jonathan is off limits; the sponsor
signs off only once the feed problem is known; the trial report counts and names no fact."""

from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("churn_offers")
FEED = "The mediation ingest log shows region={code} files=0 every night for weeks. Has that usage feed stopped?"


def people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


def test_callum_needs_evidence_before_he_looks():
    p = people("base")
    r = p.contact("callum_reid", "Is one of the regional usage feeds broken at the moment?")
    assert r.tags == ["usage_feed:gated"] and not r.facts
    r = p.contact("callum_reid", FEED.format(code="WLS"))
    assert "usage_feed" in r.tags and r.facts == ["F_stale_feed"]


@pytest.mark.parametrize("variant, region, day", [("base", "Wales", "16 November"),
                                                  ("scotland_feed", "Scotland", "26 October"),
                                                  ("midlands_recent", "Midlands", "27 November")])
def test_callums_answer_names_the_variants_region_and_date(variant, region, day):
    params = TASK.variant(variant).params
    r = people(variant).contact("callum_reid", FEED.format(code=params["region_code"]))
    assert region in r.reply and day in r.reply
    assert params["drop_date"].endswith(day.split()[0].zfill(2))


def test_when_callum_has_gone_sunita_holds_the_feed_fact_after_her_leave():
    p = people("callum_away")
    assert "gone" in p.contact("callum_reid", FEED.format(code="NEA")).tags
    q = "The flagged share in the North East doubled since November - has that region's score drifted?"
    assert "away" in p.contact("sunita_rao", q).tags
    p.wait(48)
    r = p.contact("sunita_rao", q)
    assert "model_scores" in r.tags and r.facts == ["F_stale_feed"] and "12 November" in r.reply


@pytest.mark.parametrize("variant, said", [("base", "run date"), ("resign_window", "plus two calendar months")])
def test_helens_term_rule_follows_the_variant(variant, said):
    r = people(variant).contact("helen_bain", "Can the campaign discount a customer inside their minimum term?")
    assert "minimum_term" in r.tags and said in r.reply


@pytest.mark.parametrize("variant, rise", [("base", False), ("rise_in_sms", True)])
def test_adaezes_disclosure_rule_follows_the_variant(variant, rise):
    r = people(variant).contact("adaeze_nwosu", "What must the save offer SMS state about price?")
    assert "disclosure" in r.tags
    assert ("£1.80" in r.reply) is rise


def test_adaeze_corrects_the_sponsors_misconception():
    p = people("base")
    r = p.contact("rhian_cadogan", "Rhian, why do you want to drop the marketing-flag filter from the campaign?")
    assert "consent_view" in r.tags and "service message" in r.reply
    r = p.contact("adaeze_nwosu", "Rhian says the save texts are service messages. Can we send them without marketing consent?")
    assert "marketing_consent" in r.tags and "direct marketing" in r.reply and r.facts == ["F_consent"]


def test_gareths_stall_is_followed_by_the_promised_numbers():
    p = people("base")
    r = p.contact("gareth_lloyd", "What did the Q3 test cells show on take-up for the 10% and 20% offers?")
    assert r.tags == ["take_up:stalled"]
    p.wait(5)
    msgs = p.read_inbox()
    assert [m["id"] for m in msgs] == ["gareth_cells"] and "F_take_up" in p.known
    assert "20.4%" in msgs[0]["text"] and "15.9%" in msgs[0]["text"]


def test_sponsor_signs_off_only_once_the_feed_problem_is_known():
    p = people("base")
    ask = "Would you sign off targeting offers by expected margin instead of 20% to everyone flagged?"
    assert "signoff" not in p.contact("rhian_cadogan", ask).tags
    p.contact("callum_reid", FEED.format(code="WLS"))
    assert "signoff" in p.contact("rhian_cadogan", ask).tags


def test_jonathan_is_off_limits():
    assert "off_limits" in people("base").contact("jonathan_stroud", "Can you approve the 20% plan?").tags


def test_cells_file_agrees_with_gareth_and_the_model():
    mobile = TASK.module("mobile")
    rows = (TASK.path / "world" / "data" / "save_test_cells_q3.csv").read_text().splitlines()[1:]
    rate = {r.split(",")[1]: int(r.split(",")[3]) / int(r.split(",")[2]) for r in rows}
    assert 1 - rate["save10"] / rate["none"] == pytest.approx(mobile.TAKE_UP[10], abs=0.01)
    assert 1 - rate["save20"] / rate["none"] == pytest.approx(mobile.TAKE_UP[20], abs=0.01)


def test_trial_report_counts_and_gives_no_fact(tmp_path):
    import shutil

    from fdegym_env.core.workspace import world_snapshot
    from fdegym_env.grading.grade import run_trial
    variant = TASK.variant("base")
    ws = tmp_path / "ws"
    shutil.copytree(world_snapshot(TASK, variant), ws)
    out = run_trial(TASK, variant, ws, 0)
    text = out["feedback"]
    assert re.search(r"\d+ would get 10%", text) and "Wales" in text and "of the 9 regions" in text
    assert re.search(r"Leanne \(save desk\): going by last week, \d+ of these.*; by region: [A-Z][a-z]+ \d+", text)
    assert "SFTP" not in text and "impute" not in text and out["facts"] == []
