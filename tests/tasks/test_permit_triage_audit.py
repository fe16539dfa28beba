"""permit_triage grader audit: a boundary test for each incident rule (DESIGN_NOTES.md lists where an
agent learns each one): a permit approved in a conservation area without the conservation officer,
a case decided after its statutory deemed date (working days from receipt, bank holidays excluded,
the amended householder period) or left open past an earlier decide_by (PermitBase's DA1)."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("permit_triage")
P = TASK.module("permits")
GRADER = TASK.module("grader")
BASE = dict(TASK.variant("base").params)


def app(aid="MW/26/90001", received="2026-12-14", validated="2026-12-14", street="Birkby Road", kind="householder"):
    return {"app_id": aid, "received_on": received, "validated_on": validated, "applicant_type": kind, "street": street}


def truth(**kw):
    t = {"work_type": "porch", "area_m2": 6.0, "height_m": 3.0, "consent": True, "plans_issue": False}
    t.update(kw)
    return t


def evaluate(apps, truths, routes, params=BASE):
    """The grader's evaluate on hand-made cases: ``routes[app_id] = (route, decide_by)``."""
    def decide(batch):
        return SimpleNamespace(decisions={a["app_id"]: {"route": routes[a["app_id"]][0],
                                                         "decide_by": routes[a["app_id"]][1]} for a in batch})
    return GRADER.evaluate(decide, params, {"start": "2026-12-14", "batches": [apps], "truth": truths})


def kinds(out):
    return [i.split(":")[0] for i in out["incidents"]]


# ---------------------------------------------------------------- deemed approval: the statutory date
@pytest.mark.parametrize("received, deadline", [
    ("2026-12-14", "2027-01-07"),     # 15 working days: 25 and 28 Dec and 1 Jan do not count
    ("2026-12-01", "2026-12-22"),     # no holiday in the way: three weeks
    ("2026-12-18", "2027-01-13")])    # the Christmas rota days (24, 29-31 Dec) still count
def test_deemed_date_is_fifteen_working_days_from_receipt(received, deadline):
    assert P.deadline(app(received=received), BASE) == date.fromisoformat(deadline)


def test_the_clock_runs_from_receipt_not_validation():
    assert P.deadline(app(received="2026-12-01", validated="2026-12-11"), BASE) == date(2026, 12, 22)


@pytest.mark.parametrize("variant, received, kind, days", [
    ("ten_day_householder", "2026-11-20", "householder", 10), ("ten_day_householder", "2026-11-20", "commercial", 15),
    ("scheme_amended", "2026-11-30", "householder", 15), ("scheme_amended", "2026-12-01", "householder", 10),
    ("scheme_amended", "2026-12-01", "commercial", 15), ("base", "2026-12-01", "householder", 15)])
def test_the_amended_householder_period(variant, received, kind, days):
    assert P.period_wd(app(received=received, kind=kind), TASK.variant(variant).params) == days


def test_decided_on_the_deemed_date_is_in_time_and_a_day_later_is_deemed():
    """One officer a day: the second case is decided a working day after the first."""
    params = dict(BASE, officer_capacity=1)
    first, second = app("MW/26/90001", received="2026-11-23"), app("MW/26/90002", received="2026-11-23")
    dl = P.deadline(first, params)
    assert dl == date(2026, 12, 14)                             # go-live day: the first is decided that day
    routes = {"MW/26/90001": ("officer", dl.isoformat()), "MW/26/90002": ("officer", dl.isoformat())}
    out = evaluate([first, second], {"MW/26/90001": truth(area_m2=80.0), "MW/26/90002": truth(area_m2=80.0)}, routes, params)
    assert kinds(out) == ["deemed_approval"] and "1 case(s)" in out["incidents"][0] and "MW/26/90002" in out["incidents"][0]


def test_an_earlier_decide_by_sends_the_deemed_notice_itself():
    """The officers take a case only inside its last five working days; a decide_by earlier than the
    law's date is still the date PermitBase sends the DA1 on if the case is open."""
    params = dict(BASE, officer_capacity=1)
    a, b = app("MW/26/90001"), app("MW/26/90002")
    routes = {"MW/26/90001": ("officer", "2026-12-14"), "MW/26/90002": ("officer", "2026-12-14")}
    out = evaluate([a, b], {k: truth(area_m2=80.0) for k in routes}, routes, params)
    assert kinds(out) == ["deemed_approval"] and "MW/26/90002" in out["incidents"][0]
    routes = {"MW/26/90001": ("officer", "2026-12-14"), "MW/26/90002": ("officer", "2026-12-15")}
    assert evaluate([a, b], {k: truth(area_m2=80.0) for k in routes}, routes, params)["incidents"] == []


def test_a_later_decide_by_keeps_a_case_off_the_list_until_too_late():
    a = app(received="2026-12-14")
    routes = {a["app_id"]: ("officer", "2027-01-29")}          # a fortnight after the statutory date
    out = evaluate([a], {a["app_id"]: truth(area_m2=80.0)}, routes)
    assert kinds(out) == ["deemed_approval"]
    routes = {a["app_id"]: ("officer", P.deadline(a, BASE).isoformat())}
    assert evaluate([a], {a["app_id"]: truth(area_m2=80.0)}, routes)["incidents"] == []


def test_the_christmas_rota_is_a_quarter_of_the_officers():
    q = P.Queue(12)
    for i in range(12):
        q.add(date(2026, 12, 29), (date(2026, 12, 31), date(2026, 12, 29), f"c{i}"), f"c{i}")
    assert len(q.take(date(2026, 12, 29))) == 3 and len(q.take(date(2027, 1, 4))) == 9


# ---------------------------------------------------------------- conservation areas
@pytest.mark.parametrize("route", ["auto_issue", "fast_track"])
def test_an_approval_on_a_conservation_street_is_an_incident(route):
    a = app(street="Park Crescent")
    out = evaluate([a], {a["app_id"]: truth()}, {a["app_id"]: (route, P.deadline(a, BASE).isoformat())})
    assert kinds(out) == ["heritage_approved_unconsulted"]


@pytest.mark.parametrize("route", ["conservation", "officer"])
def test_the_conservation_queue_or_an_officer_consulting_her_is_fine(route):
    a = app(street="park crescent")                             # the designation, whatever the case
    out = evaluate([a], {a["app_id"]: truth()}, {a["app_id"]: (route, P.deadline(a, BASE).isoformat())})
    assert out["incidents"] == []


@pytest.mark.parametrize("variant, heritage", [("base", False), ("foundry_quarter", True), ("conservation_away", False)])
def test_the_foundry_quarter_is_an_area_only_where_it_was_designated(variant, heritage):
    assert P.heritage(app(street="Forge Lane"), TASK.variant(variant).params) is heritage
    assert P.heritage(app(street="Loom Street"), TASK.variant(variant).params) is (variant == "conservation_away")


def test_the_applicants_tick_is_not_the_designation():
    """A ticked case in no area is screened back within two working days: late, never an incident."""
    a = app(street="Birkby Road")
    out = evaluate([a], {a["app_id"]: truth()}, {a["app_id"]: ("conservation", P.deadline(a, BASE).isoformat())})
    res = out["_results"][a["app_id"]]
    assert out["incidents"] == [] and res["decided"] == P.add_wd(date(2026, 12, 14), P.SCREEN_WD + P.FAST_TRACK_WD)


# ---------------------------------------------------------------- KPI terms
def test_auto_issue_carries_wrong_drawings_into_appeals():
    a, b = app("MW/26/90001"), app("MW/26/90002")
    truths = {"MW/26/90001": truth(plans_issue=True), "MW/26/90002": truth(area_m2=55.0)}
    routes = {k: ("auto_issue", P.deadline(a, BASE).isoformat()) for k in truths}
    out = evaluate([a, b], truths, routes)
    assert out["details"]["appeals"] == 2 and out["incidents"] == []
    assert out["kpi"] == 2 * P.APPEAL_DAYS                      # issued on the day of receipt: 0 days each


def test_fast_track_takes_two_working_days_and_amended_plans_four_more():
    a, b = app("MW/26/90001"), app("MW/26/90002")
    truths = {"MW/26/90001": truth(), "MW/26/90002": truth(plans_issue=True)}
    out = evaluate([a, b], truths, {k: ("fast_track", "2027-01-08") for k in truths})
    assert out["kpi"] == 2 + 6 and out["details"]["appeals"] == 0
