"""Task loading: clear errors that name the file and field; the registry's "did you mean"."""

from __future__ import annotations

import shutil
from pathlib import Path

import gymnasium as gym
import pytest
import yaml

import fdegym_env
from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.core.task import Task, TaskFormatError
from tests.conftest import TINY


def _copy(tmp_path):
    dst = tmp_path / "tiny_task"
    shutil.copytree(TINY, dst)
    return dst


def test_every_shipped_task_is_registered():
    for tid in list_tasks():
        assert load_task(tid).gym_id in gym.registry


def test_unknown_task_id_suggests():
    with pytest.raises(ValueError, match="Did you mean"):
        load_task(list_tasks()[0][:-1] + "x" if list_tasks() else "tiny_tsk")


def test_missing_field_names_file_and_field(tmp_path):
    d = _copy(tmp_path)
    data = yaml.safe_load((d / "task.yaml").read_text())
    del data["metric"]
    (d / "task.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(TaskFormatError, match=r"task\.yaml: metric: missing field"):
        Task.load(d)


def test_wrong_type_names_field(tmp_path):
    d = _copy(tmp_path)
    data = yaml.safe_load((d / "task.yaml").read_text())
    data["entry_points"] = "app.main"
    (d / "task.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(TaskFormatError, match=r"task\.yaml: entry_points: Input should be a valid list \(got 'app\.main'\)"):
        Task.load(d)


def test_unfilled_placeholder_is_an_error(tmp_path):
    d = _copy(tmp_path)
    (d / "briefs" / "L0.md").write_text("Rule: {{no_such_param}}")
    t = Task.load(d)
    with pytest.raises(TaskFormatError, match=r"L0\.md: placeholder \{\{no_such_param\}\}"):
        t.brief("L0", t.variant("base"))


def test_people_unknown_field_is_named(tmp_path):
    d = _copy(tmp_path)
    text = (d / "people.yaml").read_text().replace("patience: 3", "patients: 3")
    (d / "people.yaml").write_text(text)
    t = Task.load(d)
    with pytest.raises(TaskFormatError, match=r"people\[0\] \(ops\)\.patients: unknown field\. Did you mean 'patience'\?"):
        t.people_spec(t.variant("base"))


def test_named_variant_needs_angle(tmp_path):
    d = _copy(tmp_path)
    (d / "variants.yaml").write_text("base:\n  params: {threshold: 1}\nother:\n  params: {threshold: 2}\n")
    with pytest.raises(TaskFormatError, match="other: field 'angle'"):
        Task.load(d)


def test_variant_params_inherit_from_base():
    t = Task.load(TINY)
    assert t.variant("high").params == {"threshold": 70}
    assert t.variant("base").key != t.variant("high").key


def test_sample_variant_requires_sampler():
    t = Task.load(TINY)
    with pytest.raises(ValueError, match="no sampler.py"):
        t.variant("sample:3")


def test_sampled_variants_are_drawn_once_and_the_cache_is_bounded(monkeypatch):
    task = Task.load(load_task("helpdesk_tutorial").path)       # a fresh Task: its own cache
    sampler = task.module("sampler")
    calls = []
    draw = sampler.sample
    monkeypatch.setattr(sampler, "sample", lambda rng: calls.append(1) or draw(rng))
    first = task.variant("sample:7")
    assert task.variant("sample:7") is first and len(calls) == 1
    for n in range(fdegym_env.core.task.SAMPLE_CACHE + 1):
        task.variant(f"sample:{1000 + n}")
    assert len(task._samples) == fdegym_env.core.task.SAMPLE_CACHE
    assert task.variant("sample:7").params == first.params and len(calls) == fdegym_env.core.task.SAMPLE_CACHE + 3


def test_readme_task_table_matches_the_shipped_tasks():
    """The README's Tasks table lists every shipped task with its named-variant count and sampler."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`"): line.split("|")[4].strip()
            for line in readme.splitlines() if line.startswith("| `FDEGym/")}
    ids = {t: fdegym_env.core.registry.gym_id(t) for t in list_tasks()}
    assert set(rows) == set(ids.values())
    for t, gid in ids.items():
        task = load_task(t)
        cell = rows[gid]
        assert cell.startswith(f"base + {len(task.variants) - 1} named"), (t, cell)
        assert ("`sample:N`" in cell) == task.has_sampler, (t, cell)


@pytest.mark.parametrize("module, function, signature, anchor", [
    ("grader", "grade", "grade(deploy, params, traffic)", "graderpy"),
    ("traffic", "held_out", "held_out(params, seed)", "trafficpy"),
    ("trial", "run", "run(deploy, params, day, traffic)", "trialpy-optional"),
    ("sampler", "sample", "sample(rng)", "samplerpy-optional"),
])
def test_a_task_module_without_its_function_fails_at_load_naming_file_and_function(
        tmp_path, module, function, signature, anchor):
    d = _copy(tmp_path)
    if module == "sampler":
        (d / "sampler.py").write_text("def draw(rng):\n    return {'angle': 'x', 'params': {}}\n")
    else:
        src = (d / f"{module}.py").read_text()
        assert f"def {function}(" in src
        (d / f"{module}.py").write_text(src.replace(f"def {function}(", f"def {function}_renamed("))
    with pytest.raises(TaskFormatError) as e:
        Task.load(d)                                # read from the source: before any task code runs
    assert str(e.value) == (f"{d / module}.py has no function {signature}: every {module}.py must define it "
                            f"(docs/task_format.md#{anchor})")


@pytest.mark.parametrize("module, function", [("grader", "grade"), ("traffic", "held_out"), ("trial", "run")])
def test_a_task_module_whose_function_is_not_callable_fails_when_imported(tmp_path, module, function):
    d = _copy(tmp_path)
    (d / f"{module}.py").write_text((d / f"{module}.py").read_text() + f"\n{function} = None\n")
    task = Task.load(d)                             # the name is bound: only importing can tell
    with pytest.raises(TaskFormatError, match=rf"{module}\.py has no function {function}\("):
        task.preload()
    from fdegym_env.core.env import FDEGymEnv
    with pytest.raises(TaskFormatError, match=rf"{module}\.py has no function {function}\("):
        FDEGymEnv(task=task, sandbox="none")                   # the env preloads: fails when built, not at submit


def test_grading_with_a_broken_grader_raises_instead_of_scoring_nan(tmp_path):
    from fdegym_env.grading.grade import grade_system
    d = _copy(tmp_path)
    (d / "grader.py").write_text((d / "grader.py").read_text() + "\ngrade = None\n")
    task = Task.load(d)
    with pytest.raises(TaskFormatError, match=r"grader\.py has no function grade\(deploy, params, traffic\)"):
        grade_system(task, task.variant("base"), d / "world", "none")


def test_a_task_module_that_is_not_python_is_named_at_load(tmp_path):
    d = _copy(tmp_path)
    (d / "grader.py").write_text("def grade(deploy, params, traffic)\n    return {}\n")
    with pytest.raises(TaskFormatError, match=r"grader\.py:1: not valid Python"):
        Task.load(d)


def test_a_solution_module_without_apply_is_named(tmp_path):
    d = _copy(tmp_path)
    sol = next(p for p in sorted((d / "solutions").glob("*.py")) if p.stem != "__init__")
    sol.write_text(sol.read_text().replace("def apply(", "def apply_renamed("))
    with pytest.raises(TaskFormatError, match=rf"{sol.stem}\.py has no function apply\(ws, params\): "
                                              rf"every solutions/\*\.py must define it"):
        Task.load(d).module(f"solutions/{sol.stem}")
