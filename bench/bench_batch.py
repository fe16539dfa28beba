"""Episodes per minute of the batch runner: the reference agent on every task, 1 and 2 workers,
local process pool and Ray, in one run.

    python bench/bench_batch.py [--tasks all] [--repeats 2] [--backends local,ray] [--workers 1,2]

Each configuration runs ``--repeats`` rounds of the reference agent over the tasks into a fresh
folder (anchors are measured once up front, so every configuration sees warm caches) and prints
episodes/min, the mean episode wall time, the speed-up over 1 worker of the same backend, and
(for Ray) the time ``ray.init`` took, which is not counted in episodes/min. The machine's load
average is printed before and after: on a shared machine the figures are only comparable within
one run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from fdegym_env.evaluation.batch import BatchSpec, RayBackend, load_results, run_batch


def load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", default="all")
    ap.add_argument("--agent", default="reference")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--backends", default="local,ray")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--sandbox", default="auto")
    a = ap.parse_args()
    tasks = a.tasks.split(",")
    workers = [int(w) for w in a.workers.split(",")]
    base = Path(tempfile.mkdtemp(prefix="fdegym-bench-batch-"))
    print(f"cores {os.cpu_count()}, load average before: {load()}")
    t = time.monotonic()
    warm = run_batch(BatchSpec(agents=[a.agent], tasks=tasks, sandbox=a.sandbox), base / "warm", workers=1)
    print(f"warm-up (anchors, world snapshots): {warm.done} episodes in {time.monotonic() - t:.1f} s")
    print(f"{'backend':<8} {'workers':>7} {'episodes':>8} {'wall s':>8} {'ep/min':>7} {'mean ep s':>9} "
          f"{'speed-up':>8} {'init s':>7}")
    for be_name in a.backends.split(","):
        one = None
        for w in workers:
            init = 0.0
            backend: str | RayBackend = be_name
            if be_name == "ray":
                t = time.monotonic()
                backend = RayBackend(workers=w)
                init = time.monotonic() - t
            spec = BatchSpec(agents=[a.agent], tasks=tasks, repeats=a.repeats, sandbox=a.sandbox)
            out = base / f"{be_name}-{w}"
            try:
                s = run_batch(spec, out, workers=w, backend=backend)
            finally:
                if not isinstance(backend, str):
                    backend.close()
            walls = [r["wall_seconds"] for r in load_results(out)]
            epm = s.episodes_per_minute
            one = one or epm
            print(f"{be_name:<8} {w:>7} {s.done:>8} {s.wall_seconds:>8.1f} {epm:>7.1f} "
                  f"{statistics.mean(walls):>9.2f} {epm / one:>7.2f}x {init:>7.1f}"
                  + (f"  ({s.failed} failed)" if s.failed else ""))
    print(f"load average after: {load()}; results under {base}")


if __name__ == "__main__":
    main()
