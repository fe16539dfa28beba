"""line_changeover grader audit: a boundary test for each incident rule and KPI term (DESIGN_NOTES.md lists
where an agent learns each one): allergen cross-contact exactly when a wash-down allergen is dropped
without a wash-down, the day starting clean; a malformed plan; packed cases, purge and wash-down waste,
a run that cannot finish before the end of the day binned, held jobs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.tasklib.replay import OutputSpec

TASK = load_task("line_changeover")
PLANT = TASK.module("plant")
GRADER = TASK.module("grader")
BASE = dict(TASK.variant("base").params)
CELERY = dict(TASK.variant("celery_wash").params)


def job(jid, product, cases=500, day="Mon"):
    return {"job_id": jid, "day": day, "product": product, "cases": cases}


def evaluate(jobs, plan, params=BASE):
    """plan: {job_id: (line, seq, wash_before)} -> the grader's result for one week."""
    decisions = {k: {"line": ln, "seq": s, "wash_before": w} for k, (ln, s, w) in plan.items()}
    return GRADER.evaluate(lambda batch: SimpleNamespace(decisions=decisions), params,
                           {"weeks": [{"week": "w", "jobs": jobs}]})


@pytest.mark.parametrize("prev, nxt, needed", [
    ("HUM-CLS", "SAL-TOM", True),        # sesame dropped
    ("SAT-PNT", "SWP-HAR", True),        # peanuts dropped
    ("PES-CSH", "TZK-CLS", True),        # tree nuts dropped, milk kept
    ("TZK-CLS", "HUM-CLS", False),       # milk dropped: the flavour-change clean is validated
    ("HON-MUS", "SAL-TOM", False),       # mustard and eggs dropped: validated
    ("SAL-CHP", "GUA-CHK", False),       # celery dropped: validated in base
    ("SAL-TOM", "HUM-CLS", False),       # an allergen added
    ("HUM-CLS", "HUM-MOR", False),       # sesame kept
    (None, "SAL-TOM", False),            # the day starts clean
])
def test_wash_down_needed_exactly_when_a_wash_down_allergen_is_dropped(prev, nxt, needed):
    assert PLANT.wash_needed(prev, nxt, BASE) is needed


def test_a_variant_rule_moves_the_boundary():
    assert not PLANT.wash_needed("SAL-CHP", "GUA-CHK", BASE)
    assert PLANT.wash_needed("SAL-CHP", "GUA-CHK", CELERY)
    assert PLANT.wash_needed("BLU-CHS", "TZK-CLS", TASK.variant("egg_wash").params)


def test_cross_contact_incident_at_the_boundary():
    jobs = [job("A", "HUM-CLS"), job("B", "SAL-TOM"), job("C", "TZK-CLS"), job("D", "GUA-CHK")]
    # L1: houmous then salsa without a wash (incident); L2: tzatziki then guacamole (milk: no incident)
    out = evaluate(jobs, {"A": ("L1", 1, False), "B": ("L1", 2, False), "C": ("L2", 1, False), "D": ("L2", 2, False)})
    assert [i.split(":")[0] for i in out["incidents"]] == ["allergen_cross_contact"]
    assert "1 run(s)" in out["incidents"][0] and "B SAL-TOM after HUM-CLS on L1" in out["incidents"][0]
    out = evaluate(jobs, {"A": ("L1", 1, False), "B": ("L1", 2, True), "C": ("L2", 1, False), "D": ("L2", 2, False)})
    assert out["incidents"] == []


def test_each_day_starts_clean():
    jobs = [job("A", "HUM-CLS", day="Mon"), job("B", "SAL-TOM", day="Tue")]
    out = evaluate(jobs, {"A": ("L1", 1, False), "B": ("L1", 1, False)})
    assert out["incidents"] == []


def test_malformed_plan_is_declared():
    spec = OutputSpec.of(TASK.raw["entry_points"][0]["output"])
    good, bad = spec.check([{"job_id": "A", "line": "L4", "seq": 1, "wash_before": False},
                            {"job_id": "B", "line": "L1", "seq": "1", "wash_before": False},
                            {"job_id": "D", "line": "hold", "seq": 0, "wash_before": False}], ["A", "B", "C", "D"])
    assert set(good) == {"D"}
    assert len(bad) == 3                                 # a bad line, a bad seq, a job left out


def test_kpi_terms_purge_and_wash_waste():
    # L1 (old filler): smooth->chunky flavour change 55 min, 12 cases purge; wash-down 150 min, 40 cases
    jobs = [job("A", "SWP-HAR", 1000), job("B", "SAL-TOM", 1040), job("C", "HUM-CLS", 520), job("D", "GUA-CHK", 480)]
    out = evaluate(jobs, {"A": ("L1", 1, False), "B": ("L1", 2, False), "C": ("L1", 3, False), "D": ("L1", 4, True)})
    assert out["incidents"] == []
    assert out["details"]["packed_per_week"] == 1000 + 1040 + 520 + 480
    assert out["details"]["waste_per_week"] == 12 + 12 + 40      # two flavour changes, one wash-down
    assert out["kpi"] == 3040 - 64


def test_new_filler_times_are_the_variants():
    assert PLANT.flavour_change("L2", "HUM-CLS", "HUM-RPP", BASE) == (BASE["new_flavour_min"], BASE["new_purge"])
    assert PLANT.flavour_change("L2", "HUM-CLS", "SAL-TOM", BASE) == (BASE["new_swap_min"], BASE["new_purge"])
    assert PLANT.flavour_change("L1", "HUM-CLS", "SAL-TOM", BASE) == (55.0, 12)
    assert PLANT.washdown("L2", BASE) == (BASE["new_wash_min"], BASE["new_wash_waste"])
    line1 = TASK.variant("line1_filler").params
    assert PLANT.flavour_change("L1", "HUM-CLS", "HUM-RPP", line1)[0] == line1["new_flavour_min"]
    assert PLANT.flavour_change("L2", "HUM-CLS", "HUM-RPP", line1) == (40.0, 12)


def test_a_run_that_cannot_finish_is_binned_and_the_crew_goes_on():
    rate = PLANT.PRODUCTS["SWP-HAR"]["rate"]                     # cases an hour
    first = int(rate * 14)                                       # 14 of the 16 hours
    jobs = [job("A", "SWP-HAR", first), job("B", "SAL-TOM", 1500), job("C", "SAL-TOM", 100)]
    out = evaluate(jobs, {"A": ("L1", 1, False), "B": ("L1", 2, False), "C": ("L1", 3, False)})
    assert out["details"]["packed_per_week"] == first + 100      # B would end after 16 h; C still fits
    assert out["details"]["waste_per_week"] == 1500 + 12         # B's mix binned, C's flavour-change purge
    assert out["details"]["short_jobs"] == 1


def test_after_a_skipped_run_the_crew_does_the_wash_down_qa_needs():
    rate = PLANT.PRODUCTS["HUM-CLS"]["rate"]
    jobs = [job("A", "HUM-CLS", int(rate * 12)), job("B", "HUM-RPP", 4000), job("C", "SAL-TOM", 100)]
    # the plan had no wash before C because B (sesame) was to run before it - B is skipped, C follows houmous
    out = evaluate(jobs, {"A": ("L1", 1, False), "B": ("L1", 2, False), "C": ("L1", 3, True)})
    assert out["incidents"] == [] and out["details"]["washes"] == 1
    out = evaluate(jobs, {"A": ("L1", 1, False), "B": ("L1", 2, False), "C": ("L1", 3, False)})
    assert out["incidents"] == [] and out["details"]["washes"] == 1 and out["details"]["packed_per_week"] == int(rate * 12) + 100


def test_the_day_ends_at_the_lines_hours():
    rate = PLANT.PRODUCTS["SWP-HAR"]["rate"]
    exactly = job("A", "SWP-HAR", int(rate * 16))
    assert evaluate([exactly], {"A": ("L1", 1, False)})["details"]["packed_per_week"] == exactly["cases"]
    over = job("A", "SWP-HAR", int(rate * 16) + 1)
    assert evaluate([over], {"A": ("L1", 1, False)})["details"]["packed_per_week"] == 0
    twilight = TASK.variant("twilight_shift").params
    assert PLANT.hours("L2", twilight) == 19 and PLANT.hours("L1", twilight) == 16


def test_held_and_ineligible_jobs():
    jobs = [job("A", "SWP-HAR", 500), job("T", "HUM-CLS-1K", 300)]
    out = evaluate(jobs, {"A": ("hold", 0, False), "T": ("L1", 1, False)})   # tubs only fill on L3
    assert out["details"]["packed_per_week"] == 0 and out["details"]["waste_per_week"] == 0
    assert out["details"]["dropped_jobs"] == 1
    out = evaluate(jobs, {"A": ("L1", 1, False), "T": ("L3", 1, False)})
    assert out["details"]["packed_per_week"] == 800
