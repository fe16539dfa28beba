"""Nothing of ours stays in the episodes folder (``/dev/shm`` by default) once the processes that made
it are closed: vector-env workers, grading pools."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from fdegym_env.core import owned
from fdegym_env.core.env import FDEGymEnv
from fdegym_env.core.paths import episodes_dir, scratch_dir
from tests.conftest import TINY


class RunThenSubmit(gym.Wrapper):
    """Action 0 runs a command (starts the sandbox), 1 submits (grades: a deployment and its pool)."""

    def __init__(self, env):
        super().__init__(env)
        self.observation_space = gym.spaces.Box(0, 10_000, (1,), np.int64)
        self.action_space = gym.spaces.Discrete(2)

    def reset(self, **kwargs):
        obs, _ = self.env.reset(**kwargs)
        return obs["turn"], {}

    def step(self, action):
        act = {"tool": "submit"} if int(action) == 1 else {"tool": "run", "command": "ls"}
        obs, r, term, trunc, _ = self.env.step(act)
        return obs["turn"], r, term, trunc, {}


def _make():
    return RunThenSubmit(FDEGymEnv(TINY, sandbox="auto"))


def _ours(pids: set[int]) -> list:
    return [p for parent in {episodes_dir(), scratch_dir()} for p, marker in owned.fdegym_entries(parent)
            if marker is not None and marker["pid"] in pids]


def test_subproc_vec_env_workers_leave_nothing_behind():
    pytest.importorskip("stable_baselines3", reason="SB3 is optional (pip install 'fdegym[sb3]')")
    from stable_baselines3.common.vec_env import SubprocVecEnv
    venv = SubprocVecEnv([_make, _make])
    pids = {p.pid for p in venv.processes}
    venv.reset()
    venv.step(np.array([0, 0]))
    venv.step(np.array([1, 1]))      # graded: each worker now holds a warm deployment and a new episode
    assert _ours(pids), "the workers' folders should exist while they run (else this test checks nothing)"
    venv.close()
    assert _ours(pids) == []


def test_session_check_finds_what_this_runs_processes_left(monkeypatch):
    import os
    import secrets
    import subprocess
    import sys

    from tests.conftest import run_leftovers
    token, other = "test-" + secrets.token_hex(4), "test-" + secrets.token_hex(4)
    code = ("import os; from fdegym_env.core.owned import make_owned_dir; from fdegym_env.core.paths import "
            "episodes_dir; print(make_owned_dir('fdegym-leak-', episodes_dir())); os._exit(0)")
    made = {}
    for t in (token, other):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                           env={**os.environ, owned.RUN_TOKEN_ENV: t})
        made[t] = r.stdout.strip()
    try:
        monkeypatch.setenv(owned.RUN_TOKEN_ENV, token)
        assert [str(p) for p in run_leftovers(wait_s=0)] == [made[token]], "another run's folder counted, or ours missed"
    finally:
        owned.sweep_dead(episodes_dir())
    assert run_leftovers(wait_s=0) == []
