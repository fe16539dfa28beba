"""cold_chain grader audit: a boundary test for each incident rule and KPI term (DESIGN_NOTES.md lists
where an agent learns each one): the SOP's cumulative allowance (exactly the allowance is fine, one
reading interval more is an excursion), the peak cap where the SOP has one, the K2 tenths export, and
what each decision costs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("cold_chain")
CC = TASK.module("coldchain")
GRADER = TASK.module("grader")


def params(variant="base"):
    return dict(TASK.variant(variant).params)


def load(temps, code="HAL-INS-GLA", interval=2, logger="T3", lid="L0803-CV01-001", value=100.0):
    return {"load_id": lid, "van": "CV01", "drop_seq": 3, "product_code": code, "qty": 1, "logger": logger,
            "interval_min": interval, "temps": temps, "value_gbp": value}


def over(minutes, interval=2, hot=9.1, cool=5.0):
    """A trace with `minutes` above 8 °C (readings x interval), the rest at a steady 5 °C."""
    return [cool] * 10 + [hot] * (minutes // interval) + [cool] * 10


@pytest.mark.parametrize("variant, window", [("base", 30), ("sop_rev7", 15), ("qa_on_leave", 20), ("peak_cap", 30)])
def test_cumulative_allowance_boundary(variant, window):
    p = params(variant)
    assert p["window_min"] == window
    assert not CC.excursion(load(over(window)), p)             # exactly the allowance: fine
    assert CC.excursion(load(over(window + 2)), p)              # one more reading: an excursion


def test_minutes_are_cumulative_across_door_openings():
    p = params()
    blip = [5.0] * 5 + [9.5] * 2 + [5.0] * 5                     # 4 minutes above 8 at a drop, recovered
    assert not CC.excursion(load(blip * 7), p)                  # 28 minutes in all
    assert CC.excursion(load(blip * 8), p)                      # 32 minutes in all


def test_interval_counts_minutes_not_readings():
    p = params()
    assert not CC.excursion(load([9.0] * 30, interval=1), p)   # 30 readings a minute apart = 30 min
    assert CC.excursion(load([9.0] * 16, interval=2), p)       # 16 readings two minutes apart = 32 min


@pytest.mark.parametrize("peak, exc", [(12.0, False), (12.1, True)])
def test_peak_cap_boundary(peak, exc):
    trace = [5.0] * 10 + [peak] + [5.0] * 10
    assert CC.excursion(load(trace), params("peak_cap")) is exc
    assert not CC.excursion(load(trace), params("base"))       # no cap in base


def test_peak_cap_is_for_fridge_lines_only():
    assert not CC.excursion(load([20.0] * 5 + [24.9], code="HAL-SAL-100"), params("peak_cap"))


@pytest.mark.parametrize("code", ["HAL-QIV-05", "HAL-RZV-01"])
def test_vaccine_allowance_boundary(code):
    p = params("vaccine_window")
    assert p["vaccine_min"] == 10 and p["window_min"] == 30
    assert not CC.excursion(load(over(10), code=code), p)      # exactly Appendix C's ten minutes: fine
    assert CC.excursion(load(over(12), code=code), p)          # one more reading: an excursion
    assert not CC.excursion(load(over(12), code=code), params("base"))   # base: the vaccines get thirty


def test_vaccine_allowance_is_for_the_vaccines_only():
    p = params("vaccine_window")
    assert not CC.excursion(load(over(30), code="HAL-INS-GLA"), p)     # other 2-8 lines keep thirty
    assert CC.excursion(load(over(32), code="HAL-INS-GLA"), p)
    assert not CC.excursion(load([20.0] * 10 + [25.5] * 15, code="HAL-BEC-100"), p)   # ambient: 30 min


def test_ambient_lines_are_held_to_their_label_limit():
    p = params()
    assert CC.true_range("HAL-SAL-100") == (None, 30) and CC.true_range("HAL-BEC-100") == (None, 25)
    assert not CC.excursion(load([22.0] * 100, code="HAL-BEC-100"), p)
    assert CC.excursion(load([25.5] * 16, code="HAL-BEC-100"), p)
    assert not CC.excursion(load([25.5] * 16, code="HAL-SAL-100"), p)


def test_k2_tenths_are_read_as_tenths_only_where_the_variant_says_so():
    k2 = load([52] * 20 + [91] * 16, interval=1, logger="K2")
    assert CC.celsius(k2, params("tenths_loggers"))[0] == 5.2
    assert not CC.excursion(k2, params("tenths_loggers"))      # 16 minutes at 9.1 °C
    assert CC.excursion(load([5.2] * 20 + [9.1] * 32, interval=1, logger="K2"), params("base"))


def test_costs_of_each_decision():
    x = load([5.0], value=200.0)
    assert CC.cost(x, False, "release") == 0.0
    assert CC.cost(x, False, "quarantine") == pytest.approx(CC.QP_REVIEW + CC.REDELIVERY + CC.HELD_LOSS * 200)
    assert CC.cost(x, True, "quarantine") == pytest.approx(200 + CC.QP_REVIEW + CC.REDELIVERY)
    assert CC.cost(x, True, "release") == pytest.approx(200 + CC.RECALL + CC.REDELIVERY)


def _evaluate(loads, actions, p):
    decide = lambda batch: SimpleNamespace(decisions={x["load_id"]: {"action": a}  # noqa: E731
                                                      for x, a in zip(batch, actions) if a})
    return GRADER.evaluate(decide, p, {"days": [{"date": "2026-08-03", "loads": loads}]})


def test_excursion_delivered_incident_at_the_boundary():
    p = params()
    ok = load(over(30), lid="L-OK")
    bad = load(over(32), lid="L-BAD")
    out = _evaluate([ok, bad], ["release", "release"], p)
    assert [i.split(":")[0] for i in out["incidents"]] == ["excursion_delivered"]
    assert "1 load(s)" in out["incidents"][0] and "L-BAD" in out["incidents"][0]
    out = _evaluate([ok, bad], ["release", "quarantine"], p)
    assert out["incidents"] == [] and out["details"]["false_quarantines"] == 0


def test_a_line_without_a_verdict_stays_on_the_van():
    out = _evaluate([load(over(40), lid="L-X")], [None], params())
    assert out["incidents"] == [] and out["details"]["quarantined"] == 1
