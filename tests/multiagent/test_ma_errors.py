"""Programmer mistakes raise with expected/got/fix; agent mistakes are observations."""

from __future__ import annotations

import numpy as np
import pytest
from ma_helpers import TINY

from fdegym_env.multiagent import (
    ENGINEER,
    REWARDS,
    ReplyEvent,
    adversarial,
    env,
    faithfulness,
    parallel_env,
    patience_weighted,
)


def test_unknown_external_says_did_you_mean():
    with pytest.raises(ValueError, match=r"unknown stakeholder 'opps'\. Did you mean 'ops'\?"):
        env(TINY, external=["opps"])


def test_unknown_reward_says_did_you_mean():
    with pytest.raises(ValueError, match="Did you mean 'adversarial'"):
        env(TINY, external=["ops"], stakeholder_reward="adversarail")


def test_malformed_stakeholder_action_is_an_observation_then_script():
    e = env(TINY, external=["ops"])
    e.reset(seed=0)
    e.step({"tool": "contact", "to": "ops", "message": "threshold?"})
    for _ in range(2):
        e.step({"reply": 42})
        obs, _, _, _, info = e.last()
        assert e.agent_selection == "ops"
        assert "'reply' must be a string" in info["last_action_error"] and "Error in your last action" in obs["text"]
    e.step({"reply": "x", "disclose": [2, 7, 9]})  # third malformed action: the script answers
    assert e.agent_selection == ENGINEER
    assert "The real cutoff is" in e.observe(ENGINEER)["text"]
    assert e.infos["ops"]["last_released"] == ["F_threshold"]
    e.close()


def test_disclose_mask_shape_is_checked():
    e = env(TINY, external=["ops"])
    e.reset(seed=0)
    e.step({"tool": "contact", "to": "ops", "message": "threshold?"})
    e.step({"reply": "", "disclose": np.ones(3, dtype=np.int8)})
    assert "mask of length 1" in e.infos["ops"]["last_action_error"]
    e.close()


def test_parallel_needs_the_acting_agents_action():
    e = parallel_env(TINY, external=["ops"])
    e.reset(seed=0)
    e.step({ENGINEER: {"tool": "contact", "to": "ops", "message": "threshold?"}})
    assert e.acting == "ops"
    with pytest.raises(KeyError, match="it is 'ops'.s turn"):
        e.step({ENGINEER: {"tool": "directory"}})
    obs, rew, term, trunc, infos = e.step({"ops": {"reply": "", "disclose": [1]}, ENGINEER: {"tool": "submit"}})
    assert e.acting == ENGINEER and infos["ops"]["acting"] == ENGINEER
    assert rew[ENGINEER] == pytest.approx(-0.01) and rew["ops"] == 1.0 and not any(term.values())
    e.close()


def test_reward_functions():
    ev = ReplyEvent(agent="a", message="m", scripted_reply="s", reply="r", releasable=("F_1", "F_2"),
                    released=("F_1",), asked=2, patience=4, key_facts=("F_1", "F_9"))
    assert faithfulness(ev) == 0.5
    assert adversarial(ev) == -0.5
    assert patience_weighted(ev) == 0.25
    assert set(REWARDS) == {"faithfulness", "adversarial", "patience_weighted"}


def test_custom_reward_callable_is_used():
    seen = []
    e = env(TINY, external=["ops"], stakeholder_reward=lambda ev: seen.append(ev) or 7.0)
    e.reset(seed=0)
    e.step({"tool": "contact", "to": "ops", "message": "threshold?"})
    e.step({"reply": "", "disclose": "all"})
    assert e.rewards["ops"] == 7.0 and seen[0].released == ("F_threshold",)
    e.close()


def test_the_people_of_an_engagement_not_reset_yet_say_so():
    aec = env(TINY, external=["ops"])
    with pytest.raises(RuntimeError, match=r"no episode is running; call reset\(\) first"):
        _ = aec.core.people
    aec.reset(seed=0)
    assert aec.core.people.asked.get("ops", 0) == 0
