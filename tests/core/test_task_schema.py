"""Task files are checked against fdegym_env.core.schema: typos and unknown keys fail with file, field and a
did-you-mean; every shipped task, the fixtures and the harness-case fixture load."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from fdegym_env.core.errors import TaskFormatError
from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.core.schema import FILES, check, json_schema
from fdegym_env.core.task import Task
from tests.conftest import TINY

ROOT = Path(__file__).resolve().parents[2]


def _copy(tmp_path) -> Path:
    dst = tmp_path / "tiny_task"
    shutil.copytree(TINY, dst)
    return dst


def _edit(path: Path, fn) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    fn(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize("task", list_tasks())
def test_every_shipped_task_file_matches_the_schema(task):
    t = load_task(task)
    for name in FILES:
        p = t.path / name
        if p.is_file() and name != "people.yaml":
            check(name, yaml.safe_load(p.read_text(encoding="utf-8")), str(p))
    for v in t.variants.values():            # people.yaml holds {{placeholders}}: checked as each variant fills it
        assert t.people_spec(v)["people"], v.name


@pytest.mark.parametrize("folder", ["tiny_task", "broken_task"])
def test_fixtures_load(folder):
    # broken_task's data files are well-formed; what is broken is its code (tests/core/test_validate.py)
    assert Task.load(ROOT / "tests" / "fixtures" / folder).id == folder


def test_harness_case_fixture_loads():
    from fdegym_env.harness import load_case
    case = load_case(ROOT / "tests" / "harness" / "fixture_case")
    assert case.people_spec(case.variant("base"))["people"]


def test_limits_typo_names_the_field_and_suggests(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "task.yaml", lambda t: t.__setitem__("limits", {"max_turn": 5}))
    with pytest.raises(TaskFormatError) as e:
        Task.load(d)
    msg = str(e.value)
    assert str(d / "task.yaml") in msg
    assert "limits.max_turn: unknown field. Did you mean 'max_turns'?" in msg


@pytest.mark.parametrize("file,edit,expect", [
    ("task.yaml", lambda t: t.__setitem__("titel", "x"), "titel: unknown field. Did you mean 'title'?"),
    ("task.yaml", lambda t: t["metric"].__setitem__("direction", "up"),
     "metric.direction: Input should be 'maximize' or 'minimize' (got 'up')"),
    ("task.yaml", lambda t: t.__setitem__("process", "forever"), "process: Input should be 'per_call' or 'persistent'"),
    ("task.yaml", lambda t: t["entry_points"][0].__setitem__("fucntion", "x"),
     "entry_points[0].fucntion: unknown field. Did you mean 'function'?"),
    ("task.yaml", lambda t: t.__setitem__("runtime_state", ["../data"]),
     "runtime_state[0] '../data': a folder path relative to system/"),
    ("task.yaml", lambda t: t.__setitem__("runtime_state", ["state/*.db"]), "no '..', '.', globs or leading '/'"),
    ("variants.yaml", lambda v: v["base"].__setitem__("parmas", {}), "base.parmas: unknown field. Did you mean 'params'?"),
    ("truth.yaml", lambda t: t.__setitem__("key_fact", []), "key_fact: unknown field. Did you mean 'key_facts'?"),
    ("truth.yaml", lambda t: t.__setitem__("key_facts", ["F_treshold"]),
     "key_facts[0] 'F_treshold' is not a fact id under 'facts'. Did you mean 'F_threshold'?"),
])
def test_typos_fail_with_file_field_and_suggestion(tmp_path, file, edit, expect):
    d = _copy(tmp_path)
    _edit(d / file, edit)
    with pytest.raises(TaskFormatError) as e:
        Task.load(d)
    assert str(d / file) in str(e.value)
    assert expect in str(e.value)


def test_menu_typo_fails(tmp_path):
    d = _copy(tmp_path)
    (d / "menu.yaml").write_text("actions:\n  - {lable: submit, action: {tool: submit}}\n", encoding="utf-8")
    with pytest.raises(TaskFormatError, match=r"actions\[0\]\.lable: unknown field\. Did you mean 'label'\?"):
        Task.load(d)


def test_fields_other_branches_add_are_accepted(tmp_path):
    d = _copy(tmp_path)
    _edit(d / "task.yaml", lambda t: t.update(agent_title="Sponsor's framing", process="persistent"))
    _edit(d / "truth.yaml", lambda t: t.__setitem__("facts", {k: {"text": str(v), "leak_terms": ["threshold"]}
                                                               for k, v in (t.get("facts") or {}).items()}))
    assert Task.load(d).raw["agent_title"] == "Sponsor's framing"
    _edit(d / "task.yaml", lambda t: t.__setitem__("runtime_state", ["state/", "var"]))
    assert Task.load(d).runtime_state == ("state", "var")


def test_json_schema_is_exported(tmp_path):
    from fdegym_env.cli.main import main
    s = json_schema("task")
    assert s["additionalProperties"] is False and "max_turns" in json.dumps(s)
    assert set(s["required"]) >= {"id", "version", "title", "metric", "entry_points"}
    assert main(["schema", "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.schema.json"))
    assert written == ["menu.schema.json", "people.schema.json", "task.schema.json", "truth.schema.json",
                       "variants.schema.json"]
    v = json.loads((tmp_path / "variants.schema.json").read_text())
    assert v["required"] == ["base"] and v["additionalProperties"]["additionalProperties"] is False
    with pytest.raises(ValueError, match="Did you mean 'truth.yaml'"):
        json_schema("truht")


def test_one_did_you_mean_helper():
    # every "did you mean" goes through fdegym_env.core.errors.did_you_mean
    users = [p for p in (ROOT / "fdegym_env").rglob("*.py") if "get_close_matches" in p.read_text(encoding="utf-8")]
    users += [p for d in ("wrappers", "agents") for p in (ROOT / d).rglob("*.py")
              if "get_close_matches" in p.read_text(encoding="utf-8")]
    assert [p.relative_to(ROOT).as_posix() for p in users] == ["fdegym_env/core/errors.py"]
