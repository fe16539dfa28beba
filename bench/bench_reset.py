"""Reset and step costs of the core env, per task, in one run.

    python bench/bench_reset.py [--tasks news_incident,...] [--n 30]

Prints the median reset time (ms) per task, with the ratio to a bare ``shutil.copytree`` of the
same world (the floor any fresh-workspace design pays), and the median cost of a few cheap steps.
Goal: news_incident reset < 100 ms median.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from fdegym_env.core.env import FDEGymEnv
from fdegym_env.core.registry import list_tasks
from fdegym_env.core.workspace import world_snapshot


def median_ms(fn, n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", default="all")
    ap.add_argument("--n", type=int, default=30)
    a = ap.parse_args()
    tasks = list_tasks() if a.tasks == "all" else a.tasks.split(",")
    print(f"{'task':<22} {'reset ms':>9} {'copytree ms':>12} {'ratio':>6} {'read ms':>8} {'run true ms':>12} {'contact ms':>11}")
    for tid in tasks:
        env = FDEGymEnv(task=tid, max_turns=100_000)
        env.reset(seed=0)  # warm caches: world snapshot, router index
        snap = world_snapshot(env.task, env.variant)
        tmp = Path(tempfile.mkdtemp())

        def copy():
            shutil.rmtree(tmp / "w", ignore_errors=True)
            shutil.copytree(snap, tmp / "w")

        reset = median_ms(lambda: env.reset(seed=0), a.n)
        floor = median_ms(copy, a.n)
        person = env.people.directory()[0]["id"]
        readme = "system/README.md"
        read = median_ms(lambda: env.step({"tool": "read_file", "path": readme}), a.n)
        run = median_ms(lambda: env.step({"tool": "run", "command": "true"}), a.n)
        env.reset(seed=0)
        contact = median_ms(lambda: env.people.contact(person, "How do the weekly numbers get checked?"), a.n)
        print(f"{tid:<22} {reset:>9.1f} {floor:>12.1f} {reset / floor:>6.1f} {read:>8.2f} {run:>12.2f} {contact:>11.3f}")
        env.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
