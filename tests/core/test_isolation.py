"""From inside the sandbox, nothing that decides the score can be read (docs/design.md, Instruction levels and Sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest

import fdegym_env
from fdegym_env.core.env import FDEGymEnv
from fdegym_env.core.paths import cache_dir
from fdegym_env.core.registry import load_task
from tests.conftest import task_params


@pytest.mark.parametrize("task", task_params())
def test_task_files_package_and_caches_are_invisible(task):
    env = FDEGymEnv(task=task)
    env.reset(seed=0)
    t = load_task(task)
    package = Path(fdegym_env.__file__).parent
    secrets = [t.path, t.path / "grader.py", t.path / "traffic.py", t.path / "solutions", package,
               package / "grading.py", cache_dir(), env.workspace.parent, Path.home()]
    for p in secrets:
        obs, *_ = env.step({"tool": "run", "command": f"ls -la '{p}' 2>&1; cat '{p}' 2>&1 | head -3"})
        text = obs["text"]
        assert "No such file or directory" in text, (p, text)
    obs, *_ = env.step({"tool": "run", "command": "python3 -c 'import fdegym_env' 2>&1; echo rc=$?"})
    assert "ModuleNotFoundError" in obs["text"]
    # Task files by name anywhere, and grader code by content outside /usr (the host's read-only /usr:
    # a content grep of its gigabytes ran into the command's time limit, so it never finished).
    obs, *_ = env.step({"tool": "run", "timeout_s": 120, "command":
                        "find / -path /proc -prune -o \\( -name grader.py -o -name truth.yaml -o -name variants.yaml "
                        "-o -name people.yaml \\) -print 2>/dev/null | head; grep -rl 'def grade' / --exclude-dir=proc "
                        "--exclude-dir=sys --exclude-dir=usr 2>/dev/null | head; echo search-finished"})
    assert "search-finished" in obs["text"], obs["text"]
    found = [line for line in obs["text"].splitlines()[1:] if line.startswith("/")]   # line 0 echoes the command
    assert found == [], found
    env.close()


def test_workspace_is_the_only_writable_place():
    from tests.conftest import TINY
    env = FDEGymEnv(task=TINY)
    env.reset(seed=0)
    obs, *_ = env.step({"tool": "run", "command": "touch /usr/x 2>&1; touch /etc/x 2>&1; touch ok && echo wrote"})
    assert "Read-only file system" in obs["text"] and "wrote" in obs["text"]
    assert (env.workspace / "ok").exists()
    env.close()
