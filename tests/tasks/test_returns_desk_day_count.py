"""returns_desk, from the round-9 playtest (sample:9898): how a window's days are counted (the UK
delivery day is day 0, the last day still counts) appeared only in the trial's "counting the UK
delivery day as day 0"; the grader applies it to the statutory 14 days and to Plus windows. The returns
terms in the workspace state it in the customer's words, and Kayleigh (who knows the terms by heart)
and Priya (the terms' legal owner) say it, in every variant, agreeing with the grader's count."""

from __future__ import annotations

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from tests.tasks.people_of import people_of

TASK = load_task("returns_desk")
SHOP = TASK.module("shop")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:9898", "sample:0", "sample:1"]

KAYLEIGH_14 = [
    "A customer asks to send something back exactly 14 days after the courier delivered it. Before I write the "
    "refusal rule into the returns service: how do you count the days - is the delivery day day 0 or day 1, "
    "is it UK time, and is she still inside her 14?",
    "How do you count the 14 days - is the delivery day day 0 or day 1?",
    "A customer asks to return on day 14 after delivery. Is that still inside?",
    "Does the 14-day count start on the delivery scan date, UK time?",
]
KAYLEIGH_28 = [
    "When exactly does the 28-day window end - does the delivery day count?",
    "Is day 28 after delivery still inside our returns window?",
    "Our website says 28 days from delivery. Is the day it's delivered day 0, so a request on day 28 is still in time?",
]


def _req(delivered: str, requested: str, tier: str = "standard") -> dict:
    return {"delivered_at": delivered, "requested_at": requested, "reason": "changed_mind", "tier": tier}


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_returns_terms_say_how_the_days_are_counted(variant):
    terms = " ".join((world_snapshot(TASK, TASK.variant(variant)) / "docs" / "returns_terms.md").read_text(
        encoding="utf-8").split())
    assert "The day your parcel is delivered (UK time, as on the courier's proof of delivery) is day 0" in terms
    assert "up to the end of day 14" in terms and "up to the end of day 28" in terms
    assert "Loomhouse Plus included, is counted the same way" in terms


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_grader_counts_as_the_terms_say(variant):
    """Day 0 is the UK date of the delivery scan (scans are UTC); the last day of a window is inside."""
    params = TASK.variant(variant).params
    # 22:50 UTC on 1 June is 23:50 BST, still 1 June in the UK; 23:10 UTC is 00:10 on 2 June
    assert SHOP.days(_req("2026-06-01T22:50:00Z", "2026-06-15T10:00:00Z")) == 14
    assert SHOP.days(_req("2026-06-01T23:10:00Z", "2026-06-15T10:00:00Z")) == 13
    assert SHOP.statutory(_req("2026-06-01T12:00:00Z", "2026-06-15T20:00:00Z"))          # day 14: inside
    assert not SHOP.statutory(_req("2026-06-01T12:00:00Z", "2026-06-16T08:00:00Z"))      # day 15: outside
    n = int(params.get("plus_days") or 0)
    if n:
        from datetime import date, timedelta
        last = (date(2026, 3, 2) + timedelta(days=n)).isoformat()
        after = (date(2026, 3, 2) + timedelta(days=n + 1)).isoformat()
        assert SHOP.protected(_req("2026-03-02T12:00:00Z", f"{last}T12:00:00Z", "plus"), params)
        assert not SHOP.protected(_req("2026-03-02T12:00:00Z", f"{after}T12:00:00Z", "plus"), params)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("msg", KAYLEIGH_14, ids=lambda m: m[:40])
def test_kayleigh_says_the_delivery_day_is_day_0(variant, msg):
    r = people_of("returns_desk", variant).contact("kayleigh_dunn", msg)
    assert r.tags == ["refusal_rules"], (r.tags, r.reply)
    assert "UK time, is day 0, so day 14 is still inside" in r.reply


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("msg", KAYLEIGH_28, ids=lambda m: m[:40])
def test_kayleigh_counts_the_28_days_and_plus_windows_the_same_way(variant, msg):
    r = people_of("returns_desk", variant).contact("kayleigh_dunn", msg)
    assert r.tags == ["terms_plus"], (r.tags, r.reply)
    assert "is day 0, and the last day still counts - day 28 is inside, day 29 isn't" in r.reply


@pytest.mark.parametrize("variant", ["base", "plus_members", "plus_spring", "sample:9898"])
def test_priya_counts_every_window_like_the_statutory_one(variant):
    eng = people_of("returns_desk", variant)
    r = eng.contact("priya_chandra", "For the Plus window and our own 28 days, is the delivery day day 0, and "
                                     "does the last day still count?")
    assert r.tags == ["goodwill_terms"], (r.tags, r.reply)
    assert "the UK delivery day is day 0 and the last day is still inside" in r.reply
