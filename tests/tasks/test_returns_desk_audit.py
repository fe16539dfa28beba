"""returns_desk grader audit: a boundary test for each incident rule (DESIGN_NOTES.md lists where an
agent learns each one): the statutory period counted in UK days from the delivery scan, faulty and
not-as-described always protected, the Plus no-quibble window only where the terms give one."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("returns_desk")
SHOP = TASK.module("shop")
GRADER = TASK.module("grader")
BASE = dict(TASK.variant("base").params)
PLUS = dict(TASK.variant("plus_members").params)


def req(rma="RMA-1", delivered="2026-03-02T10:00:00Z", requested="2026-03-16T10:00:00Z", reason="too_small",
        tier="standard"):
    return {"rma_id": rma, "delivered_at": delivered, "requested_at": requested, "reason": reason, "tier": tier,
            "price": 80.0}


@pytest.mark.parametrize("requested, inside", [("2026-03-16T23:59:00Z", True), ("2026-03-17T00:01:00Z", False)])
def test_statutory_period_ends_on_the_fourteenth_uk_day(requested, inside):
    assert SHOP.STATUTORY_DAYS == 14
    assert SHOP.statutory(req(requested=requested)) is inside


def test_uk_day_of_a_late_evening_delivery_after_the_clocks_change():
    # 23:30 UTC on 29 March is 00:30 BST on the 30th: the period counts from the 30th
    r = req(delivered="2026-03-29T23:30:00Z", requested="2026-04-13T12:00:00Z")
    assert SHOP.days(r) == 14 and SHOP.statutory(r)


@pytest.mark.parametrize("reason", ["faulty", "not_as_described"])
def test_faulty_and_not_as_described_are_always_protected(reason):
    assert SHOP.statutory(req(requested="2026-06-30T10:00:00Z", reason=reason))


@pytest.mark.parametrize("variant, days, tier, protected", [
    ("plus_members", 60, "plus", True), ("plus_members", 61, "plus", False),
    ("plus_members", 30, "standard", False), ("base", 20, "plus", False),
    ("plus_spring", 45, "plus", True), ("plus_spring", 46, "plus", False)])
def test_plus_no_quibble_window(variant, days, tier, protected):
    params = TASK.variant(variant).params
    r = req(delivered="2026-03-02T10:00:00Z", tier=tier)
    r["requested_at"] = SHOP.z(SHOP._dt("2026-03-02T10:00:00Z") + SHOP.timedelta(days=days))
    assert SHOP.protected(r, params) is protected


def _evaluate(monkeypatch, reqs, actions, params):
    truth = {r["rma_id"]: {"worn": False, "clv": 100.0, "kind": "regular", "fit": 0} for r in reqs}
    monkeypatch.setattr(SHOP, "shop", lambda *a: (reqs, truth, 0.0, 0))
    sizes = lambda items: SimpleNamespace(decisions={})                                   # noqa: E731
    decide = lambda rs: SimpleNamespace(decisions={r["rma_id"]: {"action": a} for r, a in zip(rs, actions)})  # noqa: E731
    return GRADER.evaluate(sizes, decide, params, {"items": [], "lines": [], "prods": {}})


def test_refusal_incidents_at_the_boundaries(monkeypatch):
    inside = req("RMA-IN", requested="2026-03-16T10:00:00Z")
    outside = req("RMA-OUT", requested="2026-03-17T10:00:00Z")
    out = _evaluate(monkeypatch, [inside, outside], ["refuse", "refuse"], BASE)
    assert [i.split(":")[0] for i in out["incidents"]] == ["statutory_return_refused"]
    assert "1 return(s)" in out["incidents"][0] and "RMA-IN" in out["incidents"][0]
    member = req("RMA-PLUS", requested="2026-04-30T10:00:00Z", tier="plus")           # day 59
    out = _evaluate(monkeypatch, [member], ["refuse"], PLUS)
    assert [i.split(":")[0] for i in out["incidents"]] == ["plus_terms_breached"]
    out = _evaluate(monkeypatch, [member], ["refuse"], BASE)
    assert out["incidents"] == []
    out = _evaluate(monkeypatch, [inside, member], ["inspect", "approve"], PLUS)
    assert out["incidents"] == []
