"""billing_dispute: an order form's clauses all name the plan the contract was signed for. The price hold,
the overage allowance and the list-price clause never disagree about the plan, however the account's
plan has moved since (the dev workspace's contract feed and the shadow and held-out cycles alike)."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("billing_dispute")
T = TASK.module("traffic")
PLAN = re.compile(r"\b(Starter|Team|Growth|Scale|Enterprise)\b")
ALLOWANCE = re.compile(r"([\d,]+) credits included in (Starter|Team|Growth|Scale|Enterprise)\b")


def _contracts(params: dict) -> list[tuple[dict, str]]:
    """(contract record, the account's plan at the start of that cycle) for every cycle an agent or the
    grader sees: the dev feed's three months, the first shadow day's and the held-out cycles."""
    cycles = []
    with tempfile.TemporaryDirectory() as tmp:
        T.dev(dict(params), Path(tmp))
        cycles += [json.loads(f.read_text()) for f in sorted((Path(tmp) / "data" / "cycles").glob("*.json"))]
    for traffic in (T.shadow(dict(params), 1), T.held_out(dict(params), TASK.held_out_seed)):
        cycles += [traffic["legacy_cycle"]] + [cyc["input"] for cyc in traffic["cycles"]]
    out = []
    for cyc in cycles:
        plan = {a["account_id"]: a["plan_at_start"] for a in cyc["accounts"]}
        out += [(c, plan[c["account_id"]]) for c in cyc["contracts"]]
    return out


@pytest.mark.parametrize("variant", ["order_form_locks", "sample:3318", "sample:4", "sample:9"])
def test_every_order_form_names_one_plan(variant):
    params = dict(TASK.variant(variant).params)
    assert params["lock_source"] == "order_form"
    moved = 0          # locked order forms whose account is on another plan by now: where clauses went wrong
    for c, now in _contracts(params):
        text = c["order_form_excerpt"]
        assert len(set(PLAN.findall(text))) <= 1, (c["contract_id"], text)
        for n, plan in ALLOWANCE.findall(text):
            assert int(n.replace(",", "")) == T.INCLUDED[plan.lower()], (c["contract_id"], text)
        lock = T.lock_from_text(text)
        moved += bool(lock and lock["plan"] != now and len(PLAN.findall(text)) > 1)
    assert moved, "no locked order form on a moved account with a second plan mention"


NOTICE = re.compile(r"(\d+) days' notice")


@pytest.mark.parametrize("variant", ["order_form_locks", "sample:9742", "sample:3318"])
def test_the_price_book_notice_covers_every_order_forms_notice_period(variant):
    """A playtest (sample:9742) read Beacon Bank's '60 days' notice' against the FAQ's notice of 1 October
    for 1 November and kept the old prices for November; nothing in the grader does. The FAQ's notice
    date must satisfy every notice period an order form states."""
    import datetime as dt
    faq = (TASK.path / "world" / "docs" / "price_increase_2025_faq.md").read_text(encoding="utf-8")
    sent = re.search(r"Notice went out on (\d+ \w+)", faq)
    assert sent, "the FAQ says when the notice went out"
    ahead = (dt.date(2025, 11, 1) - dt.datetime.strptime(sent.group(1) + " 2025", "%d %B %Y").date()).days
    periods = {int(n) for c, _ in _contracts(dict(TASK.variant(variant).params))
               for n in NOTICE.findall(c.get("order_form_excerpt") or "")}
    assert periods and max(periods) <= ahead, (periods, ahead)
