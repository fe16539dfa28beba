"""Nothing that ends an episode or costs points is learnt only from the result: the reset observation
and TASK.md state the limits and the trial terms, observations count down the last actions and
customer hours, and each trial day says what it cost and how many are left."""

from __future__ import annotations

import time

import pytest

from fdegym_env import FDEGymEnv
from fdegym_env.core.env import NO_WALL_LIMIT
from tests.conftest import TINY, task_params


@pytest.mark.parametrize("task", task_params())
def test_the_reset_observation_and_task_md_state_the_limits(task):
    with FDEGymEnv(task=task, sandbox="none") as env:
        text = env.reset(seed=0)[0]["text"]
        task_md = (env.workspace / "TASK.md").read_text()
        for shown in (text, task_md):
            assert f"It ends after {env.max_turns} actions" in shown
            if env.people.has_clock:
                assert f"once {env.max_customer_days:g} customer days have passed" in shown
            if env.task.has_module("trial"):
                terms = env.people.trial_terms()
                assert f"at most {terms['max_runs']} trial days" in shown
                assert f"{terms['costs'][0]:g}" in shown
            else:
                assert "`trial`: at most" not in shown


@pytest.mark.parametrize("task", task_params())
def test_a_wall_clock_limit_is_stated_where_one_applies(task):
    with FDEGymEnv(task=task, sandbox="none") as env:
        text = env.reset(seed=0)[0]["text"]
        assert env.max_wall_seconds < NO_WALL_LIMIT        # the tasks' own limits, for automated loops
        for shown in (text, (env.workspace / "TASK.md").read_text()):
            assert "of real, wall-clock time have passed since it started" in shown
    with FDEGymEnv(task=task, sandbox="none", max_wall_seconds=NO_WALL_LIMIT) as env:
        assert "wall-clock" not in env.reset(seed=0)[0]["text"]


@pytest.mark.parametrize("seconds, said", [(600, "0h10"), (3600, "1h00"), (9000, "2h30"), (5, "0h01")])
def test_the_wall_clock_limit_is_said_in_hours_and_minutes(seconds, said):
    with FDEGymEnv(task="helpdesk_tutorial", sandbox="none", max_wall_seconds=seconds) as env:
        assert f"It also ends once {said} (hours and minutes) of real, wall-clock time have passed" in env.reset(seed=0)[0]["text"]


def test_the_last_minutes_of_real_time_are_counted_down_and_then_end_the_episode():
    with FDEGymEnv(task="helpdesk_tutorial", sandbox="none", max_wall_seconds=3600) as env:
        env.reset(seed=0)
        assert "of real time left" not in env.step({"tool": "directory"})[0]["text"]
        env._started = time.monotonic() - 3600 + 500         # 500 s left: inside the last ten minutes
        assert "[8 minutes of real time left: then the engagement ends" in env.step({"tool": "directory"})[0]["text"]
        env._started -= 600
        obs, _, terminated, _, info = env.step({"tool": "directory"})
        assert terminated and info["result"]["end_reason"] == "max_wall_seconds"


def test_the_limits_follow_the_env_settings():
    with FDEGymEnv(task="helpdesk_tutorial", sandbox="none", max_turns=17) as env:
        assert "It ends after 17 actions" in env.reset(seed=0)[0]["text"]


def test_the_last_actions_are_counted_down():
    with FDEGymEnv(task="helpdesk_tutorial", sandbox="none", max_turns=12) as env:
        env.reset(seed=0)
        assert "left: then the engagement ends" not in env.step({"tool": "directory"})[0]["text"]   # 11 left
        assert "[10 actions left: then the engagement ends" in env.step({"tool": "directory"})[0]["text"]
        for _ in range(9):   # turns 3 to 11
            obs = env.step({"tool": "directory"})[0]
        assert "[1 action left:" in obs["text"]
        obs, _, terminated, _, _ = env.step({"tool": "directory"})
        assert terminated and "left: then" not in obs["text"]


def test_the_last_customer_hours_are_counted_down():
    with FDEGymEnv(task="helpdesk_tutorial", sandbox="none") as env:
        env.reset(seed=0)
        days = env.max_customer_days
        assert "hours of customer time left" not in env.step({"tool": "wait", "hours": days * 24 - 36})[0]["text"]
        assert "[12 hours of customer time left" in env.step({"tool": "wait", "hours": 24})[0]["text"]


def test_each_trial_day_states_its_cost_and_what_is_left():
    with FDEGymEnv(task=TINY, sandbox="none") as env:
        env.reset(seed=0)
        terms = env.people.trial_terms()
        n = terms["max_runs"]
        assert n >= 2
        for day in range(1, n + 1):
            began = env.people.stamp()                    # the trial day starts now (None without a calendar)
            obs, reward, *_ = env.step({"tool": "trial"})
            left = n - day
            head = obs["text"].split(":\n", 1)[0]
            stamp = f", from {began}" if began else ""
            assert head == (f"Trial day {day} of {n}{stamp} (cost {terms['costs'][day - 1]:g} points; "
                            f"{left} trial day{'s' if left != 1 else ''} left)"), head
            assert reward == pytest.approx(-terms["costs"][day - 1])
        obs, reward, *_ = env.step({"tool": "trial"})
        assert obs["text"].startswith(f"No trial day: all {n} have been used") and reward == 0


def test_messages_are_announced_when_they_arrive_whatever_the_action():
    with FDEGymEnv(task="returns_desk", sandbox="none") as env:
        text = env.reset(seed=0)[0]["text"]
        waiting = env.people.inbox_new()
        assert waiting >= 1 and f"{waiting} message{'s' if waiting != 1 else ''} already in your inbox" in text
        assert "new message" not in env.step({"tool": "directory"})[0]["text"]       # told already
        env.step({"tool": "inbox"})
        obs = env.step({"tool": "trial"})[0]["text"]                                 # a day passes
        arrived = env.people.inbox_new()
        assert arrived >= 1 and f"[{arrived} new message{'s' if arrived != 1 else ''} in your inbox" in obs
        assert "new message" not in env.step({"tool": "directory"})[0]["text"]       # once


def test_a_trial_day_names_when_it_began_on_the_customer_clock():
    with FDEGymEnv(task="helpdesk_tutorial", sandbox="none") as env:
        env.reset(seed=0)
        began = env.people.stamp()
        assert began and env.step({"tool": "trial"})[0]["text"].startswith(f"Trial day 1 of 2, from {began} (")
        assert env.people.stamp() != began                 # and took customer time


def test_the_result_says_what_the_cost_was_spent_on():
    """A trial day and a question both count in the score's cost; the result line names each part."""
    with FDEGymEnv(task="billing_dispute", sandbox="none") as env:
        env.reset(seed=0)
        env.step({"tool": "contact", "to": "hana_kobayashi", "message": "Which accounts does the double-billing complaint cover?"})
        env.step({"tool": "trial"})
        env.step({"tool": "wait", "hours": 24})
        obs, *_ = env.step({"tool": "submit"})
        r = env.unwrapped.result
    parts = r["cost_parts"]
    assert parts["people"] > 0 and parts["trials"] > 0 and parts["waiting"] > 0
    assert abs(sum(parts.values()) - r["contact_cost"]) < 1e-9
    line = obs["text"].split("== result ==")[1].splitlines()[1]
    assert (f"contact cost {r['contact_cost']:.3f} (people {parts['people']:.3f}, "
            f"trial days {parts['trials']:.3f}, waiting {parts['waiting']:.3f})") in line


def test_the_brief_says_how_the_score_and_resolved_are_decided():
    with FDEGymEnv(task="helpdesk_tutorial", sandbox="none") as env:
        text = env.reset(seed=0)[0]["text"]
        assert "from 0 (as found) to 1 (an expert's change; more if you do better)" in text and "an incident caps it at 0" in text
        assert "resolved at 0.8 or more with no incident" in text
        assert "resolved at 0.8" in (env.workspace / "TASK.md").read_text()


@pytest.mark.parametrize("task", task_params())
def test_what_waiting_costs_is_stated_and_is_what_a_wait_costs(task):
    with FDEGymEnv(task=task, sandbox="none") as env:
        text = env.reset(seed=0)[0]["text"]
        per_day = float(env.people.clock_cfg.get("wait_cost_per_day", 0.0))
        if not (env.people.has_clock and per_day):
            assert "per customer day waited" not in text
            return
        assert f"`wait` costs {per_day:g} points per customer day waited" in text
        assert "less what contacts, trial days and waiting cost" in text
        assert f"{per_day:g} points per customer day waited" in (env.workspace / "TASK.md").read_text()
        env.step({"tool": "wait", "hours": 12})
        assert env.people.cost_parts()["waiting"] == pytest.approx(per_day / 2)


@pytest.mark.parametrize("task", task_params())
def test_the_brief_names_the_metric_the_result_reports(task):
    with FDEGymEnv(task=task, sandbox="none") as env:
        text = env.reset(seed=0)[0]["text"]
        m = env.task.metric
        better = "higher" if m["direction"] == "maximize" else "lower"
        for shown in (text, (env.workspace / "TASK.md").read_text()):
            assert f"judges this work by `{m['name']}` ({better} is better)" in shown
        assert len(m["unit"]) < 8 or m["unit"] not in text    # what it is made of is for the agent to learn
