"""menu.yaml plans: every task with a menu declares one per named variant; validate grades it and
a missing or stale plan is a failing row that says what to fix."""

from __future__ import annotations

import math
import shutil

import pytest
import yaml

from fdegym_env.admission.validate import Job, _check, _run_job
from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.core.task import Task
from fdegym_env.tasklib import menu

MENU_TASKS = [t for t in list_tasks() if (load_task(t).path / "menu.yaml").is_file()]


@pytest.mark.parametrize("task_id", MENU_TASKS)
def test_every_named_variant_has_a_plan_of_apply_items(task_id):
    task = load_task(task_id)
    apply_refs = {menu.item_ref(i) for i in menu.apply_items(task)}
    for v in task.variants:
        refs = menu.plan(task, v)
        assert refs, f"{task_id}: menu.yaml has no plan for {v!r}"
        assert set(refs) <= apply_refs, f"{task_id}/{v}: plan names non-apply items {set(refs) - apply_refs}"


def _copy(tmp_path, plans):
    src = load_task("helpdesk_tutorial").path
    folder = tmp_path / "helpdesk_tutorial"
    shutil.copytree(src, folder, ignore=shutil.ignore_patterns("__pycache__"))
    data = yaml.safe_load((folder / "menu.yaml").read_text())
    data["plans"] = plans
    (folder / "menu.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return Task.load(folder)


def test_plan_grades_and_missing_or_stale_plans_fail_with_a_fix(tmp_path):
    task = _copy(tmp_path, {"base": ["fix_r15_field_ops_p2", "tidy_handheld_matching"],
                            "night_pick": ["fix_r15_field_ops_p2", "fix_r15_field_ops_p1"]})
    ref = str(task.path)
    kpi, inc = _run_job(Job(ref, "base", "menu_plan", "menu", "menu:base", "base"), "none")
    assert inc == [] and not math.isnan(kpi)
    kpi, inc = _run_job(Job(ref, "vendor_desk", "menu_plan", "menu", "menu:vendor_desk", "vendor_desk"), "none")
    assert math.isnan(kpi) and inc[0].startswith("no_menu_plan:") and "plans: {vendor_desk:" in inc[0]
    kpi, inc = _run_job(Job(ref, "night_pick", "menu_plan", "menu", "menu:night_pick", "night_pick"), "none")
    assert math.isnan(kpi) and inc[0].startswith("menu_plan_failed:") and "does not occur" in inc[0]
    kpi, inc = _run_job(Job(ref, "base", "generic:return_none", "generic_bypass", "generic:return_none", "base"), "none")
    assert inc and not inc[0].startswith(("no_menu_plan", "menu_plan_failed"))   # other jobs never read plans
    check, ok = _check("menu", task.variant("base"), "menu_plan", 0.9, [])
    assert check == "menu plan >= 0.95" and not ok


def test_plan_item_typo_gets_did_you_mean(tmp_path):
    task = _copy(tmp_path, {"base": ["fix_r15_field_ops_p3"]})
    with pytest.raises(ValueError, match="Did you mean 'fix_r15_field_ops_p"):
        menu.apply(task, menu.plan(task, "base"), tmp_path)


def _with_apply_item(tmp_path):
    """The tutorial with one extra menu item whose change is kept as solutions/menu/<name>.patch, and
    one kept as an overlay folder."""
    import difflib
    src = load_task("helpdesk_tutorial").path
    folder = tmp_path / "helpdesk_tutorial"
    shutil.copytree(src, folder, ignore=shutil.ignore_patterns("__pycache__"))
    readme = (folder / "world" / "system" / "README.md")
    before = readme.read_text().splitlines(keepends=True)
    after = list(before)
    after[1:2] = ["EDITED BY A MENU PATCH\n"]
    after.append("appended at the end\n")
    (folder / "solutions" / "menu").mkdir()
    (folder / "solutions" / "menu" / "readme_note.patch").write_text("".join(
        difflib.unified_diff(before, after, "a/system/README.md", "b/system/README.md")))
    (folder / "solutions" / "menu" / "new_notes" / "docs").mkdir(parents=True)
    (folder / "solutions" / "menu" / "new_notes" / "docs" / "notes.md").write_text("hello\n")
    data = yaml.safe_load((folder / "menu.yaml").read_text())
    data["actions"] += [{"label": "apply: readme note", "apply": "readme_note"},
                        {"label": "apply: new notes", "apply": "new_notes"}]
    (folder / "menu.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return folder, "".join(after)


def test_apply_items_expand_to_the_tool_calls_that_make_the_kept_change(tmp_path):
    from fdegym_env.core import workspace as wsmod
    folder, want = _with_apply_item(tmp_path)
    task = Task.load(folder)                                       # schema accepts `apply:`
    assert "menu" not in task.solution_names()                     # solutions/menu/ is not a solution
    by_label = {i["label"]: i for i in menu.items(task)}
    patch_steps = by_label["apply: readme note"]["steps"]
    assert [s["tool"] for s in patch_steps] == ["edit_file", "edit_file"]   # one per hunk
    assert by_label["apply: new notes"]["steps"] == [{"tool": "write_file", "path": "docs/notes.md",
                                                      "content": "hello\n"}]
    assert {menu.item_ref(i) for i in menu.apply_items(task)} >= {"apply: readme note", "apply: new notes"}
    ws = tmp_path / "ws"
    shutil.copytree(folder / "world", ws)
    menu.apply(task, ["apply: readme note", "apply: new notes"], ws)
    assert (ws / "system" / "README.md").read_text() == want
    assert (ws / "docs" / "notes.md").read_text() == "hello\n"
    with pytest.raises(wsmod.PathError, match="does not occur"):   # applied twice: the old text is gone
        menu.apply(task, ["apply: readme note"], ws)


def test_discrete_menu_runs_an_apply_item_through_the_env(tmp_path):
    from fdegym_env.wrappers import DiscreteMenu

    from fdegym_env.core.env import FDEGymEnv
    folder, want = _with_apply_item(tmp_path)
    env = DiscreteMenu(FDEGymEnv(task=str(folder), variant="base", sandbox="none"))
    env.reset(seed=0)
    i = env.labels.index("apply: readme note")
    assert env.action_masks()[i]
    env.step(i)
    assert (env.unwrapped.workspace / "system" / "README.md").read_text() == want
    assert not env.action_masks()[i]                               # its old text no longer occurs
    env.close()


def test_bad_apply_items_say_what_to_fix(tmp_path):
    from fdegym_env.core.errors import TaskFormatError
    folder, _ = _with_apply_item(tmp_path)
    data = yaml.safe_load((folder / "menu.yaml").read_text())
    data["actions"][-1] = {"label": "apply: ghost", "apply": "ghost"}
    (folder / "menu.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(ValueError, match=r"solutions/menu/ghost.patch"):
        menu.items(folder)
    data["actions"][-1] = {"label": "both", "apply": "readme_note", "action": {"tool": "wait", "hours": 1}}
    (folder / "menu.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    with pytest.raises(TaskFormatError, match="exactly one of 'action', 'steps' or 'apply'"):
        Task.load(folder)
    (folder / "solutions" / "menu" / "new_notes" / "docs" / "x.md.tmpl").write_text("{{seed}}\n")
    with pytest.raises(ValueError, match="cannot be a template"):
        menu.change_steps(folder / "solutions" / "menu" / "new_notes")


def test_a_patch_file_alone_is_a_solution(tmp_path):
    import difflib

    from fdegym_env.grading.grade import apply_solution
    folder, _ = _with_apply_item(tmp_path)
    shutil.copy(folder / "solutions" / "menu" / "readme_note.patch", folder / "solutions" / "just_patch.patch")
    task = Task.load(folder)
    assert "just_patch" in task.solution_names()
    ws = tmp_path / "ws"
    shutil.copytree(folder / "world", ws)
    before = (ws / "system" / "README.md").read_text()
    apply_solution(task, "just_patch", ws, task.variant("base").params)
    after = (ws / "system" / "README.md").read_text()
    assert after != before and "EDITED BY A MENU PATCH" in after
    assert difflib.SequenceMatcher(None, before, after).ratio() > 0.9


def test_an_item_may_apply_several_kept_changes_in_order(tmp_path):
    """A new file, then a one-line patch on it: the item's mask checks the patch against the file the
    item itself writes, and applying it leaves the patched file."""
    import difflib

    from fdegym_env.wrappers import DiscreteMenu

    from fdegym_env.core.env import FDEGymEnv
    folder, _ = _with_apply_item(tmp_path)
    base = ["hello\n", "window = '01:00'\n"]
    later = ["hello\n", "window = '22:30'\n"]
    (folder / "solutions" / "menu" / "window_2230.patch").write_text("".join(
        difflib.unified_diff(base, later, "a/docs/notes.md", "b/docs/notes.md")))
    (folder / "solutions" / "menu" / "new_notes" / "docs" / "notes.md").write_text("".join(base))
    data = yaml.safe_load((folder / "menu.yaml").read_text())
    data["actions"].append({"label": "apply: notes, window 22:30", "apply": ["new_notes", "window_2230"]})
    (folder / "menu.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    task = Task.load(folder)
    item = menu.find(task, "apply: notes, window 22:30")
    assert [s["tool"] for s in item["steps"]] == ["write_file", "edit_file"]
    env = DiscreteMenu(FDEGymEnv(task=str(folder), variant="base", sandbox="none"))
    env.reset(seed=0)
    i = env.labels.index("apply: notes, window 22:30")
    assert env.action_masks()[i]                                # the edit finds its text in the written file
    env.step(i)
    assert (env.unwrapped.workspace / "docs" / "notes.md").read_text() == "".join(later)
    env.close()
