"""A sandbox lives as long as its owner, not as long as the thread that started it; a sandbox lost
for a reason of ours is retried, never graded as the delivery's crash, never cached."""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

from fdegym_env.core import owned
from fdegym_env.core.env import FDEGymEnv
from fdegym_env.core.errors import InfrastructureError
from fdegym_env.core.paths import episodes_dir
from fdegym_env.core.registry import load_task
from fdegym_env.grading import grade
from fdegym_env.sandbox.bwrap import BwrapSandbox
from fdegym_env.sandbox.executor import ExecutorClient, ExecutorDied

TINY = Path(__file__).resolve().parents[1] / "fixtures" / "tiny_task"
ACTIONS = [{"tool": "run", "command": "ls system"}, {"tool": "trial"}]


def _in_thread(fn):
    box = {}

    def target():
        box["value"] = fn()
    t = threading.Thread(target=target)
    t.start()
    t.join()
    time.sleep(0.3)   # a killed sandbox has died by now
    return box["value"]


def test_bwrap_sandbox_outlives_the_thread_that_started_it():
    root = owned.make_owned_dir("fdegym-test-", episodes_dir())
    (root / "workspace").mkdir()
    sb = BwrapSandbox()
    _in_thread(lambda: sb.start(root / "workspace"))
    try:
        assert sb._running(), "the sandbox died with the thread that started it"
        r = sb.run("echo alive")
        assert (r.exit_code, r.stdout, sb.restarts) == (0, "alive\n", 0)
    finally:
        sb.close()
        owned.remove_owned(root)


def _episode(threaded: bool) -> tuple[dict, list]:
    grade._GRADE_CACHE.clear()
    grade._TRIAL_CACHE.clear()
    env = FDEGymEnv(str(TINY), sandbox="bwrap")

    def begin():
        env.reset(seed=4)
        return [env.step(a)[4] for a in ACTIONS]
    infos = _in_thread(begin) if threaded else begin()
    pooled = [sb for entries in grade._POOL._idle.values() for _, sb in entries]
    alive = [sb._running() for sb in pooled] + [env.sandbox._running()]
    restarts = env.sandbox.restarts
    done = {}
    t = threading.Thread(target=lambda: done.update(info=env.step({"tool": "submit"})[4]))  # another thread
    t.start()
    t.join()
    env.close()
    return done["info"]["result"], [alive, restarts, [i["last_action_error"] for i in infos]]


def test_sandbox_and_trial_from_an_exited_thread_then_submit_from_another():
    threaded, (alive, restarts, errors) = _episode(threaded=True)
    assert all(alive) and restarts == 0, "sandboxes died with the thread that started them"
    assert errors == [None, None]
    assert threaded["incidents"] == [] and threaded["end_reason"] == "submitted"
    single, _ = _episode(threaded=False)
    assert threaded["score"] == single["score"] and threaded["kpi"] == single["kpi"]


def _kill_executor(sandbox) -> None:
    os.killpg(sandbox._proc.pid, signal.SIGKILL)
    sandbox._proc.wait(timeout=5)


@pytest.fixture
def tiny_ws(tmp_path):
    ws = tmp_path / "workspace"
    shutil.copytree(TINY / "world", ws)
    return ws


def test_a_sandbox_killed_from_outside_is_retried_not_an_incident(tiny_ws, monkeypatch):
    monkeypatch.setenv("FDEGYM_PROCESS", "persistent")
    task = load_task(str(TINY))
    with grade.Deployment(task, tiny_ws, "bwrap") as d:
        assert d.call("app.main", "handle", [1, 2]).ok
        _kill_executor(d.sandbox)   # what the death of a starting thread did
        r = d.call("app.main", "handle", [1, 2])
        assert r.ok and d.failures == [], d.failures


def test_a_sandbox_that_keeps_dying_raises_and_is_not_cached(tiny_ws, monkeypatch):
    task = load_task(str(TINY))
    variant = task.variant("base")
    grade._GRADE_CACHE.clear()
    def dying(self, *args, **kwargs):   # every call: the executor goes away mid-call
        raise ExecutorDied("executor closed its output")
    monkeypatch.setattr(ExecutorClient, "request_raw", dying)
    monkeypatch.setattr(BwrapSandbox, "run", lambda self, *a, **k: pytest.fail("per_call fallback used"))
    monkeypatch.setenv("FDEGYM_PROCESS", "persistent")
    with pytest.raises(InfrastructureError, match="not the delivery's"):
        grade.grade_system(task, variant, tiny_ws, "bwrap")
    assert not grade._GRADE_CACHE
    monkeypatch.undo()
    outcome = grade.grade_system(task, variant, tiny_ws, "bwrap")
    assert outcome.incidents == []


def test_an_infrastructure_failure_at_submit_leaves_the_episode_open_for_a_retry(monkeypatch):
    grade._GRADE_CACHE.clear()
    monkeypatch.setenv("FDEGYM_PROCESS", "persistent")
    env = FDEGymEnv(str(TINY), sandbox="bwrap")
    env.reset(seed=0)
    grade.anchors(env.task, env.variant, "bwrap")   # measured before the sandbox starts failing

    def dying(self, *args, **kwargs):
        raise ExecutorDied("executor closed its output")
    with monkeypatch.context() as m:
        m.setattr(ExecutorClient, "request_raw", dying)
        with pytest.raises(InfrastructureError):
            env.step({"tool": "submit"})
    assert not grade._GRADE_CACHE
    _, _, term, _, info = env.step({"tool": "submit"})
    assert term and info["result"]["incidents"] == [] and info["result"]["end_reason"] == "submitted"
    env.close()
