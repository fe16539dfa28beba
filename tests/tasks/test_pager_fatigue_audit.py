"""pager_fatigue grader audit: each incident rule at its boundary (tasks/pager_fatigue/DESIGN_NOTES.md), on
a hand-made shift with canned router answers."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("pager_fatigue")
BASE = dict(TASK.variant("base").params)
CONTRACT = "CardAuthLatencyP99High"


class _Canned:
    def __init__(self, acts):
        self.task, self.acts = TASK, acts

    def call(self, module, function, batch, timeout_s=None):
        return type("R", (), {"ok": True, "error": None, "value": {
            "decisions": [{"id": e["id"], "action": self.acts.get(e["id"], "group")} for e in batch["events"]]}})()


def _ev(eid, ts, alert="PgReplicationLagHigh"):
    return {"id": eid, "ts": f"2026-03-03T{ts}Z", "alert": alert, "instance": "i-1", "service": "svc"}


def _grade(acts, sev="sev1", alert="PgReplicationLagHigh", second="02:05:00"):
    events = [_ev("e1", "02:00:00", alert), _ev("e2", second, alert), _ev("noise", "02:30:00", CONTRACT)]
    traffic = {"days": [{"batch": {"shift_start": "2026-03-02T18:00:00Z", "events": events},
                         "truth": {"e1": "INC-1", "e2": "INC-1"}}],
               "incidents": {"INC-1": {"start": "2026-03-03T02:00:00Z", "sev": sev, "alert": alert, "instance": "i-1",
                                       "summary": "replica lag", "kind": "lag_real"}},
               "contract_alerts": [CONTRACT]}
    return TASK.module("grader").grade(_Canned(acts), BASE, traffic)


def _kinds(out):
    return sorted({i.split(":")[0] for i in out["incidents"]})


@pytest.mark.parametrize("second, acts, incident", [
    ("02:05:00", {"e1": "page"}, False),                  # paged at once
    ("02:05:00", {"e2": "page"}, False),                  # first page 5:00 after the first alert: on the SLA
    ("02:05:01", {"e2": "page"}, True),                   # 5:01: late
    ("02:05:00", {"e1": "ticket", "e2": "ticket"}, True),  # ticket only
    ("02:05:00", {}, True),                               # grouped, never paged
])
def test_sev1_not_paged_within_five_minutes(second, acts, incident):
    out = _grade(acts, second=second)
    assert ("sev1_not_paged_5min" in _kinds(out)) is incident, out["incidents"]


@pytest.mark.parametrize("alert, incident", [(CONTRACT, True), ("PgReplicationLagHigh", False)])
def test_a_late_sev2_is_an_incident_only_on_a_contract_alert(alert, incident):
    out = _grade({"e2": "page"}, sev="sev2", alert=alert, second="02:10:00")
    assert ("contract_alert_not_paged_5min" in _kinds(out)) is incident, out["incidents"]
    assert "sev1_not_paged_5min" not in _kinds(out)


@pytest.mark.parametrize("action, incident", [("suppress", True), ("group", False), ("ticket", False)])
def test_any_contract_alert_suppressed_even_noise(action, incident):
    out = _grade({"e1": "page", "noise": action})
    assert ("contract_alert_suppressed" in _kinds(out)) is incident, out["incidents"]


def test_an_unknown_action_rejects_the_shift():
    out = _grade({"e1": "escalate"})
    assert "malformed_output" in _kinds(out), out["incidents"]


def test_night_pages_weigh_three_times_a_day_page():
    g = TASK.module("grader")
    assert [g.hour_weight(g._ts(f"2026-03-03T{h}:00:00Z")) for h in ("22", "23", "06", "07", "09", "19")] == \
        [2.0, 3.0, 3.0, 2.0, 1.0, 2.0]


def test_trial_report_names_no_calendar_day():
    params = dict(BASE)
    traffic = TASK.module("traffic").shadow(params, 1)
    out = TASK.module("trial").run(_Canned({}), params, 1, traffic)
    assert "2026-" not in out["feedback"], out["feedback"]
