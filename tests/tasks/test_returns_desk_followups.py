"""returns_desk, round-10 playtest: the buyer answers a follow-up about Solveig's outerwear override
(asked right after her sizing answer) instead of recapping the sizing answer, and what she says
agrees with the grader (no outerwear is sold, so the override moves nothing and stays at 26); Shaun,
who owns the inspection trigger, says what the reference does with a flagged customer's occasionwear
after the statutory fourteen days (refused under the terms, unless Plus still covers her) - the
whole gap between a careful delivery and the reference in that playtest."""

from __future__ import annotations

import json

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from tests.tasks.people_of import people_of

TASK = load_task("returns_desk")
SHOP = TASK.module("shop")
GRADER = TASK.module("grader")

FIRST = ("Hi Francesca - returns data since 9 Feb: 133 of 140 Solveig Studio returns are too_small (dresses and "
         "tailoring), comments like \"ordered my usual 12, could barely get it on\". Our size chart maps Solveig EU "
         "label to UK with offset 28 (EU 40 = UK 12), from the SS25 spec, outerwear override 26. What does Solveig's "
         "current (SS26) spec sheet say: which EU size equals UK 10 for dresses and tailoring, and for "
         "outerwear/knitwear/jersey?")
FOLLOW_UP = ("Thanks - so I will set Solveig woven to offset 30 (EU 38 = UK 8). To be exact per category: knitwear "
             "and jersey stay at 28 (their returns are fine), dresses/tailoring/any other woven go to 30. What should "
             "Solveig outerwear be - it is currently overridden to 26 (EU 38 = UK 12); keep 26 or change?")
PARAPHRASES = [
    "keep outerwear at 26 or change?",
    "What about Solveig outerwear - still 26?",
    "Should the Solveig coats stay on their own offset of 26, or go to 30 with the dresses?",
    "Last thing on the chart: Solveig's outerwear line has an override of 26. I'm moving dresses and tailoring to "
    "30 and leaving knitwear and jersey at 28 as you said. Does outerwear stay at 26, or does it need to move with "
    "the woven?",
    "The Solveig entry in size_charts.json says source 'supplier spec SS25' and has outerwear on 26. Is that "
    "override still right for this season's coats?",
]
VARIANTS = ["base", "two_sizes", "nordic_brand", "plus_members", "sample:3567", "sample:1904", "sample:8385"]


def _says_keep_26(reply: str) -> None:
    assert "outerwear at 26" in reply and "override is right" in reply, reply


@pytest.mark.parametrize("variant", ["nordic_brand", "sample:3567", "base", "two_sizes"])
def test_the_outerwear_follow_up_after_the_sizing_answer_is_answered_not_recapped(variant):
    eng = people_of("returns_desk", variant)
    first = eng.contact("francesca_lowe", FIRST)
    assert "brand_sizing" in first.tags, first.tags
    r = eng.contact("francesca_lowe", FOLLOW_UP)
    assert "category_overrides" in r.tags, (r.tags, r.reply)
    assert not r.reply.startswith("As I said"), r.reply
    _says_keep_26(r.reply)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", PARAPHRASES)
def test_the_buyer_answers_the_outerwear_override(variant, message):
    r = people_of("returns_desk", variant).contact("francesca_lowe", message)
    assert r.tags[:1] == ["category_overrides"], (r.tags, r.reply)
    _says_keep_26(r.reply)


def test_the_outerwear_answer_agrees_with_the_grader_and_the_reference():
    """No brand sells outerwear in the graded catalogue, so the override moves no KPI; the workspace
    chart and the reference both keep it at 26."""
    assert not any("outerwear" in cats for _system, _off, cats in SHOP.BRANDS.values())
    for variant in ["base", "nordic_brand"]:
        ws = world_snapshot(TASK, TASK.variant(variant))
        charts = json.loads((ws / "system" / "size_charts.json").read_text(encoding="utf-8"))
        assert charts["brands"]["Solveig Studio"]["categories"]["outerwear"] == 26


# --- after the fourteen days: what the reference does with a flagged customer's occasionwear ----------

def _flagged(day: int, tier: str = "standard") -> dict:
    delivered = "2026-03-02T10:00:00Z"
    requested = SHOP.z(SHOP._dt(delivered) + SHOP.timedelta(days=day))
    return {"rma_id": "RMA-1", "delivered_at": delivered, "requested_at": requested, "reason": "changed_mind",
            "tier": tier, "price": 180.0, "category": "occasionwear", "qc_c_12m": 1}


def test_the_grader_prefers_refusing_worn_flagged_occasionwear_after_the_statutory_period():
    req = _flagged(20)
    worn = {"worn": True, "clv": 30, "kind": "wardrober", "fit": 0}
    assert not SHOP.statutory(req) and not SHOP.protected(req, TASK.variant("base").params)
    assert SHOP.outcome(req, worn, "refuse") < SHOP.outcome(req, worn, "inspect")
    assert SHOP.statutory(_flagged(14))
    assert SHOP.protected(_flagged(20, "plus"), TASK.variant("plus_members").params)


SHAUN = [
    "Hi Shaun - since 9 Feb all 21 grade-C returns were occasionwear (Vesper / Marisa Conti, changed_mind or "
    "doesnt_suit, mostly approved so refund went before you opened the bag). Instead of blocking customers (Legal "
    "says we cannot), I want to route to inspect: (a) every occasionwear return with reason changed_mind/doesnt_suit, "
    "and (b) any return from a customer with qc_c_12m >= 1. That is roughly 4-5 extra inspect RMAs a day on top of "
    "~1/day now. Can the bench absorb that, and is there any rule for how inspect RMAs must be handled that I should "
    "know about?",
    "What should trigger an inspection rather than an approve?",
    "Occasionwear from a customer with an earlier C goes to inspect inside the 14 days. What about the same kind of "
    "return on day 20 - inspect it too?",
    "Is there real abuse in the returns, and what can we do about it?",
]


@pytest.mark.parametrize("variant", ["base", "sample:3567", "plus_members", "warehouse_knows"])
@pytest.mark.parametrize("message", SHAUN)
def test_shaun_says_flagged_occasionwear_is_refused_after_the_fourteen_days(variant, message):
    r = people_of("returns_desk", variant).contact("shaun_whitaker", message)
    assert {"inspection", "worn_returns"} & set(r.tags), (r.tags, r.reply)
    assert "refuse" in r.reply and ("fourteen days" in r.reply or "fortnight" in r.reply), r.reply
    assert "unless the Plus terms still cover her" in r.reply, r.reply
