"""Steps per second through the OpenEnv server against the same steps in process.

Starts ``fdegym serve-env`` on a free local port, then plays N episodes of cheap steps
(list_files / read_file / directory, no grading) with 1 and with 8 concurrent clients, and the same
episodes in process. Prints steps/s for each, the ratio, and the server's overhead per step (median
remote step latency minus median in-process step latency, 1 client).

    python bench/bench_openenv.py [--task helpdesk_tutorial] [--steps 200] [--clients 1,8]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import statistics
import time

from fdegym_env.serving.openenv_client import launch_local_server

ACTIONS = [{"tool": "list_files"}, {"tool": "read_file", "path": "TASK.md"}, {"tool": "directory"}]


def play_local(task: str, steps: int, seed: int) -> list[float]:
    from fdegym_env.core.env import FDEGymEnv
    env = FDEGymEnv(task=task, max_turns=10 ** 6)
    env.reset(seed=seed)
    times = []
    for i in range(steps):
        t0 = time.perf_counter()
        env.step(ACTIONS[i % len(ACTIONS)])
        times.append(time.perf_counter() - t0)
    env.close()
    return times


def play_remote(url: str, steps: int, seed: int) -> list[float]:
    from openenv.core.generic_client import GenericEnvClient
    times = []
    with GenericEnvClient(base_url=url).sync() as c:
        c.reset(seed=seed)
        for i in range(steps):
            t0 = time.perf_counter()
            c.step(ACTIONS[i % len(ACTIONS)])
            times.append(time.perf_counter() - t0)
    return times


def rate(fn, clients: int, steps: int) -> tuple[float, list[float]]:
    t0 = time.perf_counter()
    with cf.ThreadPoolExecutor(clients) as pool:
        runs = list(pool.map(lambda s: fn(steps, s), range(clients)))
    wall = time.perf_counter() - t0
    return clients * steps / wall, [t for r in runs for t in r]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--task", default="helpdesk_tutorial")
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--clients", default="1,8")
    a = p.parse_args()
    counts = [int(c) for c in a.clients.split(",")]
    proc, url = launch_local_server(a.task, max(counts), quiet=True)
    try:
        play_remote(url, 5, 0)                                    # warm-up: imports and first reset on the server
        print(f"{'clients':>7} {'in-process steps/s':>19} {'server steps/s':>15} {'ratio':>6} "
              f"{'median step in/server (ms)':>27}")
        for n in counts:
            local_rate, lt = rate(lambda s, seed: play_local(a.task, s, seed), n, a.steps)
            remote_rate, rt = rate(lambda s, seed: play_remote(url, s, seed), n, a.steps)
            lm, rm = statistics.median(lt) * 1e3, statistics.median(rt) * 1e3
            print(f"{n:>7} {local_rate:>19.0f} {remote_rate:>15.0f} {remote_rate / local_rate:>6.2f} "
                  f"{lm:>12.2f} / {rm:<12.2f}")
            if n == 1:
                overhead = rm - lm
        print(f"server overhead per step (1 client, median): {overhead:.2f} ms (goal: <= 2 ms)")
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    main()
