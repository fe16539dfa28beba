"""Admission: validate passes on every shipped task and names the broken anchor of a broken one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fdegym_env.admission.bypasses import GENERIC_BYPASSES
from fdegym_env.admission.validate import QUICK_GENERIC, format_report, quick_generic, subset, validate_task
from fdegym_env.core.registry import list_tasks, load_task
from tests.conftest import ADMISSION_SAMPLES

ROOT = Path(__file__).resolve().parents[2]
BROKEN = str(ROOT / "tests" / "fixtures" / "broken_task")
TINY = str(ROOT / "tests" / "fixtures" / "tiny_task")


def _admission_params(ids):
    """One xdist group per task: under ``pytest -n`` a task's tests share one worker, so the session
    fixture ``admission`` validates each task once (not once per worker)."""
    return [pytest.param(t, id=t, marks=pytest.mark.xdist_group(f"admission-{t}")) for t in ids]


@pytest.mark.parametrize("task", _admission_params(list_tasks()))
def test_validate_passes_on_named_variants(task, admission):
    loaded = load_task(task)
    report = subset(loaded, admission(task), lambda r: not r.variant.startswith("sample:"), all_named=True)
    assert report.passed, format_report(report)
    assert {r.variant for r in report.rows} == set(loaded.variants)
    kinds = {r.kind for r in report.rows}
    assert {"do_nothing", "literal", "reference", "shortcut", "bypass", "generic_bypass", "memorised"} <= kinds
    assert len([r for r in report.rows if r.kind == "generic_bypass"]) == len(GENERIC_BYPASSES)


@pytest.mark.slow
@pytest.mark.parametrize("task", _admission_params([t for t in list_tasks() if load_task(t).has_sampler]))
def test_validate_passes_on_sampled_variants(task, admission):
    samples = [f"sample:{i}" for i in range(ADMISSION_SAMPLES)]
    report = subset(load_task(task), admission(task), lambda r: r.variant in samples + ["base"]
                    and r.kind != "generic_bypass", all_named=False)
    assert report.passed, format_report(report)
    # every sample is also checked against the solution memorised from base
    assert sorted(r.variant for r in report.rows if r.kind == "memorised") == samples


def test_subset_of_a_report_is_the_report_of_that_subset():
    # what the session-wide admission report stands for: rows are per variant, so a subset's rows and
    # cross checks equal those of a run on the subset (here on the tiny fixture, both computed)
    task = load_task(TINY)
    whole = validate_task(task, generic=False, progress=False, workers=1)
    part = subset(task, whole, lambda r: r.variant == "base", all_named=False)
    alone = validate_task(task, variants=["base"], generic=False, progress=False, workers=1)
    strip = lambda rep: [(r.solution, r.variant, r.kind, r.kpi, round(r.uplift, 9), r.incidents, r.passed)  # noqa: E731
                         for r in rep.rows]
    assert strip(part) == strip(alone) and part.cross == alone.cross
    assert {r.variant for r in whole.rows} == set(task.variants)


def test_quick_grades_named_variants_and_a_stable_sample_of_generic_bypasses():
    task = load_task(TINY)
    chosen = quick_generic(task)
    assert len(chosen) == QUICK_GENERIC and set(chosen) <= set(GENERIC_BYPASSES)
    assert quick_generic(task) == chosen                       # the same task: the same sample
    report = validate_task(task, samples=3, quick=True, progress=False, workers=1)
    assert {r.variant for r in report.rows} == set(task.variants)   # no samples in the quick loop
    assert sorted(r.solution for r in report.rows if r.kind == "generic_bypass") == [f"generic:{g}" for g in chosen]


def test_broken_grader_fails_validate_naming_the_anchor():
    out = subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", "validate", BROKEN, "--variant", "base",
                          "--no-generic", "--json"], capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    assert not report["passed"]
    assert any("bypass_self_report on base" in f and "<= 0.05" in f for f in report["failures"]), report["failures"]


def test_bypass_catalogue_is_documented_and_large_enough():
    doc = (ROOT / "docs" / "bypasses.md").read_text()
    assert len(GENERIC_BYPASSES) >= 30
    for name in GENERIC_BYPASSES:
        assert f"`{name}`" in doc, name


DILIGENT = """import json


def apply(ws, params):
    # every fact found (the threshold moved), the edge of the range misjudged by OFFSET
    (ws / "system" / "app" / "config.json").write_text(json.dumps({"threshold": params["threshold"] + OFFSET}))
"""


@pytest.mark.parametrize("offset,uplift,passed", [(18, 0.655, True), (2, 0.966, False), (35, 0.414, False)],
                         ids=["in_range", "too_good", "too_weak"])
def test_diligent_solution_is_its_own_kind_checked_between_half_and_085(tmp_path, offset, uplift, passed):
    import shutil

    from fdegym_env.admission.validate import DILIGENT_MAX, DILIGENT_MIN
    from fdegym_env.core.task import Task
    from tests.conftest import TINY
    d = tmp_path / "tiny_task"
    shutil.copytree(TINY, d, ignore=shutil.ignore_patterns("__pycache__"))
    (d / "solutions" / "diligent.py").write_text(DILIGENT.replace("OFFSET", str(offset)))
    report = validate_task(Task.load(d), variants=["base"], generic=False, progress=False, workers=1)
    rows = [r for r in report.rows if r.solution == "diligent"]
    assert [(r.kind, r.variant, round(r.uplift, 3), r.check, r.passed) for r in rows] == [
        ("diligent", "base", uplift, f"{DILIGENT_MIN} <= U <= {DILIGENT_MAX}", passed)]
    assert (DILIGENT_MIN, DILIGENT_MAX) == (0.5, 0.85)
    assert report.passed is passed
    table = format_report(report)
    line = next(ln for ln in table.splitlines() if ln.startswith("diligent "))
    assert "base" in line and line.endswith("PASS" if passed else "FAIL")
    if not passed:
        assert f"diligent on base: uplift {uplift:.3f} fails '{DILIGENT_MIN} <= U <= {DILIGENT_MAX}'" in report.failures
