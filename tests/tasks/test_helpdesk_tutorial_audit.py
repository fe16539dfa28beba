"""helpdesk_tutorial grader audit: each incident rule and the wasted-page KPI term at their boundary
(tasks/helpdesk_tutorial/DESIGN_NOTES.md), on the held-out fortnight with canned router answers."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("helpdesk_tutorial")
BASE = dict(TASK.variant("base").params)


class _Canned:
    def __init__(self, route):
        self.task, self.route = TASK, route

    def call(self, module, function, batch, timeout_s=None):
        return type("R", (), {"ok": True, "error": None, "value": [dict(self.route(t), id=t["id"]) for t in batch]})()


def _day():
    """The held-out fortnight: a shadow day may have no outage in it."""
    return TASK.module("traffic").held_out(BASE, TASK.held_out_seed)


def _owner_route(truth):
    return lambda t: {"queue": truth[t["id"]]["owner"],
                      "priority": "P1" if truth[t["id"]]["kind"] == "outage" else "P3"}


def _kinds(out):
    return sorted({i.split(":")[0] for i in out["incidents"]})


def test_owner_queue_and_outages_paged_raise_nothing():
    traffic = _day()
    assert any(t["kind"] == "outage" for t in traffic["truth"].values()), "the fortnight needs an outage"
    out = TASK.module("grader").grade(_Canned(_owner_route(traffic["truth"])), BASE, traffic)
    assert out["incidents"] == [], out["incidents"]


@pytest.mark.parametrize("queue, priority, incident", [("network", "P1", False), ("network", "P2", True),
                                                       ("service_desk", "P1", True), ("field_ops", "P1", True)])
def test_site_outage_not_paged_unless_network_p1(queue, priority, incident):
    traffic = _day()
    truth, owner = traffic["truth"], _owner_route(traffic["truth"])

    def route(t):
        return {"queue": queue, "priority": priority} if truth[t["id"]]["kind"] == "outage" else owner(t)
    out = TASK.module("grader").grade(_Canned(route), BASE, traffic)
    assert ("site_outage_not_paged" in _kinds(out)) is incident, out["incidents"]


def test_a_ticket_without_a_valid_priority_is_malformed():
    traffic = _day()
    owner = _owner_route(traffic["truth"])
    out = TASK.module("grader").grade(_Canned(lambda t: dict(owner(t), priority="urgent")), BASE, traffic)
    assert "malformed_routing" in _kinds(out), out["incidents"]


@pytest.mark.parametrize("queue_is_owner, p1_ok, wasted", [(True, True, False), (False, True, True),
                                                           (True, False, True)])
def test_a_p1_page_is_wasted_on_the_wrong_team_or_a_fault_that_does_not_justify_it(queue_is_owner, p1_ok, wasted):
    sim = TASK.module("sim")
    truth = {"owner": "network", "p1_ok": p1_ok, "kind": "outage", "users": 40}
    queue = "network" if queue_is_owner else "apps"
    _hours, got = sim.resolve(sim.parse_ts("2026-03-03T10:00:00+00:00"), queue, "P1", truth, {})
    assert got is wasted


def test_trial_report_counts_unpaged_outages():
    traffic = _day()
    truth, owner = traffic["truth"], _owner_route(traffic["truth"])
    n = sum(1 for t in truth.values() if t["kind"] == "outage")

    def route(t):
        return {"queue": "service_desk", "priority": "P2"} if truth[t["id"]]["kind"] == "outage" else owner(t)
    out = TASK.module("trial").run(_Canned(route), BASE, 1, traffic)
    assert out["feedback"].startswith(f"Network on-call: {n} site outage ticket(s)"), out["feedback"]
    assert "fell over" not in out["feedback"]
