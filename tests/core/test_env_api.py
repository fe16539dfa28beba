"""The Gymnasium contract, on every registered task (docs/design.md, The episode to Spaces)."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest
from fdegym_env.agents import make_agent, run_episode
from gymnasium.utils.env_checker import check_env

from fdegym_env.core.env import FDEGymEnv
from fdegym_env.core.errors import TaskFormatError
from fdegym_env.core.registry import gym_id
from tests.conftest import TINY, task_params


@pytest.mark.parametrize("task", task_params())
def test_check_env_passes(task):
    # through gym.make, so the spec-dependent checks run too (every render mode made from the spec,
    # close twice); check_env wants the unwrapped env, which carries the spec gym.make gave it
    env = gym.make(gym_id(task))
    assert env.unwrapped.spec is not None and env.unwrapped.spec.id == gym_id(task)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("task", task_params())
@pytest.mark.parametrize("mode", ["dense", "sparse"])
@pytest.mark.parametrize("agent", ["reference", "random", "do-nothing"])
def test_return_equals_score(task, mode, agent):
    env = gym.make(gym_id(task), reward_mode=mode)
    result = run_episode(env, make_agent(agent), seed=3)
    env.close()
    assert result["return"] == result["score"], (result["return"], result["score"])
    assert result["agent"] == agent


def _play(task, seed, actions):
    env = FDEGymEnv(task=task)
    obs, info = env.reset(seed=seed)
    trace = [(obs["text"], info)]
    for a in actions:
        obs, r, term, trunc, info = env.step(a)
        trace.append((obs["text"], float(r), term, json.dumps(info, sort_keys=True, default=str),
                      obs["hours"].tolist(), obs["inbox_new"].tolist()))
        if term:
            break
    env.close()
    return trace


def _scripted_actions(task):
    env = FDEGymEnv(task=task)
    env.reset(seed=0)
    people = [p["id"] for p in env.people.directory()]
    env.close()
    return [{"tool": "directory"}, {"tool": "list_files", "path": "."},
            {"tool": "contact", "to": people[0], "message": "What changed recently and what breaks most?"},
            {"tool": "run", "command": "ls -la system | head -20; python3 -c 'print(6*7)'"},
            {"tool": "wait", "hours": 30}, {"tool": "inbox"}, {"tool": "nonsense"},
            {"tool": "contact", "to": people[-1], "message": "Who owns the rules here?"},
            {"tool": "submit"}]


@pytest.mark.parametrize("task", task_params())
def test_seeded_determinism(task):
    actions = _scripted_actions(task)
    assert _play(task, 11, actions) == _play(task, 11, actions)


def test_malformed_actions_are_observations_not_exceptions():
    env = FDEGymEnv(task=TINY)
    env.reset(seed=0)
    bad = [{"tool": "read_file"}, {"tool": "reed_file", "path": "x"}, "not json", 42,
           {"tool": "read_file", "path": "/etc/passwd"}, {"tool": "read_file", "path": "../../x"},
           {"tool": "wait", "hours": "soon"}, {"name": "contact", "arguments": "{bad json"},
           {"tool": "contact", "to": "nobody", "message": "hi"}, {"tool": "edit_file", "path": "system/README.md",
                                                                   "old": "no such text", "new": "x"}]
    before = sorted(p.name for p in env.workspace.rglob("*"))
    for i, a in enumerate(bad, 1):
        obs, r, term, trunc, info = env.step(a)
        assert info["last_action_error"], a
        assert obs["valid"] == 0 and obs["text"].startswith("Error:")
        assert r == 0.0 and not term and info["turn"] == i
    assert sorted(p.name for p in env.workspace.rglob("*")) == before
    assert "Did you mean 'read_file'" in env.step({"tool": "reed_file"})[4]["last_action_error"]
    assert "Did you mean 'ops'" in env.step({"tool": "contact", "to": "opss", "message": "x"})[4]["last_action_error"]
    env.close()


def test_symlink_escape_is_refused():
    env = FDEGymEnv(task=TINY)
    env.reset(seed=0)
    env.step({"tool": "run", "command": "ln -s /etc/hostname leak"})
    obs, *_ , info = env.step({"tool": "read_file", "path": "leak"})
    assert "outside the workspace" in info["last_action_error"]
    env.close()


def test_turn_limit_ends_with_grading():
    env = FDEGymEnv(task=TINY, max_turns=3)
    env.reset(seed=0)
    for _ in range(2):
        assert not env.step({"tool": "directory"})[2]
    obs, r, term, trunc, info = env.step({"tool": "directory"})
    assert term and not trunc
    assert info["result"]["end_reason"] == "max_turns"
    assert info["result"]["turns"] == 3
    env.close()


def test_customer_days_limit_ends_with_grading():
    env = FDEGymEnv(task=TINY, max_customer_days=1)
    env.reset(seed=0)
    obs, r, term, trunc, info = env.step({"tool": "wait", "hours": 25})
    assert term and info["result"]["end_reason"] == "max_customer_days"
    env.close()


def test_wait_refuses_no_time_and_says_when_it_caps():
    env = FDEGymEnv(task=TINY, max_customer_days=30)
    env.reset(seed=0)
    for hours in (-3, 0):
        obs, r, term, trunc, info = env.step({"tool": "wait", "hours": hours})
        assert obs["valid"] == 0 and float(obs["hours"][0]) == 0.0 and r == 0.0 and not term
        assert "'hours' must be more than 0, got" in info["last_action_error"]
        assert '{"tool": "wait", "hours": 24}' in info["last_action_error"]
    obs, r, term, trunc, info = env.step({"tool": "wait", "hours": 1000})
    assert obs["valid"] == 1 and float(obs["hours"][0]) == 336.0
    assert "One wait is at most 336 hours: waited 336, not 1000." in obs["text"]
    obs, *_ = env.step({"tool": "wait", "hours": 2})
    assert "at most" not in obs["text"] and float(obs["hours"][0]) == 338.0
    env.close()


def test_result_has_every_design_key():
    env = gym.make(gym_id(TINY))
    result = run_episode(env, make_agent("reference"), seed=0)
    env.close()
    for key in ("task", "variant", "level", "seed", "agent", "score", "uplift", "uplift_bounded", "contact_cost",
                "incidents", "resolved", "end_reason", "turns", "key_fact_coverage", "facts_obtained",
                "questions_asked", "kpi", "kpi_baseline", "kpi_reference", "isolation"):
        assert key in result, key
    assert result["score"] >= 0.95 and result["resolved"] and result["isolation"] == "bwrap"


def test_score_formula_matches_paper():
    from fdegym_env.grading.grade import score
    s = score(kpi=7.0, kpi_baseline=5.0, kpi_reference=9.0, incidents=[], contact_cost=0.1)
    assert s["uplift"] == 0.5 and abs(s["score"] - 0.4) < 1e-12 and not s["resolved"]
    s = score(kpi=9.0, kpi_baseline=5.0, kpi_reference=9.0, incidents=["x"], contact_cost=0.0)
    assert s["uplift"] == 0.0 and s["score"] == 0.0 and not s["resolved"]
    s = score(kpi=-20.0, kpi_baseline=5.0, kpi_reference=9.0, incidents=[], contact_cost=0.05)
    assert s["uplift_bounded"] == -1.0 and abs(s["score"] + 1.05) < 1e-12
    s = score(kpi=2.0, kpi_baseline=10.0, kpi_reference=2.0, incidents=[], contact_cost=0.0)  # minimised metric
    assert s["uplift"] == 1.0 and s["resolved"]


def test_an_untouched_minimised_metric_scores_plus_zero_not_minus_zero():
    # 0 / (reference - baseline < 0) is -0.0, which every table printed as "-0.000"
    from fdegym_env.grading.grade import score
    for incidents in ([], ["x"]):
        s = score(kpi=10.0, kpi_baseline=10.0, kpi_reference=2.0, incidents=incidents, contact_cost=0.0)
        assert f"{s['uplift']:.3f} {s['uplift_bounded']:.3f} {s['score']:.3f}" == "0.000 0.000 0.000", s


def test_observation_text_holds_real_text():
    env = FDEGymEnv(task=TINY)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert "—" in env.step({"tool": "directory"})[0]["text"]
    assert "observation" not in env.observation_space.spaces
    env.close()


def test_variant_and_level_via_options():
    env = FDEGymEnv(task=TINY)
    obs, info = env.reset(seed=0, options={"variant": "high", "level": "L0"})
    assert info["variant"] == "high" and info["level"] == "L0"
    assert "70" in obs["text"]  # the L0 brief states the rule, filled from the variant
    with pytest.raises(ValueError, match="Did you mean 'high'"):
        env.reset(seed=0, options={"variant": "hihg"})
    env.close()


def test_a_misspelt_drawn_variant_gets_a_did_you_mean_and_the_list_names_them():
    with pytest.raises(ValueError, match=r"no variant 'sampel'\. Did you mean 'sample'\? Variants: base, .*"
                                         r"random \(a named one per episode seed\), sample \(a drawn one per "
                                         r"episode seed\), sample:<N>$"):
        FDEGymEnv(task="news_incident", variant="sampel")
    with pytest.raises(ValueError, match=r"Did you mean 'random'\?"):
        FDEGymEnv(task="news_incident", variant="randon")
    with pytest.raises(ValueError, match=r"random \(a named one per episode seed\)$"):  # TINY has no sampler
        FDEGymEnv(task=TINY, variant="sampel")


def test_a_misspelt_split_fails_when_the_env_is_built():
    # it used to pass silently unless variant="sample", and then fail only at reset
    with pytest.raises(ValueError, match=r"split must be one of train, test, got 'tst'\. Did you mean 'test'\?"):
        FDEGymEnv(task="news_incident", split="tst")
    assert FDEGymEnv(task="news_incident", split="test").split == "test"


def _tiny_copy(tmp_path, trial_src: str | None = None):
    import shutil
    from pathlib import Path
    dest = tmp_path / "tiny_task"
    shutil.copytree(Path(TINY), dest)
    if trial_src is not None:
        (dest / "trial.py").write_text(trial_src, encoding="utf-8")
    return str(dest)


def test_a_bug_in_a_tasks_trial_module_raises(tmp_path):
    # programmer mistakes are exceptions: a task's trial.py failing must not reach the agent as "Error: ..."
    task = _tiny_copy(tmp_path, "def run(deploy, params, day, traffic):\n    return int('not a number')\n")
    env = FDEGymEnv(task=task, sandbox="none")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="invalid literal for int"):
        env.step({"tool": "trial"})
    env.close()


def test_workspace_mistakes_are_still_observations(tmp_path):
    env = FDEGymEnv(task=TINY)
    env.reset(seed=0)
    # a file where the agent needs a folder: the OS refuses, the agent is told
    obs, r, term, trunc, info = env.step({"tool": "write_file", "path": "docs/notes.md/x.txt", "content": "x"})
    assert not term and obs["valid"] == 0
    assert info["last_action_error"].startswith("write_file failed: ")
    obs, *_ , info = env.step({"tool": "read_file", "path": "no/such.txt"})
    assert obs["valid"] == 0 and "No such file" in info["last_action_error"]
    env.close()


def test_a_task_module_that_cannot_be_imported_fails_when_the_env_is_built(tmp_path):
    # the env imports traffic/grader/trial when it is built, so a broken module is reported then,
    # naming the file, and not at the agent's first submit
    task = _tiny_copy(tmp_path)
    Path(task, "grader.py").write_text("import no_such_module_anywhere\n\n\ndef grade(deploy, params, traffic):\n"
                                       "    return {}\n", encoding="utf-8")
    with pytest.raises(TaskFormatError, match=r"grader\.py: cannot be imported: ModuleNotFoundError"):
        FDEGymEnv(task=task, sandbox="none")


def test_building_the_env_imports_the_modules_an_episode_calls(tmp_path):
    import sys

    from fdegym_env.core.registry import load_task
    task = load_task(_tiny_copy(tmp_path))
    pkg = task.package
    assert not {m for m in sys.modules if m.startswith(pkg + ".")}   # a fresh copy: nothing imported yet
    env = FDEGymEnv(task=task, sandbox="none")
    assert {f"{pkg}.traffic", f"{pkg}.grader", f"{pkg}.trial"} <= set(sys.modules)
    env.close()


@pytest.mark.parametrize("task", task_params())
def test_the_reset_observation_names_every_tool(task):
    # a raw-gym agent must learn the tool set from the observation, not from its first error
    from fdegym_env.core.actions import TOOL_NAMES
    env = FDEGymEnv(task=task, level="L3")
    obs, _ = env.reset(seed=0)
    missing = [t for t in TOOL_NAMES if f"`{t}`" not in obs["text"]]
    assert not missing, missing
    env.close()


def test_the_reset_observation_is_built_from_the_episode_workspace_every_level():
    # the env keeps one reset text per (level, variant); it must stay what reset_segments renders
    from fdegym_env.core.env import mail_notice, reset_segments, task_limits
    env = FDEGymEnv(task="helpdesk_tutorial")
    for level in ("L3", "L0", "L3"):
        obs, _ = env.reset(seed=1, options={"level": level})
        fresh = ("".join(seg for _, seg in reset_segments(env.task, level, env.variant, env.workspace, task_limits(env.task, env.variant)))
                 + mail_notice(env.people.inbox_new()))
        assert obs["text"] == fresh
    l3 = env.reset(seed=2, options={"level": "L3"})[0]["text"]
    l0 = env.reset(seed=2, options={"level": "L0"})[0]["text"]
    assert l3 != l0 and env.task.title in l0 and env.task.title not in l3
    env.close()


def test_grading_or_wrapping_without_a_running_episode_says_so():
    from fdegym_env.agents.baselines import SolutionAgent
    from fdegym_env.wrappers import ChatEnv

    from fdegym_env.core.env import unwrap_fdegym
    env = FDEGymEnv(task=TINY)
    with pytest.raises(RuntimeError, match="no episode is running; call reset"):
        env.score_now()                        # not reset yet
    with pytest.raises(RuntimeError, match="call env.reset"):
        SolutionAgent().reset(env, {}, {})
    obs, _ = env.reset(seed=0)
    assert set(env.score_now()) == {"score", "uplift", "incidents", "kpi"}
    env.close()
    with pytest.raises(RuntimeError, match="no episode is running; call reset"):
        ChatEnv(env).score_now()               # closed: the workspace is gone
    assert unwrap_fdegym(gym.wrappers.PassiveEnvChecker(env)) is env
    with pytest.raises(TypeError, match="expected an FDEGymEnv under the wrappers, got CartPoleEnv"):
        unwrap_fdegym(gym.make("CartPole-v1"))
