"""A live episode's workspace is deleted by nobody but its own env: ownership markers, the sweep of
dead owners' folders, and the end of an episode whose workspace vanished anyway."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fdegym_env.core import owned
from fdegym_env.core.env import FDEGymEnv
from tests.conftest import TINY

REPO = Path(__file__).resolve().parents[2]


def _in_other_process(code: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout, env={**os.environ, "FDEGYM_TEST": "1"})


def test_owned_folder_is_removed_by_its_creator_only(tmp_path):
    mine = owned.make_owned_dir("fdegym-own-", tmp_path)
    marker = owned.read_marker(mine)
    assert marker["pid"] == os.getpid() and owned.owner_alive(marker)
    theirs = tmp_path / "fdegym-theirs-1"
    theirs.mkdir()
    (theirs / "keep.txt").write_text("x")
    assert owned.remove_owned(theirs) is False and (theirs / "keep.txt").exists()
    assert owned.remove_owned(mine) is True and not mine.exists()


def test_a_forked_child_cannot_remove_its_parents_folders(tmp_path):
    mine = owned.make_owned_dir("fdegym-own-", tmp_path)
    pid = os.fork()
    if pid == 0:   # the child: the folder is the parent's
        os._exit(0 if owned.remove_owned(mine) is False and mine.exists() else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert mine.exists()
    owned.remove_owned(mine)


def test_sweep_removes_only_folders_of_dead_owners(tmp_path):
    dead = _in_other_process(f"""
        from fdegym_env.core import owned
        import os
        d = owned.make_owned_dir("fdegym-dead-", {str(tmp_path)!r})
        print(d)
        os._exit(0)   # dies without cleaning up
    """)
    left = Path(dead.stdout.strip())
    assert left.is_dir(), dead.stderr
    live = owned.make_owned_dir("fdegym-live-", tmp_path)
    unmarked = tmp_path / "fdegym-unmarked-x"
    unmarked.mkdir()
    forged = tmp_path / "fdegym-reused-pid"   # our pid, but another start time: a reused pid is dead
    forged.mkdir()
    (forged / owned.MARKER).write_text(json.dumps({"pid": os.getpid(), "start": "1", "token": "t", "run": "",
                                                   "ns": owned._pid_namespace()}))
    elsewhere = tmp_path / "fdegym-other-namespace"   # a pid of another namespace cannot be checked: kept
    elsewhere.mkdir()
    (elsewhere / owned.MARKER).write_text(json.dumps({"pid": 999_999_999, "start": "1", "token": "t", "run": "",
                                                      "ns": "pid:[1]"}))
    gone = owned.sweep_dead(tmp_path)
    assert sorted(gone) == sorted([left, forged])
    assert live.is_dir() and unmarked.is_dir() and elsewhere.is_dir()
    owned.remove_owned(live)


def test_remove_tree_handles_depth_and_unreadable_folders(tmp_path):
    d = owned.make_owned_dir("fdegym-deep-", tmp_path)
    p = d
    for _ in range(1100):   # deeper than the recursion limit
        p = p / "d"
        os.mkdir(p)
    os.chmod(d / "d", 0o000)
    assert owned.remove_owned(d) and not d.exists()


def test_exit_hook_removes_what_a_process_still_holds(tmp_path):
    r = _in_other_process(f"""
        from fdegym_env.core import owned
        print(owned.make_owned_dir("fdegym-held-", {str(tmp_path)!r}))
    """)
    assert r.returncode == 0, r.stderr
    assert not Path(r.stdout.strip()).exists()


HOLD_OPEN = """
    import sys, time
    from fdegym_env.core.env import FDEGymEnv
    env = FDEGymEnv({tiny!r}, sandbox="auto")
    env.reset(seed=0)
    env.step({{"tool": "run", "command": "echo started > system/probe.txt"}})
    print(env.workspace, flush=True)
    sys.stdin.readline()      # hold the episode open until told to go on
    obs, r, term, trunc, info = env.step({{"tool": "read_file", "path": "system/probe.txt"}})
    assert info["last_action_error"] is None, info["last_action_error"]
    obs, r, term, trunc, info = env.step({{"tool": "run", "command": "ls system/probe.txt"}})
    assert "getcwd" not in obs["text"] and "No such file" not in obs["text"], obs["text"]
    obs, r, term, trunc, info = env.step({{"tool": "submit"}})
    print("END", info["result"]["end_reason"], flush=True)
    env.close()
"""

# What the suite runs in parallel: grading and its deploy pool, a crashing batch worker, sandbox
# probes, the workbench server's start and shutdown, and the sweep of dead owners' folders.
PARALLEL = """
    import os, tempfile
    from pathlib import Path
    import fdegym_env
    from fdegym_env.core import owned
    from fdegym_env.core.paths import episodes_dir, scratch_dir
    from fdegym_env.core.registry import load_task
    from fdegym_env.grading.grade import grade_system, _POOL
    from fdegym_env.agents import make_agent, run_episode
    from fdegym_env.core.env import FDEGymEnv
    task = load_task({tiny!r})
    v = task.variant("base")
    for _ in range(3):
        env = FDEGymEnv({tiny!r}, sandbox="auto")
        run_episode(env, make_agent("reference"), seed=1)
        env.close()
    _POOL.close()
    from fdegym_env.sandbox.probes import run_probes
    run_probes("auto")
    from fdegym_env.web.app import create_app
    from starlette.testclient import TestClient
    with TestClient(create_app(runs_dir=tempfile.mkdtemp(), sandbox="auto")) as client:
        client.get("/")
    owned.sweep_dead(episodes_dir())
    owned.sweep_dead(scratch_dir())
    owned.sweep_dead(tempfile.gettempdir())
    pid = os.fork()
    if pid == 0:   # a worker that dies in the middle of an episode (the batch runner's crash tests)
        env = FDEGymEnv({tiny!r}, sandbox="auto"); env.reset(seed=2)
        os._exit(13)
    os.waitpid(pid, 0)
    owned.sweep_dead(episodes_dir())
    print("PARALLEL DONE")
"""


def test_live_workspace_survives_what_the_suite_runs_in_parallel():
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(HOLD_OPEN.format(tiny=TINY))],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=REPO, env={**os.environ, "FDEGYM_TEST": "1"})
    try:
        ws = Path(holder.stdout.readline().strip())
        assert ws.is_dir(), holder.stderr.read() if holder.poll() is not None else ws
        before = sorted(str(p.relative_to(ws)) for p in ws.rglob("*"))
        other = _in_other_process(PARALLEL.format(tiny=TINY), timeout=600)
        assert "PARALLEL DONE" in other.stdout, other.stderr[-3000:]
        assert ws.is_dir() and (ws / "system" / "probe.txt").read_text() == "started\n"
        assert sorted(str(p.relative_to(ws)) for p in ws.rglob("*")) == before
        out, err = holder.communicate("go\n", timeout=300)
        assert holder.returncode == 0, err[-3000:]
        assert "END submitted" in out
    finally:
        if holder.poll() is None:
            holder.kill()


def test_workspace_deleted_under_a_live_env_ends_as_workspace_lost():
    env = FDEGymEnv(TINY)
    env.reset(seed=0)
    obs, r, term, trunc, info = env.step({"tool": "contact", "to": "x", "message": "hi"})
    cost = info["contact_cost"]
    shutil.rmtree(env.workspace.parent)    # what an outside process did
    obs, r, term, trunc, info = env.step({"tool": "read_file", "path": "TASK.md"})
    assert term and info["result"]["end_reason"] == "workspace_lost"
    assert "workspace folder no longer exists" in obs["text"]
    res = info["result"]
    assert res["kpi"] == res["kpi_baseline"] and res["uplift"] == 0.0 and res["incidents"] == []
    assert res["score"] == pytest.approx(-cost)
    env.close()


def test_contact_cost_is_a_float_from_reset():
    env = FDEGymEnv(TINY)
    _, info = env.reset(seed=0)
    assert type(info["contact_cost"]) is float and info["contact_cost"] == 0.0
    _, _, _, _, info = env.step({"tool": "list_files"})
    assert type(info["contact_cost"]) is float
    _, _, _, _, info = env.step({"tool": "submit"})
    assert type(info["result"]["contact_cost"]) is float
    env.close()


def test_a_forked_child_closing_an_inherited_env_leaves_the_parents_episode_alone():
    env = FDEGymEnv(TINY, sandbox="bwrap")
    env.reset(seed=0)
    env.step({"tool": "run", "command": "echo kept > system/x.txt"})
    pid = os.fork()
    if pid == 0:   # e.g. a fork-started vector-env worker or daemon dropping its copy of the env
        try:
            env.close()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert (env.workspace / "system" / "x.txt").read_text() == "kept\n"
    obs, _, _, _, info = env.step({"tool": "run", "command": "cat system/x.txt"})
    assert "kept" in obs["text"] and env.sandbox.restarts == 0, obs["text"]
    env.close()
