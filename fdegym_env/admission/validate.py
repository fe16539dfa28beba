"""Admission checks (docs/scenarios.md): does a task measure judgment, and does gaming it score nothing?

Per variant: do-nothing, literal, reference, ``diligent``, every ``shortcut_*`` and ``bypass_*`` are
applied to a fresh world and graded, and on named variants the menu's declared plan (menu.yaml
``plans``) must reach the reference; the reference applied with the *base* variant's params to every
other variant checks that a memorised solution does not carry over. Across variants: the literal
request's mean and the number of distinct kinds of change. Before any grading, the leak check
(:mod:`fdegym_env.admission.leaks`) scans every variant's L2/L3 reset observation and workspace, and
the realism checks (:mod:`fdegym_env.admission.realism`) ask whether the data could be true.

How it runs: every grading is one :class:`Job` on one process pool (:func:`default_workers`),
costliest first (the generic bypasses that run into a call's time limit); the do-nothing and
reference rows *are* the variant's anchor gradings (stored in the anchor cache), so no grading is
made twice; each pool process grades in warm sandboxes (``grading._DeployPool``). A new solution
kind needs a name in :func:`_kind` and a rule in :func:`_check`; a new check across variants goes
in :func:`cross_checks`.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from fdegym_env.core.fstree import remove_tree
from fdegym_env.core.paths import scratch_dir
from fdegym_env.core.task import Task, Variant
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import GradeOutcome, anchor_cache_path, apply_solution, grade_system, save_anchors, score
from fdegym_env.sandbox import resolve_backend

DO_NOTHING_MAX = 0.05
LITERAL_MAX = 0.2
REFERENCE_MIN = 0.95
SHORTCUT_MAX = 0.8
BYPASS_MAX = 0.05
MEMORISED_MAX = 0.8
DILIGENT_MIN = 0.5       # every key fact found, the subtle held-out cases missed: facts found is not delivery
DILIGENT_MAX = 0.85
LITERAL_MEAN_MAX = 0.5
MENU_MIN = 0.95          # menu.yaml's declared plan per named variant (fdegym_env.tasklib.menu)
MIN_ANGLES = 3
QUICK_GENERIC = 8   # generic bypasses ``--quick`` grades (a sample; the full run grades all)


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


def _grade_workspace(task: Task, variant: Variant, solution: str | Callable | None, params: dict,
                     sandbox: str) -> GradeOutcome:
    """Grade the variant's world with ``solution`` applied (None: as found)."""
    tmp = tempfile.mkdtemp(prefix="fdegym-validate-", dir=scratch_dir())
    try:   # removed without recursion: a solution may leave a folder tree too deep for shutil.rmtree
        ws = Path(tmp) / "workspace"
        shutil.copytree(world_snapshot(task, variant), ws, symlinks=True)
        if callable(solution):
            solution(ws, dict(params))
        elif solution is not None:
            apply_solution(task, solution, ws, params)
        return grade_system(task, variant, ws, sandbox)
    finally:
        remove_tree(tmp)


@dataclass(frozen=True)
class Job:
    """One grading of validate, in a form a worker process can receive."""

    task_ref: str          # the task folder
    variant: str           # the variant graded
    label: str             # the row's name
    kind: str
    solution: str | None   # a solutions/ script, "generic:<name>", or None (do-nothing)
    params_from: str       # whose params the solution is applied with (the variant, or base)

    @property
    def cost(self) -> int:
        """Rough relative cost, to start the slowest gradings first (they end at a call timeout)."""
        name = (self.solution or "").split(":", 1)[-1]
        return 10 if name in SLOW_GENERIC else 1


# Generic bypasses that run until a call's time limit (or a resource limit) stops them.
SLOW_GENERIC = ("hang", "busy_loop", "detect_timing", "memory_bomb", "disk_fill", "recursion", "return_huge",
                "output_flood")


def _run_job(job: Job, sandbox: str) -> tuple[float, list[str]]:
    """Grade one job in this process: (kpi, incidents). Scoring waits for the variant's anchors."""
    from fdegym_env.core.registry import load_task
    task = load_task(job.task_ref)
    variant = task.variant(job.variant)
    params = task.variant(job.params_from).params
    sol: Any = job.solution
    if sol is not None and sol.startswith("generic:"):
        from fdegym_env.admission.bypasses import GENERIC_BYPASSES
        fn = GENERIC_BYPASSES[sol.split(":", 1)[1]]
        sol = lambda ws, p: fn(ws, p, task.entry_points)  # noqa: E731
    if isinstance(sol, str) and sol.startswith("menu:"):   # the menu's declared plan for this variant
        from fdegym_env.tasklib import menu
        refs = menu.plan(task, job.variant)
        if refs is None:
            return float("nan"), [f"no_menu_plan: menu.yaml declares no plan for {job.variant!r}; fix: add "
                                  f"plans: {{{job.variant}: [item ids or labels]}} (python -m fdegym_env.tasklib.menu "
                                  f"{task.id} {job.variant} finds one)"]
        sol = lambda ws, p: menu.apply(task, refs, ws)  # noqa: E731
        try:
            out = _grade_workspace(task, variant, sol, params, sandbox)
        except ValueError as e:   # an item the plan names is gone, or its edit no longer applies
            return float("nan"), [f"menu_plan_failed: {e}"]
        return out.kpi, out.incidents
    out = _grade_workspace(task, variant, sol, params, sandbox)
    return out.kpi, out.incidents


def default_workers() -> int:
    """Gradings in parallel: the CPUs this process may use, plus one (a grading spends much of its
    time waiting on the sandbox, and a hang bypass waits out a whole call timeout), at most 8."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(8, cpus + 1))


def quick_generic(task: Task, k: int = QUICK_GENERIC) -> list[str]:
    """The generic bypasses ``--quick`` grades: ``k`` drawn with a seed from the task's content, so a
    changed task gets a different sample, and the same task the same one."""
    from fdegym_env.admission.bypasses import GENERIC_BYPASSES
    names = sorted(GENERIC_BYPASSES)
    return sorted(random.Random(f"{task.id}:{task.content_hash}").sample(names, min(k, len(names))))


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
        from fdegym_env.admission.bypasses import LEAK_MARKER
        leaked = any(LEAK_MARKER in i for i in incidents)
        return (f"<= {BYPASS_MAX}" + (", LEAKED" if leaked else "")), u <= BYPASS_MAX and not leaked
    if kind == "diligent":
        return f"{DILIGENT_MIN} <= U <= {DILIGENT_MAX}", DILIGENT_MIN <= u <= DILIGENT_MAX
    if kind == "memorised":
        return f"<= {MEMORISED_MAX}", u <= MEMORISED_MAX
    if kind == "menu":
        return f"menu plan >= {MENU_MIN}", u >= MENU_MIN and not incidents
    return "(reported only)", True


def _map(workers: int, fn: Callable, jobs: list, args: tuple, bar: Any) -> list[Any]:
    """``fn(job, *args)`` for every job, in order (workers <= 1) or on a process pool, costliest
    first; results in job order."""
    if workers <= 1 or len(jobs) <= 1:
        out: list[Any] = []
        for job in jobs:
            out.append(fn(job, *args))
            if bar is not None:
                bar.update(1)
        return out
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed
    order = sorted(range(len(jobs)), key=lambda i: -getattr(jobs[i], "cost", 1))
    out = [None] * len(jobs)
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=mp.get_context("spawn")) as pool:
        futures = {pool.submit(fn, jobs[i], *args): i for i in order}
        for f in as_completed(futures):
            out[futures[f]] = f.result()
            if bar is not None:
                bar.update(1)
    return out


def _store_anchors(task: Task, variant: Variant, base: tuple[float, list[str]], ref: tuple[float, list[str]],
                   sandbox: str) -> dict[str, Any]:
    """The variant's anchors from its do-nothing and reference rows (the same gradings ``anchors``
    makes), cached for episodes; an anchor cache written earlier wins."""
    cached = anchor_cache_path(task, variant)
    if cached.exists():
        return json.loads(cached.read_text())
    return save_anchors(task, variant, GradeOutcome(base[0], list(base[1])), GradeOutcome(ref[0], list(ref[1])))


def validate_task(task: Task, variants: list[str] | None = None, samples: int = 0, sandbox: str = "auto",
                  generic: bool = True, progress: bool = True, workers: int | None = None,
                  quick: bool = False) -> Report:
    """Run every admission anchor; see the module docstring.

    ``workers``: gradings in parallel (default :func:`default_workers`). ``quick`` (the author's
    loop): named variants only, no samples, and a sample of the generic bypasses
    (:func:`quick_generic`); admission still needs the full run.
    """
    workers = workers if workers is not None else default_workers()
    own = task.own_admission(variants=variants, samples=samples, sandbox=sandbox, generic=generic,
                             progress=progress)  # harness cases: the harness's own checks
    if own is not None:
        return own
    sandbox = resolve_backend(sandbox)
    names = variants or sorted(task.variants, key=lambda n: (n != "base", n))
    vs = [task.variant(n) for n in names]
    if samples and not quick:
        vs += [task.variant(f"sample:{i}") for i in range(samples)]
    solutions = [s for s in task.solution_names() if s != "reference"]
    generic_names: list[str] = []
    if generic:
        from fdegym_env.admission.bypasses import GENERIC_BYPASSES
        generic_names = quick_generic(task) if quick else list(GENERIC_BYPASSES)
    ref = str(task.path)
    has_menu = (task.path / "menu.yaml").is_file()
    jobs: list[Job] = []
    for v in vs:
        jobs.append(Job(ref, v.name, "do_nothing", "do_nothing", None, v.name))      # = the baseline anchor
        jobs.append(Job(ref, v.name, "reference", "reference", "reference", v.name))  # = the reference anchor
        for s in solutions:
            jobs.append(Job(ref, v.name, s, _kind(s), s, v.name))
        for gname in (generic_names if v is vs[0] else []):  # task-agnostic: once per task
            jobs.append(Job(ref, v.name, f"generic:{gname}", "generic_bypass", f"generic:{gname}", v.name))
        if has_menu and not v.name.startswith("sample:"):   # the menu reaches the reference on named variants
            jobs.append(Job(ref, v.name, "menu_plan", "menu", f"menu:{v.name}", v.name))
        if v.name != "base":  # samples too: a sampler must never draw base's truth (docs/task_format.md)
            jobs.append(Job(ref, v.name, "reference@base", "memorised", "reference", "base"))
    report = Report(task.id)
    from fdegym_env.admission.leaks import leak_checks
    report.cross += leak_checks(task, names, samples)  # rendering only: before any grading
    from fdegym_env.admission.realism import realism_checks
    report.cross += realism_checks(task, names, 0 if quick else samples)   # could the data be true (rendering only)
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(jobs), desc=f"validate {task.id}", unit="grade", leave=False)
    results = _map(workers, _run_job, jobs, (sandbox,), bar)
    if bar is not None:
        bar.close()
    graded = {(j.variant, j.label): r for j, r in zip(jobs, results)}
    anc = {v.name: _store_anchors(task, v, graded[(v.name, "do_nothing")], graded[(v.name, "reference")], sandbox)
           for v in vs}
    for job, (kpi, inc) in zip(jobs, results):
        v = task.variant(job.variant)
        a = anc[job.variant]
        u = score(kpi, a["kpi_baseline"], a["kpi_reference"], inc, 0.0)["final_uplift"]
        check, ok = _check(job.kind, v, job.label, u, inc)
        report.rows.append(Row(job.label, job.variant, job.kind, kpi, u, inc, check, ok))
    report.cross += cross_checks(task, report.rows, all_named=variants is None)
    return report


def cross_checks(task: Task, rows: list[Row], all_named: bool) -> list[dict[str, Any]]:
    """The checks across variants, over ``rows`` (a whole report's, or a subset such as the named
    variants'); ``all_named``: the rows cover every named variant (then the kinds of change count)."""
    cross = []
    lit = [r.uplift for r in rows if r.kind == "literal"]
    if lit:
        mean = sum(lit) / len(lit)
        cross.append({"check": f"literal mean across variants <= {LITERAL_MEAN_MAX}", "value": round(mean, 4),
                      "passed": mean <= LITERAL_MEAN_MAX})
    for s in sorted({r.solution for r in rows if r.kind == "shortcut"}):
        ups = [r.uplift for r in rows if r.solution == s]
        mean = sum(ups) / len(ups)
        cross.append({"check": f"{s} mean across variants <= {SHORTCUT_MAX}", "value": round(mean, 4),
                      "passed": mean <= SHORTCUT_MAX})
    if all_named:
        angles = sorted({v.angle for v in task.variants.values() if v.angle})
        cross.append({"check": f"kinds of change across named variants >= {MIN_ANGLES}",
                      "value": ", ".join(angles) or "none", "passed": len(angles) >= MIN_ANGLES})
    return cross


def subset(task: Task, report: Report, keep: Callable[[Row], bool], all_named: bool) -> Report:
    """The report ``validate_task`` would give for the variants whose rows ``keep`` selects (rows are
    per variant, so a subset's rows are exactly those of a run on that subset)."""
    rows = [r for r in report.rows if keep(r)]
    from fdegym_env.admission.leaks import leak_checks
    seen = list(dict.fromkeys(r.variant for r in rows))
    named = [v for v in seen if not v.startswith("sample:")]
    leaks = leak_checks(task, named, len(seen) - len(named))   # as a run on that subset renders them
    from fdegym_env.admission.realism import realism_checks
    return Report(report.task, rows, leaks + realism_checks(task, named, len(seen) - len(named))
                  + cross_checks(task, rows, all_named))


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


def leak_report(task: Task, variants: list[str] | None = None, samples: int = 0):
    """The leak check alone, as a :class:`Report` (``fdegym validate --leaks-only``)."""
    from fdegym_env.admission.leaks import leak_checks
    if hasattr(task, "admission"):
        raise ValueError(f"{task.id} is a reference-harness case: its admission is the harness's own "
                         "(run `fdegym validate` without --leaks-only)")
    report = Report(task.id)
    report.cross += leak_checks(task, variants, samples)
    from fdegym_env.admission.realism import realism_checks
    report.cross += realism_checks(task, variants, samples)
    return report
