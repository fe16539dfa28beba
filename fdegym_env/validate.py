"""Admission checks (SCENARIOS.md): does a task measure judgment, and does gaming it score nothing?

Per variant: do-nothing, literal, reference, ``diligent``, every ``shortcut_*`` and ``bypass_*`` are
applied to a fresh world and graded; the reference applied with the *base* variant's params to every
other variant checks that a memorised solution does not carry over. Across variants: the literal
request's mean and the number of distinct kinds of change. Before any grading, the leak check
(:mod:`fdegym_env.leaks`) scans every variant's L2/L3 reset observation and workspace.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from fdegym_env.grading import anchors, apply_solution, grade_system, score
from fdegym_env.paths import episodes_dir
from fdegym_env.task import Task, Variant
from fdegym_env.workspace import world_snapshot

DO_NOTHING_MAX = 0.05
LITERAL_MAX = 0.2
REFERENCE_MIN = 0.95
SHORTCUT_MAX = 0.8
BYPASS_MAX = 0.05
MEMORISED_MAX = 0.8
DILIGENT_MIN = 0.5       # every key fact found, the subtle held-out cases missed: facts found is not delivery
DILIGENT_MAX = 0.85
LITERAL_MEAN_MAX = 0.5
MIN_ANGLES = 3


@dataclass
class Row:
    solution: str
    variant: str
    kind: str
    kpi: float
    uplift: float
    incidents: list[str]
    check: str
    passed: bool


@dataclass
class Report:
    task: str
    rows: list[Row] = field(default_factory=list)
    cross: list[dict[str, Any]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.rows) and all(c["passed"] for c in self.cross)

    @property
    def failures(self) -> list[str]:
        out = [f"{r.solution} on {r.variant}: uplift {r.uplift:.3f} fails '{r.check}'" for r in self.rows if not r.passed]
        return out + [f"{c['check']}: {c['value']}" for c in self.cross if not c["passed"]]

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "passed": self.passed, "rows": [asdict(r) for r in self.rows],
                "cross": self.cross, "failures": self.failures}


def _kind(name: str) -> str:
    if name in ("reference", "literal", "do_nothing", "diligent"):
        return name
    for k in ("shortcut", "bypass"):
        if name.startswith(k + "_"):
            return k
    return "other"


def _grade_solution(task: Task, variant: Variant, solution: str | Callable | None, params: dict,
                    sandbox: str) -> tuple[float, float, list[str]]:
    anc = anchors(task, variant, sandbox)
    with tempfile.TemporaryDirectory(prefix="fdegym-validate-", dir=episodes_dir()) as tmp:
        ws = Path(tmp) / "workspace"
        shutil.copytree(world_snapshot(task, variant), ws, symlinks=True)
        if callable(solution):
            solution(ws, dict(params))
        elif solution is not None:
            apply_solution(task, solution, ws, params)
        out = grade_system(task, variant, ws, sandbox)
    s = score(out.kpi, anc["kpi_baseline"], anc["kpi_reference"], out.incidents, 0.0)
    return out.kpi, s["final_uplift"], out.incidents


@dataclass(frozen=True)
class Job:
    """One grading of validate, in a form a worker process can receive."""

    task_ref: str          # the task folder
    variant: str           # the variant graded
    label: str             # the row's name
    kind: str
    solution: str | None   # a solutions/ script, "generic:<name>", or None (do-nothing)
    params_from: str       # whose params the solution is applied with (the variant, or base)


def _run_job(job: Job, sandbox: str) -> tuple[float, float, list[str]]:
    from fdegym_env.registry import load_task
    task = load_task(job.task_ref)
    variant = task.variant(job.variant)
    params = task.variant(job.params_from).params
    sol: Any = job.solution
    if sol is not None and sol.startswith("generic:"):
        from fdegym_env.bypasses import GENERIC_BYPASSES
        fn = GENERIC_BYPASSES[sol.split(":", 1)[1]]
        sol = lambda ws, p: fn(ws, p, task.entry_points)  # noqa: E731
    return _grade_solution(task, variant, sol, params, sandbox)


def _anchor_job(task_ref: str, variant: str, sandbox: str) -> None:
    from fdegym_env.registry import load_task
    task = load_task(task_ref)
    anchors(task, task.variant(variant), sandbox)


def _check(kind: str, variant: Variant, solution: str, u: float, incidents: list[str]) -> tuple[str, bool]:
    if solution in variant.right_here:
        return "right here (no cap)", True
    if kind == "do_nothing":
        return f"|U| < {DO_NOTHING_MAX}", abs(u) < DO_NOTHING_MAX
    if kind == "literal":
        return f"<= {LITERAL_MAX}", u <= LITERAL_MAX
    if kind == "reference":
        return f">= {REFERENCE_MIN}, no incident", u >= REFERENCE_MIN and not incidents
    if kind == "shortcut":
        return f"<= {SHORTCUT_MAX}", u <= SHORTCUT_MAX
    if kind in ("bypass", "generic_bypass"):
        from fdegym_env.bypasses import LEAK_MARKER
        leaked = any(LEAK_MARKER in i for i in incidents)
        return (f"<= {BYPASS_MAX}" + (", LEAKED" if leaked else "")), u <= BYPASS_MAX and not leaked
    if kind == "diligent":
        return f"{DILIGENT_MIN} <= U <= {DILIGENT_MAX}", DILIGENT_MIN <= u <= DILIGENT_MAX
    if kind == "memorised":
        return f"<= {MEMORISED_MAX}", u <= MEMORISED_MAX
    return "(reported only)", True


def _map(workers: int, calls: list[tuple[Callable, tuple]], bar: Any) -> list[Any]:
    """Run calls in order (workers <= 1) or on a process pool; results in call order."""
    if workers <= 1 or len(calls) <= 1:
        out = []
        for fn, args in calls:
            out.append(fn(*args))
            if bar is not None:
                bar.update(1)
        return out
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as pool:
        futures = [pool.submit(fn, *args) for fn, args in calls]
        out = []
        for f in futures:
            out.append(f.result())
            if bar is not None:
                bar.update(1)
        return out


def validate_task(task: Task, variants: list[str] | None = None, samples: int = 0, sandbox: str = "auto",
                  generic: bool = True, progress: bool = True, workers: int | None = None) -> Report:
    """Run every admission anchor; see the module docstring. ``workers``: gradings in parallel
    (default: the number of CPUs, at most 4)."""
    import os
    workers = workers if workers is not None else min(4, os.cpu_count() or 1)
    if hasattr(task, "admission"):  # harness cases: the harness's own checks (fdegym_env.compat.admission)
        return task.admission(variants=variants, samples=samples, sandbox=sandbox, generic=generic,
                              progress=progress)
    names = variants or sorted(task.variants, key=lambda n: (n != "base", n))
    vs = [task.variant(n) for n in names]
    if samples:
        vs += [task.variant(f"sample:{i}") for i in range(samples)]
    solutions = [s for s in task.solution_names() if s != "reference"]
    generic_bypasses = []
    if generic:
        from fdegym_env.bypasses import GENERIC_BYPASSES
        generic_bypasses = list(GENERIC_BYPASSES.items())
    ref = str(task.path)
    jobs: list[Job] = []
    for v in vs:
        jobs.append(Job(ref, v.name, "do_nothing", "do_nothing", None, v.name))
        jobs.append(Job(ref, v.name, "reference", "reference", "reference", v.name))
        for s in solutions:
            jobs.append(Job(ref, v.name, s, _kind(s), s, v.name))
        for gname, _ in (generic_bypasses if v is vs[0] else []):  # task-agnostic: once per task
            jobs.append(Job(ref, v.name, f"generic:{gname}", "generic_bypass", f"generic:{gname}", v.name))
        if v.name != "base":  # samples too: a sampler must never draw base's truth (docs/task_format.md)
            jobs.append(Job(ref, v.name, "reference@base", "memorised", "reference", "base"))
    report = Report(task.id)
    from fdegym_env.leaks import leak_checks
    report.cross += leak_checks(task, names, samples)  # rendering only: before any grading
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(jobs) + len(vs), desc=f"validate {task.id}", unit="grade", leave=False)
    results = _map(workers, [(_anchor_job, (ref, v.name, sandbox)) for v in vs], bar)  # anchors first, cached
    results = _map(workers, [(_run_job, (job, sandbox)) for job in jobs], bar)
    if bar is not None:
        bar.close()
    for job, (kpi, u, inc) in zip(jobs, results):
        v = task.variant(job.variant)
        check, ok = _check(job.kind, v, job.label, u, inc)
        report.rows.append(Row(job.label, job.variant, job.kind, kpi, u, inc, check, ok))
    lit = [r.uplift for r in report.rows if r.kind == "literal"]
    if lit:
        mean = sum(lit) / len(lit)
        report.cross.append({"check": f"literal mean across variants <= {LITERAL_MEAN_MAX}", "value": round(mean, 4),
                             "passed": mean <= LITERAL_MEAN_MAX})
    for s in sorted({r.solution for r in report.rows if r.kind == "shortcut"}):
        ups = [r.uplift for r in report.rows if r.solution == s]
        mean = sum(ups) / len(ups)
        report.cross.append({"check": f"{s} mean across variants <= {SHORTCUT_MAX}", "value": round(mean, 4),
                             "passed": mean <= SHORTCUT_MAX})
    if variants is None:
        angles = sorted({v.angle for v in task.variants.values() if v.angle})
        report.cross.append({"check": f"kinds of change across named variants >= {MIN_ANGLES}",
                             "value": ", ".join(angles) or "none", "passed": len(angles) >= MIN_ANGLES})
    return report


def format_report(report: Report, show_generic: bool = False) -> str:
    lines = [f"{'solution':<30} {'variant':<20} {'kpi':>12} {'uplift':>8}  {'incidents':<28} {'check':<22} ok"]
    generic = [r for r in report.rows if r.kind == "generic_bypass"]
    for r in report.rows:
        if r.kind == "generic_bypass" and not show_generic and r.passed:
            continue
        inc = (r.incidents[0][:26] + ("…" if len(r.incidents) > 1 or len(r.incidents[0]) > 26 else "")) if r.incidents else "-"
        lines.append(f"{r.solution:<30} {r.variant:<20} {r.kpi:>12.4f} {r.uplift:>8.3f}  {inc:<28} {r.check:<22} "
                     f"{'PASS' if r.passed else 'FAIL'}")
    if generic and not show_generic:
        bad = sum(not r.passed for r in generic)
        lines.append(f"generic bypasses: {len(generic)} gradings, {len(generic) - bad} capped, {bad} not capped"
                     + ("" if bad else "  PASS"))
    for c in report.cross:
        lines.append(f"{c['check']:<60} {str(c['value']):<30} {'PASS' if c['passed'] else 'FAIL'}")
    lines.append(f"{report.task}: {'PASS' if report.passed else 'FAIL (' + '; '.join(report.failures[:5]) + ')'}")
    return "\n".join(lines)
