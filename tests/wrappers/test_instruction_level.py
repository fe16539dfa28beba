"""InstructionLevel: only the brief changes with the level; world, people and grader do not."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from fdegym_env.agents import make_agent, run_episode
from fdegym_env.wrappers import InstructionLevel

from fdegym_env import FDEGymEnv
from fdegym_env.core.task import LEVELS
from tests.conftest import TINY, task_params

SANDBOX = os.environ.get("FDEGYM_TEST_SANDBOX", "auto")


def every_task():
    """Every registered task (slow: they grade real scenarios) plus the tiny fixture (fast)."""
    return [pytest.param(*p.values, id=p.id, marks=() if p.id == "tiny_task" else (pytest.mark.slow,))
            for p in task_params()]


def _snapshot(ws: Path) -> dict[str, bytes]:
    return {p.relative_to(ws).as_posix(): p.read_bytes() for p in sorted(ws.rglob("*"))
            if p.is_file() and p.name != "TASK.md" and "__pycache__" not in p.parts}


@pytest.mark.parametrize("task", every_task())
def test_world_and_people_identical_across_levels(task):
    seen = {}
    for level in LEVELS:
        env = InstructionLevel(FDEGymEnv(task=task, sandbox=SANDBOX), level)
        try:
            obs, info = env.reset(seed=3)
            u = env.unwrapped
            assert info["level"] == level
            people = u.people.directory()
            reply = None
            if people:
                first = people[0]["id"]
                _, r, *_ , sinfo = env.step({"tool": "contact", "to": first,
                                             "message": "What should I know about how this system is used?"})
                reply = (sinfo.get("last_action_error"), r, u.transcript[-1])
            seen[level] = {"world": _snapshot(u.workspace), "people": people, "reply": reply,
                           "brief": (u.workspace / "TASK.md").read_text(encoding="utf-8"),
                           "variant": u.variant.params}
        finally:
            env.close()
    base = seen["L0"]
    for level in LEVELS[1:]:
        assert seen[level]["world"] == base["world"], f"{level}: the world differs from L0"
        assert seen[level]["people"] == base["people"], f"{level}: the directory differs from L0"
        assert seen[level]["reply"] == base["reply"], f"{level}: a stakeholder answers differently than at L0"
        assert seen[level]["variant"] == base["variant"]
    assert len({s["brief"] for s in seen.values()}) > 1, "the briefs should differ between levels"


@pytest.mark.parametrize("task", every_task())
def test_grader_identical_across_levels(task):
    scores = {}
    for level in ("L0", "L3"):
        env = InstructionLevel(FDEGymEnv(task=task, sandbox=SANDBOX), level)
        try:
            r = run_episode(env, make_agent("reference"), seed=0)
        finally:
            env.close()
        assert r["level"] == level
        scores[level] = (r["score"], r["kpi"], r["kpi_baseline"], r["kpi_reference"], r["incidents"])
    assert scores["L0"] == scores["L3"]


def test_bad_level_and_conflicting_option():
    env = FDEGymEnv(task=TINY, sandbox=SANDBOX)
    with pytest.raises(ValueError, match=r"level must be one of L0, L1, L2, L3, got 'L9'"):
        InstructionLevel(env, "L9")
    wrapped = InstructionLevel(env, "L1")
    with pytest.raises(ValueError, match=r"InstructionLevel\('L1'\) got reset\(options=\{'level': 'L2'\}\)"):
        wrapped.reset(seed=0, options={"level": "L2"})
    obs, info = wrapped.reset(seed=0, options={"level": "L1"})
    assert info["level"] == "L1"
    wrapped.close()
