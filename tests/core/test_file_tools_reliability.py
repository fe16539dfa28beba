"""File tools never block, never write a partial file, and bound path depth and length; a deep tree
made through ``run`` leaves ``run``, ``reset`` and ``close`` working and no workspace behind."""

from __future__ import annotations

import json
import os
import threading

import pytest
from fdegym_env.wrappers import ChatEnv

from fdegym_env import FDEGymEnv
from fdegym_env.core import workspace as wsmod
from fdegym_env.core.owned import make_owned_dir
from tests.conftest import TINY

MAIN = "system/app/main.py"


@pytest.fixture
def env():
    e = FDEGymEnv(task=TINY)
    e.reset(seed=0)
    yield e
    e.close()


def _bytes(env, rel):
    return (env.workspace / rel).read_bytes()


@pytest.mark.parametrize("action", [
    {"tool": "write_file", "path": MAIN, "content": "\ud83d"},
    {"name": "write_file", "arguments": json.dumps({"path": MAIN, "content": "\ud83d"})},
    {"name": "write_file", "arguments": '{"path": "system/app/main.py", "content": "\\ud83d"}'},
    {"tool": "edit_file", "path": MAIN, "old": "def", "new": "\ud83d import"},
], ids=["dict", "openai_json_dumps", "openai_raw_json", "edit_new"])
def test_a_lone_surrogate_leaves_the_file_untouched(env, action):
    before = _bytes(env, MAIN)
    obs, _, _, _, info = env.step(action)
    assert "holds a lone surrogate '\\ud83d'" in info["last_action_error"]
    assert _bytes(env, MAIN) == before


def test_a_lone_surrogate_through_chat_env_is_a_tool_message(env):
    chat = ChatEnv(env)
    chat.reset(seed=0)
    before = _bytes(env, MAIN)
    call = {"id": "c1", "type": "function",
            "function": {"name": "write_file", "arguments": '{"path": "system/app/main.py", "content": "\\ud83d"}'}}
    new, *_ = chat.step({"role": "assistant", "content": None, "tool_calls": [call]})
    assert "lone surrogate" in new[0]["content"] and _bytes(env, MAIN) == before


def test_write_file_encodes_first(tmp_path):
    (tmp_path / "f.txt").write_text("kept")
    with pytest.raises(wsmod.PathError, match="lone surrogate"):
        wsmod.write_file(tmp_path, "f.txt", "x\udcff")
    assert (tmp_path / "f.txt").read_text() == "kept"


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    (tmp_path / "f.txt").write_text("kept")
    os.chmod(tmp_path / "f.txt", 0o750)

    def boom(*a, **k):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(wsmod.os, "replace", boom)
    with pytest.raises(OSError):
        wsmod.write_file(tmp_path, "f.txt", "new content")
    assert (tmp_path / "f.txt").read_text() == "kept" and os.listdir(tmp_path) == ["f.txt"]
    monkeypatch.undo()
    wsmod.write_file(tmp_path, "f.txt", "new content")
    assert (tmp_path / "f.txt").read_text() == "new content"
    assert os.stat(tmp_path / "f.txt").st_mode & 0o777 == 0o750   # the mode survives the replace


def _returns_within(fn, seconds=20):
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("v", fn()), daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "the tool blocked"
    return out["v"]


@pytest.mark.parametrize("make,kind", [
    ("mkfifo p", "named pipe"),
    ("python3 -c \"import socket; socket.socket(socket.AF_UNIX).bind('p')\"", "socket"),
])
@pytest.mark.parametrize("tool", ["read_file", "write_file", "edit_file"])
def test_file_tools_refuse_special_files_without_blocking(env, make, kind, tool):
    env.step({"tool": "run", "command": make})
    args = {"read_file": {}, "write_file": {"content": "x"}, "edit_file": {"old": "a", "new": "b"}}[tool]
    obs, _, _, _, info = _returns_within(lambda: env.step({"tool": tool, "path": "p", **args}))
    assert info["last_action_error"] == (f"'p' is a {kind}, not a regular file; {tool} only works on regular files "
                                         "(inspect or remove it with the run tool, e.g. `ls -l`, `rm`).")
    obs, _, _, _, info = _returns_within(lambda: env.step({"tool": "list_files", "path": "p"}))
    assert obs["text"] == f"p  {kind}"
    obs, _, _, _, info = _returns_within(lambda: env.step({"tool": "list_files"}))
    assert info["last_action_error"] is None and "\np " in obs["text"]


def test_a_2000_level_deep_write_is_refused(env):
    obs, _, _, _, info = env.step({"tool": "write_file", "path": "a/" * 2000 + "f", "content": "x"})
    assert "the file tools take at most 1,024" in info["last_action_error"]
    obs, _, _, _, info = env.step({"tool": "write_file", "path": "a/" * 100 + "f", "content": "x"})
    assert info["last_action_error"] == ("The path is 101 folder levels deep; the file tools go at most 64 levels "
                                         "deep. Give a shallower path.")
    obs, _, _, _, info = env.step({"tool": "read_file", "path": "n" * 300})
    assert "is longer than 255 bytes" in info["last_action_error"]
    assert not (env.workspace / "a").exists()


DEEP = "mkdir -p $(printf 'a/%.0s' $(seq 1500)) && echo made"   # 1,500 levels, as an agent's shell makes them


def test_a_deep_tree_made_by_run_leaves_the_env_usable(tmp_path):
    e = FDEGymEnv(task=TINY)
    e.reset(seed=0)
    root = e.workspace.parent
    obs, *_ = e.step({"tool": "run", "command": DEEP, "timeout_s": 120})
    assert "made" in obs["text"]
    obs, *_ = e.step({"tool": "run", "command": "echo still here"})
    assert "still here" in obs["text"]
    e.reset(seed=1)   # reset removes the deep workspace
    assert not root.exists()
    root = e.workspace.parent
    e.step({"tool": "run", "command": DEEP, "timeout_s": 120})
    obs, _, terminated, _, info = e.step({"tool": "submit"})
    assert terminated and "result" in info
    e.close()
    assert not root.exists()


def test_remove_workspace_handles_a_tree_deeper_than_path_max(tmp_path):
    root = make_owned_dir("fdegym-x", tmp_path)   # a workspace root this process made
    fd = os.open(root, os.O_RDONLY)
    for _ in range(2100):   # 2100 levels of a 2-byte name: past PATH_MAX (4096)
        os.mkdir("dd", dir_fd=fd)
        nfd = os.open("dd", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nfd
    os.close(fd)
    wsmod.remove_workspace(root)
    assert not root.exists()
