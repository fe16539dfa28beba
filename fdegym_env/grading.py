"""Deploy a workspace's ``system/`` in the sandbox, replay traffic through it, and score it.

Grading never reads the agent's workspace in place: it copies it, starts a sandbox on the copy and
calls the task's entry points there, one fresh ``python3`` per call, with arguments and results as
JSON on stdin/stdout. A crash, hang or malformed result is an incident, never an exception.

Score (DESIGN §5, paper §2.3):
    U = (kpi - kpi_baseline) / (kpi_reference - kpi_baseline); an incident caps U at 0;
    score = max(-1, U) - contact_cost; resolved = score >= 0.8 and no incident.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
import shutil
import tempfile
import traceback
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fdegym_env.paths import cache_dir, episodes_dir
from fdegym_env.sandbox import make_sandbox
from fdegym_env.task import Task, Variant
from fdegym_env.workspace import SCRATCH_DIR, world_snapshot

log = logging.getLogger(__name__)

RESOLVED_AT = 0.8
CALL_TIMEOUT_S = 10.0
RESULT_CAP = 32 << 20
_MARK = "\x1e\x1eFDEGYM-RESULT\x1e\x1e"
_DRIVER = r"""
import importlib, json, sys, traceback
real = sys.stdout
sys.stdout = sys.stderr
try:
    args = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    sys.path.insert(0, ".")
    fn = getattr(importlib.import_module(sys.argv[1]), sys.argv[2])
    payload = json.dumps({"ok": True, "value": fn(*args)})
except BaseException:
    payload = json.dumps({"ok": False, "error": traceback.format_exc()[-3000:]})
real.write(MARK + payload)
real.flush()
""".replace("MARK", repr(_MARK))


@dataclass
class CallResult:
    ok: bool
    value: Any = None
    error: str | None = None
    stderr: str = ""


class Deployment:
    """The delivered system, deployed in a sandbox on a private copy of a workspace.

    Example:
        >>> res = deploy.call("wire_ingest.pipeline", "process_batch", items, timeout_s=10)  # doctest: +SKIP
        >>> res.ok, res.value  # doctest: +SKIP
    """

    def __init__(self, task: Task, workspace: Path, sandbox: str = "auto"):
        self.task = task
        self._root = Path(tempfile.mkdtemp(prefix="fdegym-deploy-", dir=episodes_dir()))
        self.workspace = self._root / "workspace"
        shutil.copytree(workspace, self.workspace, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", SCRATCH_DIR))
        self.sandbox = make_sandbox(sandbox)
        self.sandbox.start(self.workspace)
        self.failures: list[str] = []
        self.calls = 0
        self.down: str | None = None  # set when a call hangs: production does not come back by itself
        self._allowed = {(e.module, e.function) for e in task.entry_points}

    def call(self, module: str, function: str, *args: Any, timeout_s: float | None = None) -> CallResult:
        if (module, function) not in self._allowed:
            raise ValueError(f"{self.task.id}: grader called {module}.{function}, which is not an entry point in "
                             f"task.yaml (declared: {', '.join(m + '.' + f for m, f in sorted(self._allowed))})")
        self.calls += 1
        timeout_s = float(timeout_s or self.task.raw.get("call_timeout_s", CALL_TIMEOUT_S))
        if self.down:
            return self._fail(f"{module}.{function} (call {self.calls}) not attempted: {self.down}", "")
        try:
            stdin = json.dumps(list(args)).encode("utf-8")
        except TypeError as e:
            raise ValueError(f"{self.task.id}: grader passed non-JSON arguments to {module}.{function}: {e}") from None
        r = self.sandbox.run(["python3", "-c", _DRIVER, module, function], timeout_s=timeout_s, stdin=stdin,
                             cwd="system", cap=RESULT_CAP)
        where = f"{module}.{function} (call {self.calls})"
        if r.timed_out:
            self.down = f"the system hung on an earlier call ({where})"
            return self._fail(f"{where} did not return within {timeout_s:g} s", r.stderr)
        idx = r.stdout.rfind(_MARK)
        if idx < 0:
            return self._fail(f"{where} exited with code {r.exit_code} without a result", r.stderr)
        try:
            payload = json.loads(r.stdout[idx + len(_MARK):])
        except json.JSONDecodeError:
            return self._fail(f"{where} returned output that is not JSON", r.stderr)
        if not payload.get("ok"):
            return self._fail(f"{where} raised: {str(payload.get('error', ''))[-500:]}", r.stderr)
        return CallResult(True, payload.get("value"), None, r.stderr[-2000:])

    def _fail(self, msg: str, stderr: str) -> CallResult:
        self.failures.append(msg)
        return CallResult(False, None, msg, stderr[-2000:])

    def isolation(self) -> str:
        return self.sandbox.isolation()

    def close(self) -> None:
        self.sandbox.close()
        shutil.rmtree(self._root, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@dataclass
class GradeOutcome:
    kpi: float
    incidents: list[str] = field(default_factory=list)
    summary: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    isolation: str = ""


# Grading is a pure function of (task, variant, workspace content) — SCENARIOS.md requires graders
# to be deterministic — so identical deliveries are graded once per process. RL loops deliver the
# same few systems thousands of times. FDEGYM_GRADE_CACHE=0 turns this off.
_GRADE_CACHE: OrderedDict[tuple, GradeOutcome] = OrderedDict()
_GRADE_CACHE_SIZE = 512
_TRAFFIC_CACHE: OrderedDict[tuple, str] = OrderedDict()


def workspace_digest(workspace: Path) -> str:
    """Hash of every file's path and bytes under ``workspace`` (symlinks by their target text), but
    for the env's own scratch folder (saved ``run`` outputs), which grading never copies."""
    h = hashlib.sha256()
    for p in sorted(Path(workspace).rglob("*")):
        if "__pycache__" in p.parts or p.relative_to(workspace).parts[0] == SCRATCH_DIR:
            continue
        rel = p.relative_to(workspace).as_posix().encode()
        if p.is_symlink():
            h.update(b"L" + rel + b"\0" + os.readlink(p).encode() + b"\0")
        elif p.is_file():
            h.update(b"F" + rel + b"\0" + p.read_bytes() + b"\0")
        elif p.is_dir():
            h.update(b"D" + rel + b"\0")
    return h.hexdigest()


def _cache_on(task: Task) -> bool:
    """Tasks whose grading may not be a pure function of the workspace (harness cases with
    services or an LLM gateway) set ``deterministic_grading = False``."""
    return os.environ.get("FDEGYM_GRADE_CACHE", "1") != "0" and getattr(task, "deterministic_grading", True)


def held_out_traffic(task: Task, variant: Variant) -> Any:
    """The held-out traffic for a variant (generated once per process; a fresh copy each call)."""
    key = (task.id, task.content_hash, variant.key)
    blob = _TRAFFIC_CACHE.get(key)
    if blob is None:
        blob = json.dumps(task.module("traffic").held_out(dict(variant.params), task.held_out_seed))
        _TRAFFIC_CACHE[key] = blob
        while len(_TRAFFIC_CACHE) > 16:
            _TRAFFIC_CACHE.popitem(last=False)
    return json.loads(blob)


def grade_system(task: Task, variant: Variant, workspace: Path, sandbox: str = "auto") -> GradeOutcome:
    """Replay the held-out traffic through ``workspace/system`` and measure the kpi."""
    key = (task.id, task.content_hash, variant.key, sandbox, workspace_digest(workspace)) if _cache_on(task) else None
    if key is not None and key in _GRADE_CACHE:
        _GRADE_CACHE.move_to_end(key)
        return copy.deepcopy(_GRADE_CACHE[key])
    outcome = _grade_uncached(task, variant, workspace, sandbox)
    if key is not None:
        _GRADE_CACHE[key] = copy.deepcopy(outcome)
        while len(_GRADE_CACHE) > _GRADE_CACHE_SIZE:
            _GRADE_CACHE.popitem(last=False)
    return outcome


def _grade_uncached(task: Task, variant: Variant, workspace: Path, sandbox: str) -> GradeOutcome:
    traffic = held_out_traffic(task, variant)
    with Deployment(task, workspace, sandbox) as deploy:
        try:
            out = task.module("grader").grade(deploy, dict(variant.params), traffic)
            kpi = float(out["kpi"])
            incidents = [str(i) for i in out.get("incidents") or []]
            summary, details = str(out.get("summary", "")), dict(out.get("details") or {})
        except Exception as e:  # a grader that chokes on what the system returned: an incident
            log.warning("grader of %s raised on delivered output: %s", task.id, e)
            kpi, incidents, summary = float("nan"), [f"grading_failed: {type(e).__name__}: {e}"], ""
            details = {"traceback": traceback.format_exc()[-3000:]}
        incidents += [f"entry_point_failed: {f}" for f in deploy.failures[:5]]
        if len(deploy.failures) > 5:
            incidents.append(f"entry_point_failed: ... and {len(deploy.failures) - 5} more failed calls")
        return GradeOutcome(kpi, incidents, summary, details, deploy.isolation())


_TRIAL_CACHE: OrderedDict[tuple, dict] = OrderedDict()


def run_trial(task: Task, variant: Variant, workspace: Path, day: int, sandbox: str = "auto") -> dict[str, Any]:
    """One trial day of the workspace's system on shadow traffic (``trial.run``), cached like grading."""
    key = (task.id, task.content_hash, variant.key, sandbox, day, workspace_digest(workspace)) if _cache_on(task) else None
    if key is not None and key in _TRIAL_CACHE:
        return copy.deepcopy(_TRIAL_CACHE[key])
    traffic_mod = task.module("traffic")
    traffic = traffic_mod.shadow(dict(variant.params), day) if hasattr(traffic_mod, "shadow") else None
    with Deployment(task, workspace, sandbox) as deploy:
        out = task.module("trial").run(deploy, dict(variant.params), day, traffic)
    if key is not None:
        _TRIAL_CACHE[key] = copy.deepcopy(out)
        while len(_TRIAL_CACHE) > _GRADE_CACHE_SIZE:
            _TRIAL_CACHE.popitem(last=False)
    return out


def apply_solution(task: Task, name: str, workspace: Path, params: dict[str, Any]) -> None:
    """Run ``solutions/<name>.py``'s ``apply(ws, params)`` on a workspace."""
    task.module(f"solutions/{name}").apply(Path(workspace), dict(params))


def anchors(task: Task, variant: Variant, sandbox: str = "auto") -> dict[str, float]:
    """``kpi_baseline`` (the world as found) and ``kpi_reference`` (the reference solution), measured
    with the same grader and cached per task content and variant."""
    if hasattr(task, "anchors"):  # harness cases: their grader reports the anchors (fdegym_env.compat)
        return task.anchors(variant, sandbox)
    path = cache_dir() / "anchors" / f"{task.id}-{task.content_hash}-{variant.key}.json"
    if path.exists():
        return json.loads(path.read_text())
    with tempfile.TemporaryDirectory(prefix="fdegym-anchor-", dir=episodes_dir()) as tmp:
        ws = Path(tmp) / "workspace"
        shutil.copytree(world_snapshot(task, variant), ws, symlinks=True)
        base = grade_system(task, variant, ws, sandbox)
        apply_solution(task, "reference", ws, variant.params)
        ref = grade_system(task, variant, ws, sandbox)
    out = {"kpi_baseline": base.kpi, "kpi_reference": ref.kpi,
           "baseline_incidents": base.incidents, "reference_incidents": ref.incidents}
    if not ref.kpi == ref.kpi or ref.kpi == base.kpi:
        raise RuntimeError(f"{task.id}/{variant.name}: the reference solution scores kpi={ref.kpi} against a "
                           f"baseline of {base.kpi}; the task cannot be normalised (check its reference solution)")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp_path = path.with_suffix(f".{id(out)}.tmp")
    tmp_path.write_text(json.dumps(out))
    tmp_path.replace(path)
    return out


def uplift(kpi: float, kpi_baseline: float, kpi_reference: float) -> float:
    span = kpi_reference - kpi_baseline
    if kpi != kpi:  # NaN: the grader could not measure the system
        return 0.0
    return (kpi - kpi_baseline) / span if span else 0.0


def score(kpi: float, kpi_baseline: float, kpi_reference: float, incidents: list[str],
          contact_cost: float) -> dict[str, Any]:
    """The paper's single-run score (§2.3), with the harness's field names."""
    u = uplift(kpi, kpi_baseline, kpi_reference)
    uplift_bounded = max(-1.0, u)
    capped = min(u, 0.0) if incidents else u
    final_u = max(-1.0, capped)
    total = final_u - contact_cost
    return {"uplift": round(capped, 6), "uplift_bounded": round(uplift_bounded, 6), "final_uplift": final_u,
            "score": total, "uplift_net": round(total, 6),
            "resolved": bool(total >= RESOLVED_AT and not incidents)}
