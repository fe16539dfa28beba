"""Registration: ids, the episode limit gym.make callers set, and what the spec says."""

from __future__ import annotations

import gymnasium as gym
import pytest

from fdegym_env.core.registry import gym_id, load_task
from tests.conftest import task_params


@pytest.mark.parametrize("task", task_params())
def test_registration_adds_no_time_limit_that_cuts_episodes_ungraded(task):
    env = gym.make(gym_id(task))
    assert env.spec.max_episode_steps is None
    wrappers = []
    e = env
    while isinstance(e, gym.Wrapper):
        wrappers.append(type(e).__name__)
        e = e.env
    assert "TimeLimit" not in wrappers, wrappers
    env.close()


@pytest.mark.parametrize("mode", ["dense", "sparse"])
def test_a_longer_max_turns_runs_to_its_own_limit_and_grades(mode):
    limit = int(load_task("helpdesk_tutorial").limits["max_turns"])
    env = gym.make(gym_id("helpdesk_tutorial"), max_turns=limit + 5, reward_mode=mode)
    env.reset(seed=0)
    total, steps = 0.0, 0
    while True:
        _, r, terminated, truncated, info = env.step({"tool": "list_files", "path": "docs"})
        total += float(r)
        steps += 1
        assert not truncated, f"truncated at step {steps} (TimeLimit?), before the env's own limit {limit + 5}"
        if terminated:
            break
        assert steps < limit + 5, "the env did not end at its own max_turns"
    env.close()
    assert steps == limit + 5
    assert info["result"]["end_reason"] == "max_turns"
    assert info["result"]["turns"] == limit + 5
    assert total == info["result"]["score"]


def test_a_shorter_max_turns_ends_graded_there():
    env = gym.make(gym_id("helpdesk_tutorial"), max_turns=3)
    env.reset(seed=0)
    for _ in range(3):
        _, _, terminated, truncated, info = env.step({"tool": "directory"})
    assert terminated and not truncated and info["result"]["end_reason"] == "max_turns"
    env.close()


def test_spec_says_nondeterministic_when_the_llm_router_is_on():
    det = gym.make(gym_id("helpdesk_tutorial"))
    llm = gym.make(gym_id("helpdesk_tutorial"), router="llm")
    assert det.spec.nondeterministic is False and det.unwrapped.deterministic
    assert llm.spec.nondeterministic is True and not llm.unwrapped.deterministic
    assert llm.unwrapped.spec.nondeterministic is True
    assert gym.spec(gym_id("helpdesk_tutorial")).nondeterministic is False  # the registry entry is untouched
    det.close()
    llm.close()
