"""Task folders are real packages: every file is one module object per process, and a
module importing a sibling gets the very object ``Task.module`` returns."""

from __future__ import annotations

import ast
import shutil
import sys

import pytest

from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.core.task import Task

HARNESS = ("grader", "trial", "sampler", "traffic")


def _modules(task) -> list[str]:
    names = [p.stem for p in task.path.glob("*.py") if p.stem != "__init__"]
    return names + [f"solutions/{s}" for s in task.solution_names() if task.has_module(f"solutions/{s}")]


def _sibling_imports(task, name: str) -> list[tuple[str, str]]:
    """(attribute in the importing module, sibling module name) for every ``from . import x [as y]``."""
    tree = ast.parse((task.path / f"{name}.py").read_text(encoding="utf-8"))
    depth = name.count("/") + 1
    base = name.split("/")[:-1]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level and node.col_offset == 0 and node.module is None:
            prefix = base[:len(base) - (node.level - 1)] if node.level <= depth else None
            for a in node.names:
                if prefix is not None and (task.path / "/".join([*prefix, a.name + ".py"])).is_file():
                    out.append((a.asname or a.name, "/".join([*prefix, a.name])))
    return out


@pytest.mark.parametrize("task_id", list_tasks())
def test_one_module_object_per_file(task_id):
    task = load_task(task_id)
    assert task.package in sys.modules and sys.modules[task.package].__path__ == [str(task.path.resolve())]
    checked = 0
    for name in _modules(task):
        mod = task.module(name)
        assert mod is task.module(name)
        assert mod.__name__ == f"{task.package}.{name.replace('/', '.')}"
        assert sys.modules[mod.__name__] is mod
        for attr, sibling in _sibling_imports(task, name):
            assert getattr(mod, attr) is task.module(sibling), f"{name}.{attr} is not the loaded {sibling}"
            checked += 1
    uses = [n for n in HARNESS if task.has_module(n)]
    assert checked or len(uses) == 1, f"{task_id}: no harness module imports a sibling; expected relative imports"
    for name in _modules(task):
        src = (task.path / f"{name}.py").read_text(encoding="utf-8")
        assert "spec_from_file_location" not in src or name == "traffic", \
            f"{name}.py loads a task file by path; fix: a relative import (from . import x)"


def test_clinic_inbox_identity():
    t = load_task("clinic_inbox")
    assert t.module("trial").G is t.module("grader")
    assert t.module("sampler").G is t.module("grader")
    assert t.module("sampler").T is t.module("traffic")


def test_same_id_in_two_folders_never_shares_modules(tmp_path):
    src = load_task("helpdesk_tutorial").path
    copy = tmp_path / "helpdesk_tutorial"
    shutil.copytree(src, copy, ignore=shutil.ignore_patterns("__pycache__"))
    other = Task.load(copy)
    assert other.package != load_task("helpdesk_tutorial").package
    assert other.module("grader") is not load_task("helpdesk_tutorial").module("grader")
    assert other.module("grader").sim is other.module("sim")
    assert Task.load(copy).module("grader") is other.module("grader")   # one object per file per process
