"""Sandbox costs per backend, in one run.

    python bench/bench_sandbox.py [--n 200] [--episodes 20] [--backends bwrap,docker,none]

Prints, per available backend:
- the median wall time of ``run("true")`` and its ratio to a bare ``subprocess.run(["true"])``
  (and the overhead in ms over that bare floor);
- the median ``run(["python3", "-c", "pass"])``, the shape of one grading entry-point call;
- the median per-episode sandbox reset: ``close()`` of the old sandbox + ``start()`` of a new one
  on a fresh workspace (what ``env.reset`` pays for the sandbox).
Goals: bwrap ``run`` overhead <= 5 ms; docker reset <= 300 ms.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
import warnings


def median_ms(fn, n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def available(name: str) -> tuple[bool, str]:
    if name == "bwrap":
        from fdegym_env.sandbox import bwrap_works
        return bwrap_works()
    if name == "docker":
        from fdegym_env.sandbox.docker_backend import docker_available
        return docker_available()
    return True, "ok"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="commands per measurement")
    ap.add_argument("--episodes", type=int, default=20, help="sandbox resets per backend")
    ap.add_argument("--backends", default="bwrap,docker,none")
    a = ap.parse_args()
    from fdegym_env.core.paths import episodes_dir
    from fdegym_env.sandbox import make_sandbox
    warnings.simplefilter("ignore")
    bare = median_ms(lambda: subprocess.run(["true"]), a.n)
    bare_py = median_ms(lambda: subprocess.run(["python3", "-c", "pass"]), max(10, a.n // 10))
    print(f"bare subprocess.run(['true'])            {bare:7.2f} ms  (the 1.00x floor)")
    print(f"bare subprocess.run(['python3','-c',..]) {bare_py:7.2f} ms\n")
    print(f"{'backend':<8} {'true ms':>8} {'ratio':>7} {'overhead':>9} {'python3 ms':>11} {'reset ms':>9} "
          f"{'first start':>12}")
    for name in a.backends.split(","):
        ok, why = available(name)
        if not ok:
            print(f"{name:<8} not available: {why}")
            continue
        ws = tempfile.mkdtemp(prefix="fdegym-bench-", dir=episodes_dir())
        t = time.perf_counter()
        sb = make_sandbox(name)
        sb.start(ws)
        first = (time.perf_counter() - t) * 1000
        for _ in range(5):
            sb.run("true")
        t_true = median_ms(lambda: sb.run("true"), a.n)
        t_py = median_ms(lambda: sb.run(["python3", "-c", "pass"]), max(10, a.n // 10))
        sb.close()
        shutil.rmtree(ws, ignore_errors=True)
        resets = []
        prev = None
        for _ in range(a.episodes):
            ws = tempfile.mkdtemp(prefix="fdegym-bench-", dir=episodes_dir())
            t = time.perf_counter()
            if prev is not None:
                prev[0].close()
            sb = make_sandbox(name)
            sb.start(ws)
            resets.append((time.perf_counter() - t) * 1000)
            if prev is not None:
                shutil.rmtree(prev[1], ignore_errors=True)
            prev = (sb, ws)
        prev[0].close()
        shutil.rmtree(prev[1], ignore_errors=True)
        print(f"{name:<8} {t_true:8.2f} {t_true / bare:6.2f}x {t_true - bare:+8.2f} {t_py:11.2f} "
              f"{statistics.median(resets):9.1f} {first:12.1f}")


if __name__ == "__main__":
    main()
