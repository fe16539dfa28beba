"""Grading, validate and RL-loop speed, old way against new way in the same run.

    python bench/bench_grading.py [--tasks a,b] [--reps 5] [--validate none|quick|full] [--menu-steps 600]
                                  [--menu-runs 3]

Prints ratios measured within this run, so a busy machine slows both sides alike:

1. grading median per task (the base world, grade cache off): ``per_call`` (a fresh ``python3``
   per entry-point call, a new sandbox per deployment: the old way) against ``persistent`` (one
   forked-per-call worker, warm deployment sandboxes reused: the default). Targets: <= 0.5 s per
   task, <= 30 ms for the tutorial (on a quiet 2-core machine).
2. ``fdegym validate`` per task (``--validate quick``: named variants + sampled generic bypasses;
   ``full``: every named variant and every generic bypass, what admission runs; target <= 90 s).
3. DiscreteMenu on the tutorial, one env, random masked policy, every episode ends graded (submit or
   the turn limit), each run in a fresh interpreter (as a user's training process; median of
   ``--menu-runs``), timed after ``--menu-warmup`` untimed steps that pay the process's one-time
   costs (shown apart): steps/s, old way against new way (target >= 300 steps/s), with the grade cache
   on (what an RL loop gets: repeated systems are graded once) and off (every episode a real
   sandboxed grading).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import contextmanager

OLD = {"FDEGYM_PROCESS": "per_call", "FDEGYM_DEPLOY_POOL": "0"}
NEW = {"FDEGYM_PROCESS": "persistent", "FDEGYM_DEPLOY_POOL": "1"}


@contextmanager
def env(**kv):
    saved = {k: os.environ.get(k) for k in kv}
    os.environ.update({k: str(v) for k, v in kv.items()})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def bench_grading(task_id: str, reps: int) -> dict[str, float]:
    from fdegym_env.core.registry import load_task
    from fdegym_env.core.workspace import world_snapshot
    from fdegym_env.grading.grade import grade_system, held_out_traffic
    task = load_task(task_id)
    v = task.variant("base")
    ws = world_snapshot(task, v)
    held_out_traffic(task, v)
    times: dict[str, list[float]] = {"old": [], "new": []}
    outs = {}
    with env(FDEGYM_GRADE_CACHE="0"):
        with env(**NEW):
            grade_system(task, v, ws, "auto")   # warm: the first deployment starts its sandbox
        for _ in range(reps):                   # interleaved, so load changes hit both sides
            for side, kv in (("old", OLD), ("new", NEW)):
                with env(**kv):
                    t = time.perf_counter()
                    outs[side] = grade_system(task, v, ws, "auto")
                    times[side].append(time.perf_counter() - t)
    a, b = outs["old"], outs["new"]
    same = (a.kpi, a.incidents, a.summary, a.details) == (b.kpi, b.incidents, b.summary, b.details)
    return {"old": statistics.median(times["old"]), "new": statistics.median(times["new"]), "same": same}


def bench_validate(task_id: str, mode: str) -> tuple[float, bool, int]:
    from fdegym_env.admission.validate import validate_task
    from fdegym_env.core.registry import load_task
    task = load_task(task_id)
    t = time.perf_counter()
    report = validate_task(task, quick=mode == "quick", progress=False)
    return time.perf_counter() - t, report.passed, len(report.rows)


def bench_menu(steps: int, cache: bool, seed: int = 0, warmup: int = 0) -> tuple[float, int, str, float]:
    """(steps/s, episodes, grade-cache hit rates, warm-up seconds) for ``steps`` random masked steps,
    timed after ``warmup`` untimed steps that pay a process's one-time costs (the first grading
    sandbox and worker, traffic generation, lazy imports); the grade and trial caches are emptied
    after the warm-up, so the timed steps grade as cold as the first ones."""
    import numpy as np
    from fdegym_env.wrappers.discrete_menu import DiscreteMenu

    from fdegym_env.core.env import FDEGymEnv
    from fdegym_env.grading import grade as grading
    grading._GRADE_CACHE.clear()   # each side starts cold: no gradings carried over from the other
    grading._TRIAL_CACHE.clear()
    from fdegym_env.core import env as env_mod
    count = {"grade": 0, "graded": 0, "trial": 0, "deployed": 0}
    real = (env_mod.grade_system, grading._grade_uncached, env_mod.run_trial, grading.Deployment)

    def counted(name, fn):
        def wrapper(*a, **kw):
            count[name] += 1
            return fn(*a, **kw)
        return wrapper

    env_mod.grade_system = counted("grade", real[0])
    grading._grade_uncached = counted("graded", real[1])
    env_mod.run_trial = counted("trial", real[2])
    grading.Deployment = counted("deployed", real[3])
    with env(FDEGYM_GRADE_CACHE="1" if cache else "0"):
        e = DiscreteMenu(FDEGymEnv(task="helpdesk_tutorial", variant="base"))
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        t = time.perf_counter()
        for _ in range(warmup):
            _, _, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
            if term or trunc:
                e.reset()
        warm_s = time.perf_counter() - t
        grading._GRADE_CACHE.clear()
        grading._TRIAL_CACHE.clear()
        count.update(dict.fromkeys(count, 0))
        episodes = 0
        t = time.perf_counter()
        for _ in range(steps):
            _, _, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
            if term or trunc:
                assert "result" in info, "an episode ended without a graded result"
                episodes += 1
                e.reset()
        rate = steps / (time.perf_counter() - t)
        e.close()
    env_mod.grade_system, grading._grade_uncached, env_mod.run_trial, grading.Deployment = real
    trialled = count["deployed"] - count["graded"]
    hits = (f"grade cache hits {count['grade'] - count['graded']}/{count['grade']}, "
            f"trial cache hits {count['trial'] - trialled}/{count['trial']}")
    return rate, episodes, hits, warm_s


def menu_in_fresh_process(steps: int, cache: bool, kv: dict, warmup: int) -> tuple[float, int, str, float]:
    """:func:`bench_menu` in a new interpreter, as an RL user's training process runs it (this bench's
    own process has graded and validated ten tasks by then)."""
    import json
    import subprocess
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import bench_grading as B; "
            "print(json.dumps(B.bench_menu(int(sys.argv[2]), sys.argv[3] == '1', warmup=int(sys.argv[4]))))")
    out = subprocess.run([sys.executable, "-c", code, os.path.dirname(os.path.abspath(__file__)), str(steps),
                          "1" if cache else "0", str(warmup)], env={**os.environ, **kv}, capture_output=True,
                         text=True, check=True)
    rate, eps, hits, warm_s = json.loads(out.stdout.strip().splitlines()[-1])
    return rate, eps, hits, warm_s


def main() -> None:
    from fdegym_env.core.registry import list_tasks
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", default=",".join(list_tasks()))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--validate", choices=["none", "quick", "full"], default="quick")
    ap.add_argument("--menu-steps", type=int, default=600)
    ap.add_argument("--menu-runs", type=int, default=3, help="DiscreteMenu runs per row; the median is shown")
    ap.add_argument("--menu-warmup", type=int, default=50,
                    help="untimed DiscreteMenu steps first (a process's one-time costs; reported apart)")
    a = ap.parse_args()
    tasks = [t for t in a.tasks.split(",") if t]
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    print(f"\n{'grading (median of ' + str(a.reps) + ')':<28} {'old s':>8} {'new s':>8} {'old/new':>8}  same result")
    for t in tasks:
        r = bench_grading(t, a.reps)
        print(f"{t:<28} {r['old']:>8.3f} {r['new']:>8.3f} {r['old'] / r['new']:>8.1f}  {r['same']}", flush=True)
    if a.validate != "none":
        print(f"\n{'validate (' + a.validate + ')':<28} {'s':>8} {'rows':>6}  passed")
        for t in tasks:
            dt, ok, rows = bench_validate(t, a.validate)
            print(f"{t:<28} {dt:>8.1f} {rows:>6}  {ok}", flush=True)
    if a.menu_steps:
        print(f"\n{'DiscreteMenu tutorial, 1 env':<40} {'steps/s':>8} {'episodes':>9}  "
              f"median of {a.menu_runs} fresh processes (min-max); first {a.menu_warmup} steps untimed "
              f"(their seconds); cache hits")
        for cache in (True, False):
            rates = {}
            for side, kv in (("old", OLD), ("new", NEW)):
                runs, warms = [], []
                for _ in range(a.menu_runs):   # one run swings +-5% on a shared 2-core machine
                    rate, eps, hits, warm_s = menu_in_fresh_process(a.menu_steps, cache, kv, a.menu_warmup)
                    runs.append(rate)
                    warms.append(warm_s)
                rates[side] = statistics.median(runs)
                label = f"{side} way, grade cache {'on' if cache else 'off'}"
                print(f"{label:<40} {rates[side]:>8.1f} {eps:>9}  ({min(runs):.0f}-{max(runs):.0f}) "
                      f"({statistics.median(warms):.2f} s) {hits if cache else ''}", flush=True)
            print(f"{'  new/old':<40} {rates['new'] / rates['old']:>8.1f}")
    print(f"load average at end: {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
