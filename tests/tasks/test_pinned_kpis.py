"""The toolkit migration must not move any task's numbers: every pinned solution's KPI on
every named variant equals the value measured before the migration, to 1e-9, and so does whether it
raised an incident. Regenerate only on purpose: ``python -m tests.tasks.pinned_kpis TASK``."""

from __future__ import annotations

import json
import math

import pytest
from pinned_kpis import DATA, measure, pinned_solutions

from fdegym_env.core.registry import list_tasks, load_task

PINNED = json.loads(DATA.read_text())


@pytest.mark.parametrize("task_id", list_tasks())
def test_pinned_kpis_unchanged(task_id):
    assert task_id in PINNED, f"{task_id}: no pinned KPIs; fix: python -m tests.tasks.pinned_kpis {task_id}"
    task = load_task(task_id)
    want = PINNED[task_id]
    assert sorted(want) == sorted(task.variants), "named variants changed since the pin"
    for v in want:
        assert sorted(want[v]) == sorted(pinned_solutions(task)), f"{v}: the pinned solutions changed"
    got = measure(task_id)
    diffs = [f"{v}/{s}: expected kpi={want[v][s]['kpi']!r} incident={want[v][s]['incident']}, "
             f"got kpi={got[v][s]['kpi']!r} incident={got[v][s]['incident']}"
             for v in want for s in want[v]
             if not math.isclose(got[v][s]["kpi"], want[v][s]["kpi"], rel_tol=0, abs_tol=1e-9)
             or got[v][s]["incident"] != want[v][s]["incident"]]
    assert not diffs, "KPIs moved:\n" + "\n".join(diffs)
