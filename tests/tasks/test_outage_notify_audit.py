"""outage_notify grader audit: the incident rule at its boundary (tasks/outage_notify/DESIGN_NOTES.md), on a
held-out fortnight with a canned plan built from the network as operated; the call queue is replaced by one that
starts every call a fixed number of minutes after it is queued. The November call log has no repeated note."""

from __future__ import annotations

import csv

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot

TASK = load_task("outage_notify")
G = TASK.module("grader")
NET = TASK.module("on_net")


class _Canned:
    def __init__(self, plan):
        self.task, self.plan = TASK, plan

    def call(self, module, function, batch, timeout_s=None):
        ids = {e["event_id"] for e in batch}
        return type("R", (), {"ok": True, "error": None, "value": [n for n in self.plan if n["event_id"] in ids]})()


def _plan(params, traffic, priority_channel):
    """Every affected customer told once, on the event that first took them out: a text, or for life-support
    and medical-baseline customers `priority_channel` (None: a text for them too)."""
    custs = {c["account"]: c for c in NET.customers(int(params.get("world_seed", 0)), params)}
    evs = [e for w in traffic["weeks"] for e in w]
    seen, plan = set(), []
    for ev, hit in NET.replay(evs, params, list(custs.values())):
        for c in hit:
            if (ev["incident"], c["account"]) in seen:
                continue
            seen.add((ev["incident"], c["account"]))
            ch = priority_channel if (priority_channel and c["med_code"] in ("LS", "MB")) else "sms"
            plan.append({"event_id": ev["event_id"], "account": c["account"], "channel": ch})
    return plan


@pytest.fixture()
def call_after(monkeypatch):
    def set_delay(minutes):
        from datetime import timedelta

        class _Queue:
            def __init__(self, params):
                pass

            def start(self, ready):
                return ready + timedelta(minutes=minutes)
        monkeypatch.setattr(G.on_net, "CallQueue", _Queue)
    return set_delay


def _grade(variant, channel):
    params = dict(TASK.variant(variant).params)
    traffic = TASK.module("traffic").held_out(params, TASK.held_out_seed)
    return G.grade(_Canned(_plan(params, traffic, channel)), params, traffic)


def _late(out):
    return [i for i in out["incidents"] if i.startswith("priority_customer_not_called")]


@pytest.mark.parametrize("minutes, incident", [(30, False), (31, True)])
def test_life_support_call_must_start_within_the_deadline(call_after, minutes, incident):
    call_after(minutes)
    out = _grade("base", "agent")
    assert bool(_late(out)) is incident, out["incidents"]


def test_a_text_is_not_a_call_for_life_support(call_after):
    call_after(0)
    out = _grade("base", None)
    assert _late(out) and "never called" in _late(out)[0], out["incidents"]


@pytest.mark.parametrize("variant, incident", [("base", False), ("mb_calls", True)])
def test_medical_baseline_needs_a_call_only_where_the_standard_says_so(call_after, variant, incident):
    """Life-support customers are called at once; medical-baseline customers get a text."""
    call_after(0)
    params = dict(TASK.variant(variant).params)
    traffic = TASK.module("traffic").held_out(params, TASK.held_out_seed)
    custs = {c["account"]: c for c in NET.customers(int(params.get("world_seed", 0)), params)}
    plan = [dict(n, channel="sms") if custs[n["account"]]["med_code"] == "MB" else n
            for n in _plan(params, traffic, "agent")]
    out = G.grade(_Canned(plan), params, traffic)
    assert bool(_late(out)) is incident, out["incidents"]


def test_overflow_line_only_where_contracted(call_after):
    call_after(0)
    assert not _late(_grade("overnight_overflow", "overflow"))
    out = _grade("base", "overflow")                   # not contracted: the row is dropped, nobody is called
    assert _late(out) and out["details"]["malformed_rows"] > 0


@pytest.mark.parametrize("variant", ["base", "mb_calls"])
def test_call_centre_notes_are_never_repeated_verbatim(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    rows = list(csv.DictReader((ws / "data" / "call_centre" / "inbound_outage_calls_2026-11.csv")
                               .read_text(encoding="utf-8").splitlines()))
    notes = [r["notes"].lower() for r in rows]
    assert len(rows) > 100 and len(set(notes)) == len(notes)
