"""KPIs pinned for the toolkit migration: per task, named variant and solution kind.

``python -m tests.tasks.pinned_kpis`` regenerates ``pinned_kpis.json`` from today's code; the test
in ``test_pinned_kpis.py`` grades the same workspaces and compares to 1e-9.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).with_name("pinned_kpis.json")
PINNED_KINDS = ("literal", "reference", "diligent", "shortcut_")


def pinned_solutions(task) -> list[str]:
    """do-nothing plus every solution whose kind is pinned (bypasses are not: they are measured
    against the generic wrappers by validate)."""
    return ["do_nothing"] + [s for s in task.solution_names() if s.startswith(PINNED_KINDS)]


def measure(task_id: str) -> dict[str, dict[str, dict]]:
    """``{variant: {solution: {"kpi": float, "incident": bool}}}`` graded without a sandbox."""
    from fdegym_env.core.paths import scratch_dir
    from fdegym_env.core.registry import load_task
    from fdegym_env.core.workspace import world_snapshot
    from fdegym_env.grading.grade import apply_solution, grade_system
    task = load_task(task_id)
    out: dict[str, dict[str, dict]] = {}
    for vname in task.variants:
        variant = task.variant(vname)
        row = out.setdefault(vname, {})
        for sol in pinned_solutions(task):
            with tempfile.TemporaryDirectory(prefix="fdegym-pin-", dir=scratch_dir()) as tmp:
                ws = Path(tmp) / "workspace"
                shutil.copytree(world_snapshot(task, variant), ws, symlinks=True)
                if sol != "do_nothing":
                    apply_solution(task, sol, ws, variant.params)
                g = grade_system(task, variant, ws, sandbox="none")
            row[sol] = {"kpi": g.kpi, "incident": bool(g.incidents)}
    return out


if __name__ == "__main__":
    from fdegym_env.core.registry import list_tasks
    ids = sys.argv[1:] or list_tasks()
    data = json.loads(DATA.read_text()) if DATA.exists() else {}
    for t in ids:
        data[t] = measure(t)
        print(t, sum(len(v) for v in data[t].values()), "gradings", flush=True)
    DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
