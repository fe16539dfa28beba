"""Run many episodes: agents × tasks × levels × variants × repeats, on a local process pool or Ray.

Every run is one episode with its own environment (its own workspace and sandbox). Results append
to ``DIR/results.jsonl``, one result (docs/design.md, Score and reward) per line plus ``run_id``, ``agent_spec``, ``repeat``,
``round``, timing (``wall_seconds``, ``started``, ``finished``), ``usage`` (LLM agents) and where it
ran (``backend``, ``worker``). The file is the batch's state:

* a run is *done* when its ``run_id`` has a line in ``results.jsonl``; re-running the same batch
  skips done runs and restarts the ones that were in flight when it was stopped;
* a run that raises (or whose worker dies) is retried once; every failed attempt is written to
  ``DIR/failures.jsonl``, so nothing is lost; a run that failed twice is not done, and the next
  invocation tries it again;
* runs go round by round: every (agent, level) config does every (task, variant) once before any
  second repeat starts, so a stopped batch has comparable partial results.

Example:
    >>> from fdegym_env.evaluation.batch import BatchSpec, run_batch
    >>> spec = BatchSpec(agents=["do-nothing", "reference"], tasks=["tests/fixtures/tiny_task"],
    ...                  levels=["L3"], repeats=2)
    >>> summary = run_batch(spec, "/tmp/bench-out", workers=2)   # doctest: +SKIP
    >>> summary.done, summary.failed                              # doctest: +SKIP
    (4, 0)
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import sys
import time
import traceback
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

RESULTS = "results.jsonl"
FAILURES = "failures.jsonl"
MANIFEST = "batch.json"
MAX_ATTEMPTS = 2  # one retry


# --- what to run --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunSpec:
    """One episode of a batch.

    ``task`` is a registered id or an absolute path to a task folder; ``seed`` depends on the repeat
    only, so every agent meets the same episodes (paired comparisons).
    """

    agent: str
    task: str
    level: str
    variant: str
    repeat: int
    seed: int
    round: int = 0

    @property
    def run_id(self) -> str:
        return f"{self.agent}|{_task_key(self.task)}|{self.level}|{self.variant}|r{self.repeat}|s{self.seed}"


@dataclass
class BatchSpec:
    """What a batch runs (the ``fdegym bench`` arguments).

    Args:
        agents: agent names for :func:`fdegym_env.agents.make_agent` (``do-nothing``, ``reference``,
            ``literal``, ``random``, ``llm``, ``solution:<name>``).
        tasks: task ids or task folder paths, or ``["all"]`` for every registered task.
        levels: instruction levels, e.g. ``["L0", "L3"]``.
        variants: ``"base"``, ``"all"`` (every variant in variants.yaml), ``"named"`` (every named
            variant except base), ``"sample:N"`` (``sample:0`` .. ``sample:N-1``; tasks with a
            sampler), or a comma-separated list of variant names.
        repeats: episodes per (agent, task, level, variant), seeds ``seed + 0 .. seed + repeats-1``.
        seed: the first seed.
        sandbox: the sandbox backend of every episode.
        router: stakeholder router override (``None``: each task's default).
        agent_kwargs: extra keyword arguments per agent name (e.g. ``{"llm": {"model": "m"}}``).
    """

    agents: list[str]
    tasks: list[str] = field(default_factory=lambda: ["all"])
    levels: list[str] = field(default_factory=lambda: ["L3"])
    variants: str = "base"
    repeats: int = 1
    seed: int = 0
    sandbox: str = "auto"
    router: str | None = None
    agent_kwargs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def env_kwargs(self) -> dict[str, Any]:
        return {"sandbox": self.sandbox, "router": self.router}


def _task_key(task: str) -> str:
    """The id part of a run id: the task id for registered tasks, the folder name for paths."""
    return Path(task).name if os.sep in task or task.startswith(".") else task


def resolve_tasks(tasks: Iterable[str]) -> list[str]:
    """Expand ``all`` and turn task folder paths into absolute paths (workers may run elsewhere)."""
    from fdegym_env.core.registry import list_tasks, load_task
    out: list[str] = []
    for t in tasks:
        t = t.strip()
        if not t:
            continue
        if t == "all":
            found = list_tasks()
            if not found:
                raise ValueError("--tasks all: no task is registered (expected folders under fdegym_env/tasks/); "
                                 "fix: name task folders by path instead")
            out += found
            continue
        task = load_task(t)  # raises with a "did you mean"
        out.append(t if t in list_tasks() else str(Path(task.path).resolve()))
    return list(dict.fromkeys(out))   # each once, first place kept


def resolve_variants(task: str, variants: str) -> list[str]:
    """The variant names a ``--variants`` value means for one task."""
    from fdegym_env.core.registry import load_task
    t = load_task(task)
    v = variants.strip()
    if v == "all":
        return list(t.variants)
    if v == "named":
        named = [n for n in t.variants if n != "base"]
        if not named:
            raise ValueError(f"--variants named: task {t.id!r} has only the base variant; fix: use --variants all")
        return named
    if v.startswith("sample:") and v[len("sample:"):].isdigit():
        if not t.has_sampler:
            raise ValueError(f"--variants {v}: task {t.id!r} has no sampler.py (expected tasks with procedural "
                             f"variants); fix: drop it from --tasks or use --variants all")
        return [f"sample:{i}" for i in range(int(v[len('sample:'):]))]
    names = [n.strip() for n in v.split(",") if n.strip()]
    if not names:
        raise ValueError("--variants: expected all, named, sample:N or a comma-separated list of names; got ''")
    for n in names:
        if n not in t.variants and not n.startswith("sample:"):  # the keywords are the likelier typo target
            from fdegym_env.core.errors import did_you_mean
            hint = did_you_mean(n, [*t.variants, "all", "named"])
            raise ValueError(f"--variants: task {t.id!r} has no variant {n!r}.{hint} Expected all, named, "
                             f"sample:N or a comma-separated list of: {', '.join(t.variants)}")
        t.variant(n)  # sample:<N> names: raises if the task has no sampler
    return names


def plan_runs(spec: BatchSpec) -> list[RunSpec]:
    """Every run of a batch, round by round (repeat outermost), then task, variant, level, agent."""
    from fdegym_env.core.task import LEVELS
    if spec.repeats < 1:
        raise ValueError(f"repeats must be >= 1, got {spec.repeats}")
    if not spec.agents:
        raise ValueError("no agents given; expected e.g. --agents do-nothing,reference")
    for lv in spec.levels:
        if lv not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {lv!r}")
    _check_agents(spec.agents)
    tasks = resolve_tasks(spec.tasks)
    per_task = {t: resolve_variants(t, spec.variants) for t in tasks}
    runs = []
    for rep in range(spec.repeats):
        for t in tasks:
            for var in per_task[t]:
                for lv in spec.levels:
                    for ag in spec.agents:
                        runs.append(RunSpec(ag, t, lv, var, rep, spec.seed + rep, rep))
    ids = [r.run_id for r in runs]
    if len(set(ids)) != len(ids):
        raise ValueError("two tasks share a folder name; give them distinct names")
    return runs


def _check_agents(agents: list[str]) -> None:
    from fdegym_env.agents import AGENTS
    from fdegym_env.core.errors import did_you_mean
    known = list(AGENTS) + ["llm"]
    for a in agents:
        if a in known or a.startswith("solution:"):
            continue
        hint = did_you_mean(a, known)
        raise ValueError(f"unknown agent {a!r}.{hint} Expected one of {', '.join(known)} or solution:<name>.")


# --- one run (executed in a worker) -----------------------------------------------------------------------
def run_one(run: dict[str, Any], env_kwargs: dict[str, Any], agent_kwargs: dict[str, Any] | None = None,
            run_token: str | None = None) -> dict[str, Any]:
    """Play one episode in this process and return its result line (never raises).

    Args:
        run: a :class:`RunSpec` as a dict.
        env_kwargs: ``sandbox`` and ``router`` for the env.
        agent_kwargs: keyword arguments for ``make_agent``.
        run_token: the batch's token, written into the markers of the folders this episode makes, so
            the driver can sweep them if this process dies (:func:`fdegym_env.core.owned.sweep_dead_of_run`).

    Returns:
        ``{"ok": True, "result": {...}}`` or ``{"ok": False, "error": "...traceback..."}``.
    """
    import gymnasium as gym

    import fdegym_env  # noqa: F401  (registers ids)
    from fdegym_env.agents import make_agent, run_episode
    from fdegym_env.core.registry import gym_id
    if run_token is not None:
        from fdegym_env.core.owned import RUN_TOKEN_ENV
        os.environ[RUN_TOKEN_ENV] = run_token
    started = time.time()
    t0 = time.monotonic()
    env = None
    try:
        rs = RunSpec(**run)
        agent = make_agent(rs.agent, **(agent_kwargs or {}))
        env = gym.make(gym_id(rs.task), task=rs.task, level=rs.level, variant=rs.variant, **env_kwargs)
        result = run_episode(env, agent, seed=rs.seed)
        result.pop("return", None)
        result.update({"run_id": rs.run_id, "agent_spec": rs.agent, "repeat": rs.repeat, "round": rs.round,
                       "wall_seconds": round(time.monotonic() - t0, 3), "started": round(started, 3),
                       "finished": round(time.time(), 3), "worker": f"{socket.gethostname()}:{os.getpid()}"})
        result.setdefault("usage", None)
        return {"ok": True, "result": result}
    except BaseException as e:  # a run's failure is data for the driver, never a crash of the pool
        if isinstance(e, KeyboardInterrupt):
            raise
        return {"ok": False, "error": f"{type(e).__name__}: {e}\n{traceback.format_exc()[-4000:]}",
                "wall_seconds": round(time.monotonic() - t0, 3), "worker": f"{socket.gethostname()}:{os.getpid()}"}
    finally:
        if env is not None:
            try:
                env.close()
            except Exception:
                pass


# --- the results file -------------------------------------------------------------------------------------
def load_results(path: str | Path) -> list[dict[str, Any]]:
    """Read a results.jsonl; a cut-off last line (a batch killed mid-write) is ignored."""
    p = Path(path)
    if p.is_dir():
        p = p / RESULTS
    if not p.exists():
        return []
    out = []
    lines = p.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            if n == len(lines):  # the partial tail of an interrupted write
                continue
            raise ValueError(f"{p}:{n}: not a JSON line; expected one result object per line") from None
    return out


class ResultsFile:
    """Append-only JSONL writer that repairs a partial last line left by a killed batch."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size:
            data = path.read_bytes()
            if not data.endswith(b"\n"):
                cut = data.rfind(b"\n") + 1
                with open(path, "r+b") as f:
                    f.truncate(cut)
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def append(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, sort_keys=True, default=str, ensure_ascii=False) + "\n"
        os.write(self._fd, line.encode("utf-8"))  # one write: a line is whole or (if killed) cut at the end
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


# --- backends ---------------------------------------------------------------------------------------------
class Backend(ABC):
    """Runs :func:`run_one` calls; yields ``(key, outcome)`` as they finish."""

    name = "?"
    run_token: str | None = None   # set by run_batch: passed to every run_one

    @abstractmethod
    def run(self, jobs: list[tuple[Any, dict, dict, dict]]) -> Iterator[tuple[Any, dict[str, Any]]]:
        """Run the jobs; yield each one's key and outcome as it finishes."""

    def close(self) -> None:  # noqa: B027 (optional: a backend with nothing to release keeps it)
        """Release what :meth:`run` started (workers, a cluster)."""


class LocalBackend(Backend):
    """A pool of ``workers`` spawned processes, each running one episode at a time.

    When a worker process dies (a segfault, ``os._exit``, the OOM killer), Python's pool breaks and
    every run it held fails with it. Those runs are then re-run one at a time, each alone in a fresh
    process, so only the run that kills its worker is reported as failed, never its bystanders.
    """

    name = "local"

    def __init__(self, workers: int = 1):
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = workers
        self._pool = None

    @staticmethod
    def _new_pool(workers: int):
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor
        return ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"))

    def _run_alone(self, job) -> dict[str, Any]:
        from concurrent.futures.process import BrokenProcessPool
        key, run, env_kwargs, agent_kwargs = job
        pool = self._new_pool(1)
        workers: list = []
        try:
            fut = pool.submit(run_one, run, env_kwargs, agent_kwargs, run_token=self.run_token)
            workers = list((getattr(pool, "_processes", None) or {}).values())
            return fut.result()
        except BrokenProcessPool as e:
            return {"ok": False, "error": f"the worker process died while running this episode alone: {e}",
                    "worker": "local"}
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            _sweep_dead_workers(workers)

    def run(self, jobs):
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool
        pending = list(jobs)
        if self._pool is None:
            self._pool = self._new_pool(self.workers)
        inflight: dict[Any, Any] = {}  # future -> job
        while pending or inflight:
            while pending and len(inflight) < self.workers * 2:  # a small queue keeps workers busy
                job = pending.pop(0)
                inflight[self._pool.submit(run_one, *job[1:], run_token=self.run_token)] = job
            done, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
            victims = []
            for fut in done:
                job = inflight.pop(fut)
                try:
                    yield job[0], fut.result()
                except BrokenProcessPool:
                    victims.append(job)
            if victims or getattr(self._pool, "_broken", False):
                victims += list(inflight.values())  # everything the dead pool held
                inflight.clear()
                workers = list((getattr(self._pool, "_processes", None) or {}).values())
                self._pool.shutdown(wait=False, cancel_futures=True)
                _sweep_dead_workers(workers)
                for job in victims:
                    yield job[0], self._run_alone(job)
                self._pool = self._new_pool(self.workers)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _sweep_batch(run_token: str | None, wait_s: float = 0.0) -> None:
    """Delete what this batch's workers left on this machine when they died (any backend).

    ``wait_s``: how long to wait for workers that are still ending (a local Ray's workers outlive
    ``ray.shutdown()`` by a moment, holding their cached deployments, and are then killed without
    cleaning up): folders of the run whose owner still lives are looked at again until it has died."""
    import time

    from fdegym_env.core.owned import live_of_run, sweep_dead_of_run
    from fdegym_env.core.paths import episodes_dir, scratch_dir
    if not run_token:
        return
    parents = {episodes_dir(), scratch_dir()}
    deadline = time.monotonic() + wait_s
    while True:
        for parent in parents:
            sweep_dead_of_run(parent, run_token)
        if not any(live_of_run(parent, run_token) for parent in parents) or time.monotonic() >= deadline:
            return
        time.sleep(0.2)


def _sweep_dead_workers(workers: list, wait_s: float = 10.0) -> None:
    """Delete the episode folders the workers of a broken pool left (the one that died mid-episode,
    and the bystanders the broken pool terminates, neither of which cleans up): once each has ended
    (waited for up to ``wait_s``), only folders whose marker names it and whose owner is verifiably dead."""
    import time

    from fdegym_env.core.owned import sweep_dead
    from fdegym_env.core.paths import episodes_dir, scratch_dir
    deadline = time.monotonic() + wait_s
    for proc in workers:
        try:
            proc.join(timeout=max(0.0, deadline - time.monotonic()))
        except (AssertionError, ValueError, OSError):   # not ours to join, or already closed
            pass
    for parent in {episodes_dir(), scratch_dir()}:
        for proc in workers:
            if proc.pid is not None:
                sweep_dead(parent, proc.pid)


RAY_WORKER_EXIT_S = 20.0   # how long a local Ray's workers may take to end after ray.shutdown()


class RayBackend(Backend):
    """Episodes as Ray tasks (one CPU each) on a local Ray or an existing cluster.

    Args:
        workers: CPUs of the local Ray started when ``address`` is None (ignored on a cluster, where
            every free CPU takes an episode).
        address: ``ray://host:10001`` or ``auto`` for a running cluster; ``None`` starts a local Ray.
        runtime_env: Ray runtime environment for the workers (e.g. ``{"pip": ["fdegym"]}``).
    """

    name = "ray"

    def __init__(self, workers: int = 1, address: str | None = None, runtime_env: dict | None = None):
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no phoning home from a local Ray
        try:
            import ray
        except ImportError:
            raise RuntimeError("the ray backend needs Ray: pip install 'fdegym[ray]' (or pip install ray)") from None
        self.ray = ray
        self.workers = workers
        self._started_here = False
        self.batch_tokens: set[str] = set()   # the batches' run tokens: their workers' folders are swept at close
        if not ray.is_initialized():
            kw: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if runtime_env:
                kw["runtime_env"] = runtime_env
            if address:
                ray.init(address=address, **kw)
            else:
                ray.init(num_cpus=workers, **kw)
            self._started_here = True
        self._remote = ray.remote(num_cpus=1, max_retries=0)(run_one)

    def run(self, jobs):
        ray = self.ray
        if self.run_token:
            self.batch_tokens.add(self.run_token)
        refs: dict[Any, Any] = {}
        for key, run, env_kwargs, agent_kwargs in jobs:
            refs[self._remote.remote(run, env_kwargs, agent_kwargs, run_token=self.run_token)] = key
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1)
            for ref in ready:
                key = refs.pop(ref)
                try:
                    yield key, ray.get(ref)
                except Exception as e:  # WorkerCrashedError, node loss, ...
                    yield key, {"ok": False, "error": f"ray worker failed: {type(e).__name__}: {e}", "worker": "ray"}

    def close(self) -> None:
        if self._started_here:
            self.ray.shutdown()
            # the local Ray's workers end a moment later, killed with the deployments they cached
            for token in self.batch_tokens:
                _sweep_batch(token, wait_s=RAY_WORKER_EXIT_S)


def make_backend(name: str, workers: int = 1, address: str | None = None,
                 runtime_env: dict | None = None) -> Backend:
    """``local`` or ``ray`` (see :class:`LocalBackend`, :class:`RayBackend`)."""
    if name == "local":
        if address:
            raise ValueError("--ray-address needs --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(workers, address, runtime_env)
    raise ValueError(f"backend must be 'local' or 'ray', got {name!r}")


# --- the driver -------------------------------------------------------------------------------------------
@dataclass
class BatchSummary:
    """What :func:`run_batch` did."""

    planned: int
    skipped: int
    done: int
    failed: int
    retried: int
    wall_seconds: float
    out: Path

    @property
    def episodes_per_minute(self) -> float:
        return 60.0 * self.done / self.wall_seconds if self.wall_seconds > 0 else 0.0


class _Progress:
    """tqdm bar with the running mean score (falls back to nothing when disabled)."""

    def __init__(self, total: int, initial_scores: list[float], enabled: bool):
        self.scores = list(initial_scores)
        self.bar = None
        if enabled and total:
            from tqdm import tqdm
            self.bar = tqdm(total=total, unit="ep", dynamic_ncols=True, file=sys.stderr, desc="fdegym bench")
            self._post(failed=0)

    def _post(self, failed: int) -> None:
        if self.bar is not None:
            mean = sum(self.scores) / len(self.scores) if self.scores else float("nan")
            self.bar.set_postfix_str(f"mean score {mean:.3f} (n={len(self.scores)}) failed {failed}", refresh=False)

    def update(self, score: float | None, failed: int) -> None:
        if score is not None:
            self.scores.append(score)
        if self.bar is not None:
            self._post(failed)
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run_batch(spec: BatchSpec, out: str | Path, *, workers: int = 1, backend: str | Backend = "local",
              ray_address: str | None = None, progress: bool = False,
              on_result: Callable[[dict[str, Any]], None] | None = None) -> BatchSummary:
    """Run (or resume) a batch into ``out``; see the module docstring for the file contracts.

    Args:
        spec: what to run.
        out: the batch folder (created); holds results.jsonl, failures.jsonl and batch.json.
        workers: parallel episodes.
        backend: ``"local"``, ``"ray"`` or a :class:`Backend`.
        ray_address: an existing Ray cluster (``backend="ray"``).
        progress: show a tqdm bar with the running mean score.
        on_result: called with each new result line (after it is written).

    Returns:
        A :class:`BatchSummary`.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    runs = plan_runs(spec)
    existing = load_results(out / RESULTS)
    done_ids = {r.get("run_id") for r in existing}
    todo = [r for r in runs if r.run_id not in done_ids]
    planned_ids = {r.run_id for r in runs}
    prior_scores = [float(r["score"]) for r in existing if r.get("run_id") in planned_ids]
    _check_same_env(out, spec)
    from fdegym_env.core.owned import child_run_token
    run_token = child_run_token("batch-" + secrets.token_hex(4))
    _write_manifest(out, spec, runs, backend if isinstance(backend, str) else backend.name, workers, ray_address,
                    run_token)
    t0 = time.monotonic()
    summary = BatchSummary(planned=len(runs), skipped=len(runs) - len(todo), done=0, failed=0, retried=0,
                           wall_seconds=0.0, out=out)
    if not todo:
        return summary
    be = make_backend(backend, workers, ray_address) if isinstance(backend, str) else backend
    be.run_token = run_token
    results = ResultsFile(out / RESULTS)
    failures = ResultsFile(out / FAILURES)
    bar = _Progress(len(runs), prior_scores, progress)
    if bar.bar is not None:
        bar.bar.update(summary.skipped)
    env_kwargs = spec.env_kwargs()
    attempts: dict[str, int] = {}
    by_id = {r.run_id: r for r in todo}
    try:
        queue = [(r.run_id, asdict(r), env_kwargs, spec.agent_kwargs.get(r.agent, {})) for r in todo]
        while queue:
            retry = []
            for run_id, outcome in be.run(queue):
                attempts[run_id] = attempts.get(run_id, 0) + 1
                rs = by_id[run_id]
                if outcome.get("ok"):
                    rec = outcome["result"]
                    rec["run_id"] = run_id  # the driver's key is the one resume looks for
                    rec["backend"] = be.name
                    rec["attempt"] = attempts[run_id]
                    results.append(rec)
                    summary.done += 1
                    bar.update(float(rec["score"]), summary.failed)
                    if on_result is not None:
                        on_result(rec)
                    continue
                final = attempts[run_id] >= MAX_ATTEMPTS
                failures.append({"run_id": run_id, **asdict(rs), "attempt": attempts[run_id], "final": final,
                                 "backend": be.name, "error": outcome.get("error"), "worker": outcome.get("worker"),
                                 "time": round(time.time(), 3)})
                if final:
                    summary.failed += 1
                    bar.update(None, summary.failed)
                else:
                    summary.retried += 1
                    retry.append((run_id, asdict(rs), env_kwargs, spec.agent_kwargs.get(rs.agent, {})))
            queue = retry
    finally:
        bar.close()
        results.close()
        failures.close()
        if isinstance(backend, str):
            be.close()
        _sweep_batch(be.run_token)
        summary.wall_seconds = round(time.monotonic() - t0, 3)
    return summary


def _check_same_env(out: Path, spec: BatchSpec) -> None:
    """A folder holds one environment setup: runs under another router or agent settings would mix."""
    p = out / MANIFEST
    if not p.exists():
        return
    try:
        prev = json.loads(p.read_text()).get("spec") or {}
    except (OSError, json.JSONDecodeError):
        return
    for key in ("router", "agent_kwargs"):
        was, now = prev.get(key), asdict(spec)[key]
        if key in prev and was != now:
            raise ValueError(f"{out} was run with {key}={was!r}, this batch has {key}={now!r}: results would mix; "
                             f"fix: use another --out folder, or the same settings to resume")


def _write_manifest(out: Path, spec: BatchSpec, runs: list[RunSpec], backend: str, workers: int,
                    address: str | None, run_token: str) -> None:
    data = {"spec": asdict(spec), "planned_runs": len(runs), "backend": backend, "workers": workers,
            "ray_address": address, "python": sys.version.split()[0], "updated": round(time.time(), 3),
            "run_token": run_token}   # in the owner marker of every folder this invocation's workers made
    tmp = out / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, default=str))
    tmp.replace(out / MANIFEST)
