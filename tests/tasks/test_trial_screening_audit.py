"""trial_screening grader audit: a boundary test for each incident rule and KPI term (DESIGN_NOTES.md
lists where an agent learns each one): every limit inclusive as the protocol writes it, the version
in force fixed by the screening date (the amendment's activation day itself is on v4.0), the repeat
draw is the value that counts, and an ineligible patient marked eligible is the incident."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("trial_screening")
S = TASK.module("screening")
GRADER = TASK.module("grader")
BASE = dict(TASK.variant("base").params)
GLUCOSE = dict(TASK.variant("amend_glucose").params)
HBA1C = dict(TASK.variant("amend_hba1c").params)


def visit(screened="2026-11-03", age=55, bmi=31.0, insulin=False, hba1c=8.0, glu=180.0, creat=1.0, sid="SCR-7001"):
    p = {"screening_id": sid, "screening_date": screened, "age": age, "bmi": bmi, "insulin_90d": insulin,
         "labs": [], "_true": {"HBA1C": hba1c, "GLU": glu, "CREAT": creat}, "_u": 0.9, "_retest": None}
    return p


@pytest.mark.parametrize("field, value, ok", [
    ("age", 18, True), ("age", 75, True), ("age", 76, False), ("age", 17, False),
    ("bmi", 25.0, True), ("bmi", 45.0, True), ("bmi", 45.1, False),
    ("hba1c", 7.0, True), ("hba1c", 6.9, False), ("hba1c", 10.5, True), ("hba1c", 10.6, False),
    ("glu", 270.0, True), ("glu", 271.0, False), ("creat", 1.5, True), ("creat", 1.51, False),
    ("insulin", True, False)])
def test_v3_limits_are_inclusive_as_written(field, value, ok):
    assert S.truly_eligible(visit(**{field: value}), BASE) is ok


@pytest.mark.parametrize("screened, ok", [("2026-11-06", False), ("2026-11-08", False), ("2026-11-09", True),
                                          ("2026-11-20", True)])
def test_the_amendment_applies_from_the_activation_day(screened, ok):
    assert BASE["amend_date"] == "2026-11-09"
    assert S.truly_eligible(visit(screened=screened, creat=1.7), BASE) is ok
    assert S.truly_eligible(visit(screened=screened, creat=1.81), BASE) is False


@pytest.mark.parametrize("screened, glu, ok", [("2026-11-13", 260.0, True), ("2026-11-16", 260.0, False),
                                               ("2026-11-16", 240.0, True), ("2026-11-16", 241.0, False)])
def test_a_tightening_amendment_applies_from_its_day_too(screened, glu, ok):
    assert S.truly_eligible(visit(screened=screened, glu=glu), GLUCOSE) is ok
    assert S.truly_eligible(visit(screened=screened, creat=1.6), GLUCOSE) is False      # creatinine stays at 1.5


@pytest.mark.parametrize("screened, hba1c, ok", [("2026-11-11", 10.6, False), ("2026-11-12", 10.6, True),
                                                 ("2026-11-12", 11.5, True), ("2026-11-12", 11.6, False),
                                                 ("2026-11-12", 6.9, False), ("2026-11-12", 7.0, True)])
def test_an_amendment_to_the_hba1c_inclusion_widens_its_upper_bound_only_from_its_day(screened, hba1c, ok):
    assert HBA1C["amend_date"] == "2026-11-12"
    assert S.truly_eligible(visit(screened=screened, hba1c=hba1c), HBA1C) is ok
    assert S.truly_eligible(visit(screened=screened, creat=1.6), HBA1C) is False        # creatinine stays at 1.5
    assert S.truly_eligible(visit(screened=screened, glu=271.0), HBA1C) is False        # glucose stays at 270


def test_the_repeat_draw_is_the_value_that_counts():
    import random
    pts = S.patients(random.Random(4), BASE, S.date(2026, 11, 2), 28, 400, 7000)
    redrawn = [p for p in pts if p["_retest"]]
    assert redrawn
    for p in redrawn:
        rows = [r for r in p["labs"] if r["analyte"] == p["_retest"]]
        assert len(rows) == 2 and S.latest(p["labs"], p["_retest"]) is max(rows, key=lambda r: r["collected"])


@pytest.mark.parametrize("variant", ["base", "amend_hba1c"])
def test_a_first_hba1c_draw_that_is_redrawn_reads_above_the_limit_of_either_version(variant):
    import random
    params = dict(TASK.variant(variant).params)
    pts = S.patients(random.Random(4), params, S.date(2026, 11, 2), 28, 400, 7000)
    redrawn = [p for p in pts if p["_retest"] == "HBA1C"]
    assert redrawn
    top = 11.5 if variant == "amend_hba1c" else 10.5
    for p in redrawn:
        first = min((r for r in p["labs"] if r["analyte"] == "HBA1C"), key=lambda r: r["collected"])
        assert first["value"] > top


@pytest.mark.parametrize("analyte, true", [("CREAT", 1.45), ("CREAT", 1.55), ("GLU", 266.0), ("GLU", 275.0),
                                           ("HBA1C", 7.1), ("HBA1C", 10.4), ("HBA1C", 10.6)])
def test_si_values_convert_back_to_the_same_side_of_every_limit(analyte, true):
    si = S.to_si(analyte, true)
    si = round(si) if analyte in ("CREAT", "HBA1C") else round(si, 1)
    back = si / 88.4 if analyte == "CREAT" else (si * 18.0 if analyte == "GLU" else si / 10.929 + 2.15)
    for limit in {"CREAT": [1.5, 1.8], "GLU": [240, 270], "HBA1C": [7.0, 10.5]}[analyte]:
        assert (back > limit) == (true > limit)


def _evaluate(pts, decisions, params=BASE):
    for p in pts:
        p["_eligible"] = S.truly_eligible(p, params)
    decide = lambda batch: SimpleNamespace(decisions={b["screening_id"]: {"decision": d}   # noqa: E731
                                                      for b, d in zip(batch, decisions)})
    return GRADER.evaluate(decide, params, {"batches": [pts], "weeks": 1})


def test_ineligible_marked_eligible_is_the_incident():
    ok, bad = visit(sid="SCR-7001", creat=1.5), visit(sid="SCR-7002", creat=1.51)
    out = _evaluate([ok, bad], ["eligible", "eligible"])
    assert [i.split(":")[0] for i in out["incidents"]] == ["ineligible_enrolled"]
    assert "1 patient(s)" in out["incidents"][0] and "SCR-7002" in out["incidents"][0]
    out = _evaluate([ok, bad], ["eligible", "screen_fail"])
    assert out["incidents"] == [] and out["kpi"] == pytest.approx(S.ENROL - S.SCREEN_FAIL_COST)
    out = _evaluate([ok, bad], ["pi_review", "pi_review"])              # the PI catches it: no incident
    assert out["incidents"] == []
    assert out["kpi"] == pytest.approx(2 * -S.REVIEW_COST + S.ENROL - S.SCREEN_FAIL_COST)


def test_a_pi_review_loses_the_patients_who_drop_out_in_the_week():
    stays, drops = visit(sid="SCR-7001"), visit(sid="SCR-7002")
    drops["_u"] = S.REVIEW_DROP - 0.01
    out = _evaluate([stays, drops], ["pi_review", "pi_review"])
    assert out["kpi"] == pytest.approx(S.ENROL - 2 * S.REVIEW_COST)


def test_a_visit_without_a_decision_goes_to_the_pi():
    out = _evaluate([visit()], [])
    assert out["details"]["pi_review"] == 1 and out["incidents"] == []
