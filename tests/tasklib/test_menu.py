"""menu.yaml plans: every task with a menu declares one per named variant; validate grades it and
a missing or stale plan is a failing row that says what to fix."""

from __future__ import annotations

import math
import shutil

import pytest
import yaml

from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.core.task import Task
from fdegym_env.tasklib import menu
from fdegym_env.admission.validate import Job, _check, _run_job

MENU_TASKS = [t for t in list_tasks() if (load_task(t).path / "menu.yaml").is_file()]


@pytest.mark.parametrize("task_id", MENU_TASKS)
def test_every_named_variant_has_a_plan_of_apply_items(task_id):
    task = load_task(task_id)
    apply_refs = {menu.item_ref(i) for i in menu.apply_items(task)}
    for v in task.variants:
        refs = menu.plan(task, v)
        assert refs, f"{task_id}: menu.yaml has no plan for {v!r}"
        assert set(refs) <= apply_refs, f"{task_id}/{v}: plan names non-apply items {set(refs) - apply_refs}"


def _copy(tmp_path, plans):
    src = load_task("helpdesk_tutorial").path
    folder = tmp_path / "helpdesk_tutorial"
    shutil.copytree(src, folder, ignore=shutil.ignore_patterns("__pycache__"))
    data = yaml.safe_load((folder / "menu.yaml").read_text())
    data["plans"] = plans
    (folder / "menu.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return Task.load(folder)


def test_plan_grades_and_missing_or_stale_plans_fail_with_a_fix(tmp_path):
    task = _copy(tmp_path, {"base": ["fix_r15_field_ops_p2", "tidy_handheld_matching"],
                            "night_pick": ["fix_r15_field_ops_p2", "fix_r15_field_ops_p1"]})
    ref = str(task.path)
    kpi, inc = _run_job(Job(ref, "base", "menu_plan", "menu", "menu:base", "base"), "none")
    assert inc == [] and not math.isnan(kpi)
    kpi, inc = _run_job(Job(ref, "vendor_desk", "menu_plan", "menu", "menu:vendor_desk", "vendor_desk"), "none")
    assert math.isnan(kpi) and inc[0].startswith("no_menu_plan:") and "plans: {vendor_desk:" in inc[0]
    kpi, inc = _run_job(Job(ref, "night_pick", "menu_plan", "menu", "menu:night_pick", "night_pick"), "none")
    assert math.isnan(kpi) and inc[0].startswith("menu_plan_failed:") and "does not occur" in inc[0]
    kpi, inc = _run_job(Job(ref, "base", "generic:return_none", "generic_bypass", "generic:return_none", "base"), "none")
    assert inc and not inc[0].startswith(("no_menu_plan", "menu_plan_failed"))   # other jobs never read plans
    check, ok = _check("menu", task.variant("base"), "menu_plan", 0.9, [])
    assert check == "menu plan >= 0.95" and not ok


def test_plan_item_typo_gets_did_you_mean(tmp_path):
    task = _copy(tmp_path, {"base": ["fix_r15_field_ops_p3"]})
    with pytest.raises(ValueError, match="Did you mean 'fix_r15_field_ops_p"):
        menu.apply(task, menu.plan(task, "base"), tmp_path)
