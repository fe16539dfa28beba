"""Deploy a workspace's ``system/`` in the sandbox, replay traffic through it, and score it.

Grading never reads the agent's workspace in place: it copies it, starts a sandbox on the copy and
calls the task's entry points there. How each call runs is the task's ``process:`` (task.yaml):

- ``persistent`` (default): one long-lived ``python3`` per deployment, inside the same sandbox,
  forks a fresh child per call that runs the same driver a fresh interpreter would
  (:mod:`fdegym_env.sandbox.worker`); no module state carries over between calls, so results are
  those of ``per_call``, tens of milliseconds sooner per call.
- ``per_call``: a fresh ``python3 -c`` per call, arguments on stdin and the result on stdout.

``FDEGYM_PROCESS=per_call|persistent`` overrides every task's choice (benchmarks, bisecting).
A crash, hang or malformed result is an incident, never an exception; a call that hangs takes the
system down for the rest of the grading, as in production.

Score (docs/design.md, Score and reward, paper §2.3):
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
import stat
import threading
import traceback
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from fdegym_env.core.errors import InfrastructureError
from fdegym_env.core.fstree import TreeTooLarge, copy_tree, remove_tree, walk_tree
from fdegym_env.core.owned import at_exit, holds, make_owned_dir, remove_owned
from fdegym_env.core.paths import cache_dir, scratch_dir
from fdegym_env.core.task import Task, Variant
from fdegym_env.core.workspace import MAX_DELIVERY_BYTES, SCRATCH_DIR, copy_file, world_snapshot
from fdegym_env.sandbox import make_sandbox, resolve_backend
from fdegym_env.sandbox.inside import source, with_values

log = logging.getLogger(__name__)

RESOLVED_AT = 0.8
CALL_TIMEOUT_S = 10.0
RESULT_CAP = 32 << 20
_MARK = "\x1e\x1eFDEGYM-RESULT\x1e\x1e"
_DRIVER = with_values(source("call_driver"), MARK=_MARK)


PROCESS_MODES = ("persistent", "per_call")


def process_mode(task: Task) -> str:
    """How a task's entry-point calls run: ``FDEGYM_PROCESS`` if set, else task.yaml's ``process``."""
    forced = os.environ.get("FDEGYM_PROCESS")
    if forced:
        if forced not in PROCESS_MODES:
            raise ValueError(f"FDEGYM_PROCESS must be one of {', '.join(PROCESS_MODES)}, got {forced!r}")
        return forced
    mode = (getattr(task, "raw", None) or {}).get("process", "persistent")
    if mode not in PROCESS_MODES:
        raise ValueError(f"{task.path}/task.yaml: field 'process' must be one of {', '.join(PROCESS_MODES)}, "
                         f"got {mode!r} (persistent: one worker per deployment, a fresh fork per call; "
                         "per_call: a fresh python3 per call)")
    return mode


class UndeployableDelivery(Exception):
    """The delivered folder cannot be deployed (e.g. it holds more than :data:`MAX_DELIVERY_BYTES`):
    grading reports it as an ``undeployable_delivery`` incident naming the cause, never raises it."""


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
        self._backend = resolve_backend(sandbox)
        src = deployed_source(task, workspace)
        pooled = _POOL.take(self._backend)
        if pooled is not None:   # a warm sandbox of an earlier deployment, emptied: refill its folder
            self._root, self.sandbox = pooled
        else:
            self._root, self.sandbox = make_owned_dir("fdegym-deploy-", scratch_dir()), None
        self.workspace = self._root / "workspace"
        self.workspace.mkdir(exist_ok=True)
        self.not_deployed: list[str] = []   # what the delivered folder held that could not be copied
        if src.is_dir():
            try:
                part = src.relative_to(Path(workspace))
                skipped = _copy_into(src, self.workspace / part, self.sandbox.uid if self.sandbox else None,
                                     _runtime_state(task))
                self.not_deployed = [f"{part.as_posix()}/{s}" if part.parts else s for s in skipped]
            except TreeTooLarge:
                self._discard()
                raise UndeployableDelivery(f"{src.name}/ holds more than {MAX_DELIVERY_BYTES:,} bytes of files; "
                                           "production takes at most that (remove large files from it)") from None
        if self.sandbox is None:
            try:
                self.sandbox = make_sandbox(self._backend)
                self.sandbox.start(self.workspace)
            except BaseException:
                if self.sandbox is not None:
                    self.sandbox.close()
                remove_owned(self._root)
                raise
        self.failures: list[str] = []
        self.calls = 0
        self.down: str | None = None  # set when a call hangs: production does not come back by itself
        self._allowed = {(e.module, e.function) for e in task.entry_points}
        self.process = process_mode(task)

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
        where = f"{module}.{function} (call {self.calls})"
        r = self._run_call(module, function, stdin, timeout_s)
        if r.infra_error:   # lost for a reason of ours, not the delivery's: once more on a fresh sandbox
            log.warning("%s: %s lost its sandbox (%s); retrying on a fresh one", self.task.id, where, r.infra_error)
            r = self._run_call(module, function, stdin, timeout_s)
            if r.infra_error:
                raise InfrastructureError(
                    f"{self.task.id}: {where} could not run because the sandbox failed twice ({r.infra_error}); "
                    "this is fdegym's failure, not the delivery's, and nothing was graded or cached. "
                    "Fix: retry; `fdegym doctor` checks the sandbox")
        return self._judge(r, where, timeout_s)

    def _run_call(self, module: str, function: str, stdin: bytes, timeout_s: float):
        if self.process == "persistent":
            try:
                return self.sandbox.python_call(module, function, stdin, driver=_DRIVER, timeout_s=timeout_s,
                                                cwd="system", hard=RESULT_CAP)
            except NotImplementedError:   # a backend without a grading worker
                self.process = "per_call"
        return self.sandbox.run(["python3", "-c", _DRIVER, module, function], timeout_s=timeout_s, stdin=stdin,
                                cwd="system", cap=RESULT_CAP)

    def _judge(self, r, where: str, timeout_s: float) -> CallResult:
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
        if self.sandbox is None:
            return
        sandbox, self.sandbox = self.sandbox, None
        if not self.down and _POOL.give(self._backend, self._root, sandbox):
            return
        sandbox.close()
        remove_owned(self._root)

    def _discard(self) -> None:
        """Drop a deployment that never started: its folder, and the pooled sandbox it took, if any."""
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
        remove_owned(self._root)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _empty(folder: Path) -> None:
    for p in folder.iterdir():
        if p.is_dir() and not p.is_symlink():
            remove_tree(p)
            if p.exists():
                raise OSError(f"could not empty {p}")
        else:
            p.unlink()


def _copy_into(src: Path, dest: Path, uid: int | None, state: tuple[str, ...] = ()) -> list[str]:
    """Copy the delivered folder as it is: folders, files, symlinks (as links). Pipes, sockets, devices
    and paths too long to make are left out; returns what was left out (``"<path>: <why>"``). Never
    copied: ``__pycache__`` (bytecode of the agent's runs), the env's scratch folder, and what is inside
    the task's runtime-state folders ``state`` (production's own: each arrives empty)."""
    report = copy_tree(src, dest, skip=lambda rel, name: name in ("__pycache__", SCRATCH_DIR) or rel in state,
                       copy_function=copy_file, max_bytes=MAX_DELIVERY_BYTES)
    if uid is not None:
        from fdegym_env.sandbox.executor_sandbox import chown_tree
        chown_tree(dest, uid)
    return report.skipped


class _DeployPool:
    """Idle deployment sandboxes, kept warm for the next deployment of this process.

    Starting a sandbox and its grading worker costs more than a small task's whole grading. When a
    deployment ends normally, its sandbox (nothing runs in it between calls) is emptied — workspace
    folder, ``/tmp``, ``/dev/shm`` — and kept; the next deployment copies its workspace into the same
    folder. A sandbox whose system hung is never reused. ``FDEGYM_DEPLOY_POOL=0`` turns this off.
    """

    SIZE = 2

    def __init__(self) -> None:
        self._idle: dict[str, list[tuple[Path, Any]]] = {}
        self._pid = os.getpid()
        self._lock = threading.Lock()

    def _on(self, backend: str) -> bool:
        return backend in ("bwrap", "docker") and os.environ.get("FDEGYM_DEPLOY_POOL", "1") != "0"

    def take(self, backend: str):
        if not self._on(backend):
            return None
        with self._lock:
            if self._pid != os.getpid():   # a forked copy of this process: those sandboxes are the parent's
                self._idle, self._pid = {}, os.getpid()
            idle = self._idle.get(backend) or []
            while idle:
                root, sandbox = idle.pop()
                if getattr(sandbox, "_running", lambda: True)():
                    return root, sandbox
                sandbox.close()   # died while idle (killed from outside): never deploy into it
                remove_owned(root)
            return None

    def give(self, backend: str, root: Path, sandbox) -> bool:
        if not self._on(backend) or self._pid != os.getpid() or not hasattr(sandbox, "recycle"):
            return False
        with self._lock:
            if len(self._idle.get(backend) or []) >= self.SIZE:
                return False
        if not holds(root):   # only a folder this process made is ever emptied for reuse
            return False
        try:
            _empty(root / "workspace")
            if getattr(sandbox, "uid", None) is not None:
                # the folder is the sandbox's again: what ran on it (a harness case starts sandboxes of its
                # own on the deployed folder) may have handed it to another uid
                os.chown(root / "workspace", sandbox.uid, sandbox.uid)
        except OSError:
            return False
        if not sandbox.recycle():
            return False
        with self._lock:
            self._idle.setdefault(backend, []).append((root, sandbox))
        return True

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, {}
        if self._pid != os.getpid():
            return
        for entries in idle.values():
            for root, sandbox in entries:
                sandbox.close()
                remove_tree(root)


_POOL = _DeployPool()
at_exit(_POOL.close, 10)   # before the process's remaining folders go (SubprocVecEnv workers too)


@dataclass
class GradeOutcome:
    kpi: float
    incidents: list[str] = field(default_factory=list)
    summary: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    isolation: str = ""


# Grading is a pure function of (task, variant, workspace content) — docs/scenarios.md requires graders
# to be deterministic — so identical deliveries are graded once per process. RL loops deliver the
# same few systems thousands of times. FDEGYM_GRADE_CACHE=0 turns this off.
_GRADE_CACHE: OrderedDict[tuple, GradeOutcome] = OrderedDict()
_GRADE_CACHE_SIZE = 512
_TRAFFIC_CACHE: OrderedDict[tuple, Any] = OrderedDict()


def deployed_source(task: Task, workspace: Path) -> Path:
    """What production receives of ``workspace``: its ``system/`` (:attr:`Task.deployed_folder`), or,
    for the reference harness's cases, the whole workspace (their pilots and services read beside it)."""
    part = task.deployed_folder
    return Path(workspace) / part if part else Path(workspace)


def _runtime_state(task: Task) -> tuple[str, ...]:
    """The task's runtime-state folders, relative to what is deployed (they are named under ``system/``)."""
    return task.runtime_state if task.deployed_folder else ()


def deployed_digest(task: Task, workspace: Path) -> str:
    """Hash of what a deployment of ``workspace`` receives: the key of the grade and trial caches, so
    notes or scratch files outside ``system/`` do not re-grade."""
    return workspace_digest(deployed_source(task, workspace), _runtime_state(task))


def workspace_digest(workspace: Path, state: tuple[str, ...] = ()) -> str:
    """Hash of every file's path and bytes under ``workspace`` (symlinks by their target text), but
    for the env's own scratch folder (saved ``run`` outputs), which grading never copies.

    Walked depth first in name order without recursion (a folder thousands of levels deep is fine),
    names hashed as bytes (a name that is not UTF-8 too); special files (pipes, sockets) are not
    deployed and not hashed. On every episode end it runs before the grade cache can answer, so it
    must cost less than the grading. What is inside the folders ``state`` (relative to ``workspace``: a
    task's runtime state, which no deployment receives) is left out too."""
    h = hashlib.sha256()
    root = os.fspath(workspace)
    if not os.path.isdir(root):        # e.g. the agent deleted system/: nothing is deployed
        return h.hexdigest()
    skip = lambda rel, name: name == "__pycache__" or (not rel and name == SCRATCH_DIR) or rel in state  # noqa: E731
    for e in walk_tree(root, skip):    # names as bytes: a name that is not UTF-8 hashes too
        r = os.fsencode(e.rel)
        mode = e.st.st_mode
        if stat.S_ISLNK(mode):
            try:
                h.update(b"L" + r + b"\0" + os.fsencode(os.readlink(e.path)) + b"\0")
            except OSError:
                h.update(b"L" + r + b"\0\0")
        elif stat.S_ISREG(mode):
            h.update(b"F" + r + b"\0")
            try:
                with open(e.path, "rb") as f:
                    while chunk := f.read(1 << 20):
                        h.update(chunk)
            except OSError:
                h.update(b"\1unreadable")
            h.update(b"\0")
        elif stat.S_ISDIR(mode):
            h.update(b"D" + r + b"\0")
    return h.hexdigest()


def _cache_on(task: Task) -> bool:
    """Tasks whose grading may not be a pure function of the workspace (harness cases with
    services or an LLM gateway) set ``deterministic_grading = False``."""
    return os.environ.get("FDEGYM_GRADE_CACHE", "1") != "0" and task.deterministic_grading


def _traffic(key: tuple, make: Callable[[], Any]) -> Any:
    """Traffic generated once per process and key; a fresh copy each call (graders may mutate it).
    JSON text is the cheap copy; traffic that is not JSON (tuples, datetimes) is deep-copied."""
    kept = _TRAFFIC_CACHE.get(key)
    if kept is None:
        made = make()
        try:
            kept = json.dumps(made)
            if json.loads(kept) != made:   # tuples would come back as lists
                raise TypeError
        except (TypeError, ValueError):
            kept = _Verbatim(made)
        _TRAFFIC_CACHE[key] = kept
        while len(_TRAFFIC_CACHE) > 32:
            _TRAFFIC_CACHE.popitem(last=False)
    else:
        _TRAFFIC_CACHE.move_to_end(key)
    return copy.deepcopy(kept.value) if isinstance(kept, _Verbatim) else json.loads(kept)


@dataclass(frozen=True)
class _Verbatim:
    value: Any


def held_out_traffic(task: Task, variant: Variant) -> Any:
    """The held-out traffic for a variant."""
    return _traffic((task.id, task.content_hash, variant.key, "held_out"),
                    lambda: task.module("traffic").held_out(dict(variant.params), task.held_out_seed))


def shadow_traffic(task: Task, variant: Variant, day: int) -> Any:
    """One trial day's shadow traffic (``traffic.shadow(params, day)``), or None if the task has none."""
    mod = task.module("traffic")
    if not hasattr(mod, "shadow"):
        return None
    return _traffic((task.id, task.content_hash, variant.key, "shadow", day),
                    lambda: mod.shadow(dict(variant.params), day))


def grade_system(task: Task, variant: Variant, workspace: Path, sandbox: str = "auto") -> GradeOutcome:
    """Replay the held-out traffic through ``workspace/system`` and measure the kpi."""
    key = (task.id, task.content_hash, variant.key, sandbox, deployed_digest(task, workspace)) if _cache_on(task) else None
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
    grader = task.module("grader")   # a grader that cannot be loaded is the task's fault: raised, not a NaN score
    try:
        deployment = Deployment(task, workspace, sandbox)
    except UndeployableDelivery as e:
        return GradeOutcome(float("nan"), [f"undeployable_delivery: {e}"], "", {}, resolve_backend(sandbox))
    with deployment as deploy:
        try:
            out = grader.grade(deploy, dict(variant.params), traffic)
            kpi = float(out["kpi"])
            incidents = [str(i) for i in out.get("incidents") or []]
            summary, details = str(out.get("summary", "")), dict(out.get("details") or {})
        except InfrastructureError:
            raise   # ours, not the delivery's: no incident, and grade_system caches nothing
        except Exception as e:  # a grader that chokes on what the system returned: an incident
            log.warning("grader of %s raised on delivered output: %s", task.id, e)
            kpi, incidents, summary = float("nan"), [f"grading_failed: {type(e).__name__}: {e}"], ""
            details = {"traceback": traceback.format_exc()[-3000:]}
        incidents += [f"entry_point_failed: {f}" for f in deploy.failures[:5]]
        if len(deploy.failures) > 5:
            incidents.append(f"entry_point_failed: ... and {len(deploy.failures) - 5} more failed calls")
        if deploy.not_deployed:
            details["not_deployed"] = deploy.not_deployed[:50]
            more = f" and {len(deploy.not_deployed) - 3} more" if len(deploy.not_deployed) > 3 else ""
            summary = (summary + " " if summary else "") + \
                f"(not deployed: {'; '.join(deploy.not_deployed[:3])}{more})"
        return GradeOutcome(kpi, incidents, summary, details, deploy.isolation())


_TRIAL_CACHE: OrderedDict[tuple, dict] = OrderedDict()


def run_trial(task: Task, variant: Variant, workspace: Path, day: int, sandbox: str = "auto") -> dict[str, Any]:
    """One trial day of the workspace's system on shadow traffic (``trial.run``), cached like grading."""
    key = (task.id, task.content_hash, variant.key, sandbox, day, deployed_digest(task, workspace)) if _cache_on(task) else None
    if key is not None and key in _TRIAL_CACHE:
        return copy.deepcopy(_TRIAL_CACHE[key])
    traffic = shadow_traffic(task, variant, day)
    try:
        deployment = Deployment(task, workspace, sandbox)
    except UndeployableDelivery as e:
        return {"feedback": f"The trial deployment failed: {e}.", "facts": []}
    with deployment as deploy:
        out = task.module("trial").run(deploy, dict(variant.params), day, traffic)
    if key is not None:
        _TRIAL_CACHE[key] = copy.deepcopy(out)
        while len(_TRIAL_CACHE) > _GRADE_CACHE_SIZE:
            _TRIAL_CACHE.popitem(last=False)
    return out


def apply_solution(task: Task, name: str, workspace: Path, params: dict[str, Any]) -> None:
    """Apply ``solutions/<name>.py`` (its ``apply(ws, params)``) or the overlay folder
    ``solutions/<name>/`` to a workspace (:mod:`fdegym_env.tasklib.solutions`)."""
    from fdegym_env.tasklib import solutions
    solutions.apply(task, name, Path(workspace), dict(params))


def anchors(task: Task, variant: Variant, sandbox: str = "auto") -> dict[str, float]:
    """``kpi_baseline`` (the world as found) and ``kpi_reference`` (the reference solution), measured
    with the same grader and cached per task content and variant."""
    own = task.own_anchors(variant, sandbox)  # harness cases: their grader reports the anchors
    if own is not None:
        return own
    path = anchor_cache_path(task, variant)
    if path.exists():
        return json.loads(path.read_text())
    tmp = make_owned_dir("fdegym-anchor-", scratch_dir())
    try:
        ws = tmp / "workspace"
        shutil.copytree(world_snapshot(task, variant), ws, symlinks=True)
        base = grade_system(task, variant, ws, sandbox)
        apply_solution(task, "reference", ws, variant.params)
        ref = grade_system(task, variant, ws, sandbox)
    finally:
        remove_owned(tmp)
    return save_anchors(task, variant, base, ref)


def anchor_cache_path(task: Task, variant: Variant) -> Path:
    return cache_dir() / "anchors" / f"{task.id}-{task.content_hash}-{variant.key}.json"


def save_anchors(task: Task, variant: Variant, base: GradeOutcome, ref: GradeOutcome) -> dict[str, Any]:
    """Check and cache the anchors measured from the baseline and reference gradings."""
    path = anchor_cache_path(task, variant)
    out = {"kpi_baseline": base.kpi, "kpi_reference": ref.kpi,
           "baseline_incidents": base.incidents, "reference_incidents": ref.incidents}
    if not ref.kpi == ref.kpi or ref.kpi == base.kpi:
        raise RuntimeError(f"{task.id}/{variant.name}: the reference solution scores kpi={ref.kpi} against a "
                           f"baseline of {base.kpi}; the task cannot be normalised (check its reference solution)")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp_path = path.with_suffix(f".{os.getpid()}.{id(out)}.tmp")  # pid: id() alone repeats across processes
    tmp_path.write_text(json.dumps(out))
    tmp_path.replace(path)
    return out


def uplift(kpi: float, kpi_baseline: float, kpi_reference: float) -> float:
    span = kpi_reference - kpi_baseline
    if kpi != kpi:  # NaN: the grader could not measure the system
        return 0.0
    # + 0.0 turns the -0.0 of an untouched system on a minimised metric (0 / negative span) into 0.0,
    # which tables and results otherwise print as "-0.000"; every value compares the same
    return (kpi - kpi_baseline) / span + 0.0 if span else 0.0


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
