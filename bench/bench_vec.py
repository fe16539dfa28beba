"""Env steps per second on the tutorial task, for 1, 2 and 4 envs, per vectorisation.

    python bench/bench_vec.py [--task helpdesk_tutorial] [--steps 200]

Rows: Gymnasium ``SyncVectorEnv`` / ``AsyncVectorEnv(shared_memory=False)`` over the core env (a
cheap ``directory`` action, then ``read_file``), and SB3 ``DummyVecEnv`` / ``SubprocVecEnv`` over
``DiscreteMenu`` with random masked actions (episodes end and grade, so this includes grading).
Figures are steps/s summed over envs; the ratio column is relative to 1 env of the same kind.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
from fdegym_env.wrappers.discrete_menu import DiscreteMenu

from fdegym_env.core.actions import ARG_NAMES, TOOL_NAMES, make_action_space
from fdegym_env.core.env import FDEGymEnv


def core_actions(n: int, tool: str, path: str) -> dict:
    space = make_action_space()
    act = {"tool": np.full(n, TOOL_NAMES.index(tool))}
    for name in ARG_NAMES:
        sub = space[name]
        if isinstance(sub, gym.spaces.Box):
            act[name] = np.zeros((n, 1), np.float32)
        else:
            act[name] = np.array([path if name == "path" else ""] * n, dtype=object)
    return act


def bench_gym(kind: str, task: str, n: int, steps: int) -> float:
    fns = [lambda: FDEGymEnv(task=task, max_turns=100_000) for _ in range(n)]
    venv = gym.vector.SyncVectorEnv(fns) if kind == "sync" else gym.vector.AsyncVectorEnv(fns, shared_memory=False)
    venv.reset(seed=list(range(n)))
    acts = [core_actions(n, "directory", ""), core_actions(n, "read_file", "system/README.md")]
    t = time.perf_counter()
    for i in range(steps):
        venv.step(acts[i % 2])
    rate = steps * n / (time.perf_counter() - t)
    venv.close()
    return rate


def bench_sb3(kind: str, task: str, n: int, steps: int) -> float:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    fns = [lambda: DiscreteMenu(FDEGymEnv(task=task, variant="random")) for _ in range(n)]
    venv = (DummyVecEnv if kind == "dummy" else SubprocVecEnv)(fns)
    venv.seed(0)
    venv.reset()
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for _ in range(steps):
        masks = venv.env_method("action_masks")
        venv.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
    rate = steps * n / (time.perf_counter() - t)
    venv.close()
    return rate


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--task", default="helpdesk_tutorial")
    ap.add_argument("--steps", type=int, default=200)
    a = ap.parse_args()
    print(f"{'vectorisation':<34} {'envs':>4} {'steps/s':>9} {'x 1 env':>8}")
    for label, fn, kind in (("gymnasium SyncVectorEnv (core)", bench_gym, "sync"),
                            ("gymnasium AsyncVectorEnv (core)", bench_gym, "async"),
                            ("sb3 DummyVecEnv (DiscreteMenu)", bench_sb3, "dummy"),
                            ("sb3 SubprocVecEnv (DiscreteMenu)", bench_sb3, "subproc")):
        base = None
        for n in (1, 2, 4):
            rate = fn(kind, a.task, n, a.steps)
            base = base or rate
            print(f"{label:<34} {n:>4} {rate:>9.1f} {rate / base:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
