"""PettingZoo conformance: api_test, parallel_api_test, seed_test and parallel_seed_test, with one and
with all stakeholders external."""

from __future__ import annotations

import warnings

import pytest
from ma_helpers import TINY, first_external, ma_task_params
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from fdegym_env.multiagent import ENGINEER, env, parallel_env


def _cases():
    out = []
    for p in ma_task_params():
        task = p.values[0]
        out.append(pytest.param(task, "one", id=f"{p.id}-one", marks=p.marks))
        slow = [pytest.mark.slow] if p.id != "tiny_task" else []
        out.append(pytest.param(task, "all", id=f"{p.id}-all", marks=list(p.marks) + slow))
    return out


def _external(task, which):
    return [first_external(task)] if which == "one" else "all"


@pytest.mark.parametrize("task,which", _cases())
def test_aec_api(task, which):
    e = env(task, external=_external(task, which))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's style hints (Dict spaces, agent names)
        api_test(e, num_cycles=200)
    e.close()


@pytest.mark.parametrize("task,which", _cases())
def test_parallel_api(task, which):
    e = parallel_env(task, external=_external(task, which))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(e, num_cycles=200)
    e.close()


@pytest.mark.parametrize("task,which", _cases())
def test_seed(task, which):
    seed_test(lambda: env(task, external=_external(task, which)), num_cycles=100)
    parallel_seed_test(lambda: parallel_env(task, external=_external(task, which)), num_cycles=100)


def test_random_play_reaches_stakeholders():
    """The api tests above only mean something if random play hands turns to stakeholders."""
    e = env(TINY, external="all")
    seen = set()
    for seed in range(40):  # random episodes on tiny_task are short (waits end them): try a few
        if seed and seen:
            break
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if agent != ENGINEER and not (term or trunc):
                assert obs["pending"] == 1
                seen.add(agent)
            e.step(None if term or trunc else e.action_space(agent).sample())
    e.close()
    assert "ops" in seen


def test_possible_agents_fixed_and_named():
    e = env(TINY, external=["ops"])
    assert e.possible_agents == [ENGINEER, "ops"]
    e.reset(seed=0)
    assert e.agents == [ENGINEER, "ops"] and e.agent_selection == ENGINEER
    e.close()
