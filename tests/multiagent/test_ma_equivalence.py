"""With every stakeholder played by the scripted policy as an external agent, the engineer's
observations, rewards, infos and final score equal the single-agent env's (same actions, same seed)."""

from __future__ import annotations

import pytest
from gymnasium.utils.env_checker import data_equivalence
from ma_helpers import TINY, ma_task_params, play_aec, play_single, probe_actions

from fdegym_env.core.env import FDEGymEnv
from fdegym_env.multiagent import ENGINEER, ScriptedStakeholder, env


def _cases():
    out = []
    for p in ma_task_params():
        for mode in ("dense", "sparse"):
            marks = list(p.marks) + ([pytest.mark.slow] if mode == "sparse" and p.id != "tiny_task" else [])
            out.append(pytest.param(p.values[0], mode, id=f"{p.id}-{mode}", marks=marks))
    return out


@pytest.mark.parametrize("task,reward_mode", _cases())
def test_scripted_externals_equal_single_agent(task, reward_mode):
    actions = probe_actions(task)
    single = FDEGymEnv(task=task, reward_mode=reward_mode)
    multi = env(task, external="all", reward_mode=reward_mode)
    try:
        ref = play_single(single, actions, seed=3)
        policies = {a: ScriptedStakeholder() for a in multi.possible_agents if a != ENGINEER}
        got, stake = play_aec(multi, actions, policies, seed=3)
    finally:
        single.close()
        multi.close()
    assert stake, "the probe script never handed a turn to a stakeholder agent"
    assert len(got) == len(ref)
    for k, ((o1, r1, t1, tr1, i1), (o2, r2, t2, tr2, i2)) in enumerate(zip(ref, got)):
        assert data_equivalence(o1, o2), f"engineer observation differs at decision {k}:\n{o1['text']}\n---\n{o2['text']}"
        assert r1 == pytest.approx(r2, abs=1e-12), f"reward differs at decision {k}"
        assert (t1, tr1) == (t2, tr2)
        assert data_equivalence(i1, i2), f"engineer info differs at decision {k}"
    assert ref[-1][2] and got[-1][2]
    assert got[-1][4]["result"]["score"] == pytest.approx(ref[-1][4]["result"]["score"], abs=1e-12)
    assert got[-1][4]["result"]["facts_obtained"] == ref[-1][4]["result"]["facts_obtained"]
    # the scripted policy is perfectly faithful
    assert all(s["reward"] == 1.0 for s in stake)


def test_engineer_return_equals_score_with_agents():
    multi = env(TINY, external="all")
    actions = probe_actions(TINY)
    result, total = None, 0.0
    try:
        multi.reset(seed=1)
        for agent in multi.agent_iter():
            obs, rew, term, trunc, info = multi.last()
            if agent == ENGINEER:
                total += rew
                result = info.get("result", result)
            if term or trunc:
                multi.step(None)
                continue
            multi.step(actions.pop(0) if agent == ENGINEER else {"reply": "", "disclose": "all"})
    finally:
        multi.close()
    assert result is not None and "F_threshold" in result["facts_obtained"]
    assert total == pytest.approx(result["score"], abs=1e-9)
    assert multi.core.returns[ENGINEER] == pytest.approx(result["score"], abs=1e-9)
