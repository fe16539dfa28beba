"""Whatever the delivered folder holds — special files, names that are not UTF-8, folders deeper than
Python's recursion limit, huge files, symlinks in or out — grading and trials end with a result:
what can be copied is deployed, the rest is described, and a delivery that cannot be deployed is an
``undeployable_delivery`` incident naming the cause."""

from __future__ import annotations

import os
import shutil

import pytest

from fdegym_env import FDEGymEnv
from fdegym_env.admission.bypasses import GENERIC_BYPASSES
from fdegym_env.admission.validate import BYPASS_MAX, Job, _run_job
from fdegym_env.core.fstree import copy_tree, remove_tree, walk_tree
from fdegym_env.core.registry import load_task
from fdegym_env.grading.grade import MAX_DELIVERY_BYTES, Deployment, anchors, grade_system, score, workspace_digest
from tests.conftest import TINY

SOCKET = "python3 -c \"import socket; socket.socket(socket.AF_UNIX).bind('system/s')\""
CASES = {
    "fifo": "mkfifo system/p",
    "socket": SOCKET,
    "invalid_utf8_name": "touch system/$(printf 'bad\\377name') && mkdir system/$(printf 'dir\\376')",
    "deep_1500": "mkdir -p system/$(printf 'a/%.0s' $(seq 1500))",
    "symlinks": "ln -s /etc/passwd system/out && ln -s . system/self && ln -s nowhere system/dangling "
                "&& ln -s ../docs system/docs_link && ln -s loop2 system/loop1 && ln -s loop1 system/loop2",
}


@pytest.mark.parametrize("command", list(CASES.values()), ids=list(CASES))
def test_trial_and_submit_end_with_a_result(command):
    env = FDEGymEnv(task=TINY)
    env.reset(seed=0)
    root = env.workspace.parent
    try:
        obs, *_ = env.step({"tool": "run", "command": command, "timeout_s": 60})
        assert "[exit code 0]" in obs["text"], obs["text"]
        obs, _, _, _, info = env.step({"tool": "trial"})
        assert info["last_action_error"] is None and obs["text"].startswith("Trial day 1 of ")
        obs, _, terminated, _, info = env.step({"tool": "submit"})
        assert terminated and info["result"]["end_reason"] == "submitted"
        assert info["result"]["score"] == pytest.approx(info["result"]["uplift"] - info["result"]["contact_cost"])
    finally:
        env.close()
    assert not root.exists()


def test_a_delivery_too_large_is_an_incident_with_its_cause():
    env = FDEGymEnv(task=TINY)
    env.reset(seed=0)
    try:   # five files of 250 MB (sparse: no memory used) pass the sandbox's file-size limit, not the delivery's
        env.step({"tool": "run", "command": "for i in 1 2 3 4 5; do truncate -s 250M system/big$i; done"})
        obs, _, _, _, info = env.step({"tool": "trial"})
        assert "The trial deployment failed: system/ holds more than 1,073,741,824 bytes of files" in obs["text"]
        obs, _, terminated, _, info = env.step({"tool": "submit"})
        assert terminated
        assert info["result"]["incidents"] == [
            "undeployable_delivery: system/ holds more than 1,073,741,824 bytes of files; production takes at "
            "most that (remove large files from it)"]
        assert info["result"]["uplift"] <= 0
    finally:
        env.close()


def test_special_files_are_left_out_and_described(tmp_path):
    task = load_task(TINY)
    ws = tmp_path / "workspace"
    shutil.copytree(os.path.join(TINY, "world"), ws)
    os.mkfifo(ws / "system" / "p")
    os.mknod(ws / "system" / "s", 0o600 | 0o140000)   # a socket file
    (ws / "system" / os.fsdecode(b"bad\xffname")).write_text("x")
    with Deployment(task, ws, "auto") as d:
        assert d.not_deployed == ["system/p: named pipe, not copied", "system/s: socket, not copied"]
        assert (d.workspace / "system" / os.fsdecode(b"bad\xffname")).read_text() == "x"
        assert d.call("app.main", "handle", [1, 2]).ok


def test_digest_walks_deep_trees_and_odd_names(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        root.mkdir()
        (root / "system").mkdir()
        GENERIC_BYPASSES["deep_tree"](root, {}, ())   # 1,200 levels, a file at the bottom
        (root / os.fsdecode(b"bad\xffname")).write_text("y")
    assert workspace_digest(a) == workspace_digest(b)
    (b / os.fsdecode(b"bad\xffname")).write_text("z")
    assert workspace_digest(a) != workspace_digest(b)
    report = copy_tree(a, tmp_path / "c")
    assert report.skipped == [] and len(list(walk_tree(tmp_path / "c"))) == len(list(walk_tree(a)))
    for root in (a, b, tmp_path / "c"):
        remove_tree(root)
        assert not root.exists()


NEW_GENERIC = ["special_fifo", "special_socket", "special_device", "odd_names", "deep_tree", "huge_file", "symlinks"]


@pytest.mark.parametrize("name", NEW_GENERIC)
def test_odd_delivery_bypasses_grade_with_a_result(name, monkeypatch):
    monkeypatch.setenv("FDEGYM_GRADE_CACHE", "0")
    assert name in GENERIC_BYPASSES
    task = load_task(TINY)
    a = anchors(task, task.variant("base"))
    kpi, incidents = _run_job(Job(str(task.path), "base", name, "generic_bypass", f"generic:{name}", "base"), "auto")
    u = score(kpi, a["kpi_baseline"], a["kpi_reference"], incidents, 0.0)["final_uplift"]
    assert u <= BYPASS_MAX
    if name == "huge_file":
        assert incidents and incidents[0].startswith("undeployable_delivery:")
    else:
        assert kpi == kpi   # deployed and measured (the system as found, plus the odd files)


def test_grade_system_never_raises_on_a_tree_past_the_recursion_limit(tmp_path):
    task = load_task(TINY)
    ws = tmp_path / "workspace"
    shutil.copytree(os.path.join(TINY, "world"), ws)
    GENERIC_BYPASSES["deep_tree"](ws, {}, task.entry_points)
    out = grade_system(task, task.variant("base"), ws, "auto")
    assert out.kpi == out.kpi and MAX_DELIVERY_BYTES > 0
    remove_tree(ws)
