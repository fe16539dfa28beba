"""The leak check: at L2/L3 the agent sees only what the level allows.

Every registered task, at L2 and L3, on every named variant and 20 samples: the reset observation
names no catalog title, truth fact, variant or parameter; the workspace holds no title, truth text,
variant name or task code. Each kind of leak is planted in a copy of the tiny fixture to show the
check sees it and names the file and line; ``tests/fixtures/leaky_task`` fails ``fdegym validate``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from fdegym_env.admission.leaks import (
    LEVELS_CHECKED,
    leak_checks,
    scan_observation,
    scan_task,
    scan_variant,
    scan_world,
)
from fdegym_env.core.env import FDEGymEnv, mail_notice, reset_segments, task_limits
from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.core.task import Task, TaskFormatError
from fdegym_env.core.workspace import world_snapshot
from tests.conftest import TINY

ROOT = Path(__file__).resolve().parents[2]
LEAKY = str(ROOT / "tests" / "fixtures" / "leaky_task")
SAMPLES = 20


def _variant_params():
    out = []
    for tid in list_tasks():
        task = load_task(tid)
        names = list(task.variants) + ([f"sample:{i}" for i in range(SAMPLES)] if task.has_sampler else [])
        out += [pytest.param(tid, name, id=f"{tid}-{name}") for name in names]
    return out


VARIANTS = _variant_params()


# --- every shipped task -----------------------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS_CHECKED)
@pytest.mark.parametrize("task_id,variant", VARIANTS)
def test_reset_observation_has_no_leak(task_id, variant, level):
    task = load_task(task_id)
    v = task.variant(variant)
    leaks = scan_observation(task, v, level, world_snapshot(task, v))
    assert not leaks, "\n".join(map(str, leaks))


@pytest.mark.parametrize("task_id,variant", VARIANTS)
def test_workspace_has_no_leak(task_id, variant):
    task = load_task(task_id)
    v = task.variant(variant)
    leaks = scan_world(task, v, world_snapshot(task, v))
    assert not leaks, "\n".join(map(str, leaks))


@pytest.mark.parametrize("task_id", list_tasks())
def test_title_levels_and_the_scanned_text_is_what_reset_shows(task_id):
    """L0/L1 open with the catalog title; L2/L3 with the sponsor's framing (agent_title) and never
    the catalog title; the leak check scans exactly the text reset returns."""
    task = load_task(task_id)
    assert task.agent_title, f"{task_id}: task.yaml needs an agent_title (the sponsor's framing)"
    env = FDEGymEnv(task=task_id)
    try:
        for level in ("L0", "L1", "L2", "L3"):
            obs, _ = env.reset(seed=0, options={"level": level})
            text = obs["text"]
            limits = task_limits(task, env.variant)
            assert limits == env._limits()           # the scan renders the limits as reset does
            assert text == ("".join(s for _, s in reset_segments(task, level, env.variant, env.workspace, limits))
                            + mail_notice(env.people.inbox_new()))
            first = text.splitlines()[0]
            if level in ("L0", "L1"):
                assert first == f"# {task.title}"
            else:
                assert first == f"# {task.agent_title}"
                assert task.title.lower() not in " ".join(text.lower().split())
            assert "The brief above is also in `TASK.md` in your workspace." in text
            assert (env.workspace / "TASK.md").read_text(encoding="utf-8").split("\n")[0] in text
    finally:
        env.close()


# --- the check finds each kind of leak ---------------------------------------------------------------
def _tiny(tmp_path: Path, files: dict[str, str] | None = None, truth: dict | None = None,
          variants: dict | None = None, task_yaml: dict | None = None) -> Task:
    d = tmp_path / "tiny_task"
    shutil.copytree(TINY, d, ignore=shutil.ignore_patterns("__pycache__"))
    for rel, text in (files or {}).items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(text, encoding="utf-8")
    if truth is not None:
        (d / "truth.yaml").write_text(yaml.safe_dump(truth), encoding="utf-8")
    if variants is not None:
        (d / "variants.yaml").write_text(yaml.safe_dump(variants), encoding="utf-8")
    if task_yaml is not None:
        data = yaml.safe_load((d / "task.yaml").read_text())
        data.update(task_yaml)
        (d / "task.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return Task.load(d)


FACT = ("The cutoff between big and small moved last spring after the ops review; the config file still "
        "carries the value from the original rollout")
TRUTH = {"key_facts": ["F_threshold"], "facts": {"F_threshold": FACT + " (see load_cutoff in ops_tools.py)."},
         "leak_terms": {"F_threshold": ["stale cutoff"]}, "incidents": {}}
VARIANTS_PLUS = {"base": {"params": {"threshold": 50, "cutoff_owner": "ops_lead"}},
                 "high": {"angle": "rule", "params": {"threshold": 70}},
                 "night_shift": {"angle": "people", "params": {"threshold": 90, "cutoff_owner": "night_ops_lead"}}}
L3 = "Brief L3: please make the classifier faster.\n\nThanks,\nBo\n"


def _leaks(task: Task, variant: str = "base") -> list:
    return scan_variant(task, task.variant(variant))


def test_the_clean_fixture_has_no_leak(tmp_path):
    """No false alarm: the fixture's own words, a plain-word variant name ('high'), a short value
    and a few words shared with the fact are all allowed."""
    task = _tiny(tmp_path, {"briefs/L3.md": L3 + "PS: the high season starts; the cutoff between big and small "
                                                "matters, and the config file is old.\n"},
                 truth=TRUTH, variants=VARIANTS_PLUS)
    assert [str(x) for x in _leaks(task)] == []
    assert [str(x) for x in _leaks(task, "night_shift")] == []


@pytest.mark.parametrize("level", LEVELS_CHECKED)
@pytest.mark.parametrize("planted,what", [
    ("Tiny fixture TASK - as the catalog says.", "the catalog title"),
    ("Between us: " + FACT.lower() + ".", "text of fact F_threshold"),
    ("It is the Stale-Cutoff problem again.", "leak term of fact F_threshold"),
    ("See F_threshold.", "fact id F_threshold"),
    ("Ask whoever runs load_cutoff.", "code name from fact F_threshold"),
    ("Unless we are in night_shift.", "variant name"),
    ("Check cutoff_owner first.", "parameter name"),
    ("Ask ops_lead.", "value of parameter cutoff_owner"),
])
def test_a_planted_observation_leak_is_found_with_file_and_line(tmp_path, level, planted, what):
    brief = L3 if level == "L3" else "Brief L2: classification is wrong.\n"
    lines = brief.rstrip("\n").split("\n")
    lines.insert(1, planted)
    task = _tiny(tmp_path, {f"briefs/{level}.md": "\n".join(lines) + "\n"}, truth=TRUTH, variants=VARIANTS_PLUS)
    leaks = _leaks(task)
    assert [(x.where, x.source, x.line) for x in leaks] == [(f"{level} reset observation", f"briefs/{level}.md", 2)], \
        "\n".join(map(str, leaks))
    assert leaks[0].what.startswith(what) and leaks[0].text == planted.strip()


def test_part_of_a_long_catalog_title_is_a_leak(tmp_path):
    title = "A speed request that hides a stale classification threshold"
    planted = "Nobody hides a stale classification threshold on purpose."
    task = _tiny(tmp_path, {"briefs/L3.md": L3.replace("faster.", "faster.\n" + planted)}, truth=TRUTH,
                 task_yaml={"title": title})
    leaks = _leaks(task)
    assert [(x.source, x.line, x.what, x.match) for x in leaks] == [
        ("briefs/L3.md", 2, "words of the catalog title, 5 words", "hides a stale classification threshold")]
    # a few of its words are ordinary vocabulary
    task = _tiny(tmp_path / "b", {"briefs/L3.md": L3.replace("faster.", "faster; the speed request is old.")},
                 truth=TRUTH, task_yaml={"title": title})
    assert _leaks(task) == []


def test_an_agent_title_that_names_the_problem_is_a_leak(tmp_path):
    task = _tiny(tmp_path, truth=TRUTH, task_yaml={"agent_title": "Faster classifier (Tiny fixture task)"})
    leaks = _leaks(task)
    assert {(x.where, x.source, x.line, x.what) for x in leaks} == {
        (f"{lv} reset observation", "task.yaml agent_title", 1, "the catalog title") for lv in LEVELS_CHECKED}


def test_agent_title_must_differ_from_the_title(tmp_path):
    with pytest.raises(TaskFormatError, match="'agent_title' repeats the catalog 'title'"):
        _tiny(tmp_path, task_yaml={"agent_title": "tiny  Fixture task"})
    with pytest.raises(TaskFormatError, match="field 'agent_title' should be a non-empty string"):
        _tiny(tmp_path / "b", task_yaml={"agent_title": ""})


GRADER_COPY = """def score_batch(deploy, params, traffic):
    right = total = 0
    for batch in traffic:
        res = deploy.call("app.main", "handle", batch)
        truth = ["big" if x >= params["threshold"] else "small" for x in batch]
        if res.ok and isinstance(res.value, list) and len(res.value) == len(batch):
            right += sum(a == b for a, b in zip(res.value, truth))
    return right
"""


@pytest.mark.parametrize("rel,text,where,line,what", [
    ("docs/history.md", "# History\n\nOld notes.\nSubject: tiny fixture task\n", "workspace", 4, "the catalog title"),
    ("docs/ops.md", "Ops notes\n" + FACT + "\n", "workspace", 2, "text of fact F_threshold (truth.yaml)"),
    ("docs/ops.md", "x\ny\nsee F_threshold\n", "workspace", 3, "fact id F_threshold"),
    ("data/night_shift/log.txt", "nothing here\n", "workspace path", 0, "variant name"),
    ("docs/plan.md", "a\nRollout plan for night_shift.\n", "workspace", 2, "variant name"),
    ("system/app/scoring.py", "import json\n\n" + GRADER_COPY, "workspace", 6,
     "code of the task's grader.py (4 of its lines)"),
])
def test_a_planted_workspace_leak_is_found_with_file_and_line(tmp_path, rel, text, where, line, what):
    task = _tiny(tmp_path, {f"world/{rel}": text}, truth=TRUTH, variants=VARIANTS_PLUS)
    leaks = scan_world(task, task.variant("base"), world_snapshot(task, task.variant("base")))
    shown = rel if where == "workspace" else rel.rsplit("/", 1)[0]
    assert [(x.where, x.source, x.line) for x in leaks] == [(where, shown, line)], "\n".join(map(str, leaks))
    assert leaks[0].what.startswith(what)


def test_a_copy_of_task_code_in_the_world_is_a_leak(tmp_path):
    src = (Path(TINY) / "solutions" / "reference.py").read_text()
    task = _tiny(tmp_path, {"world/docs/old_fix.py": src})
    leaks = scan_world(task, task.variant("base"), world_snapshot(task, task.variant("base")))
    assert [(x.source, x.what) for x in leaks] == [("docs/old_fix.py", "a copy of the task's solutions/reference.py")]


def test_the_evidence_a_world_document_states_is_not_a_leak(tmp_path):
    """World documents state what a fact is learned from; short overlaps and leak terms are fine."""
    task = _tiny(tmp_path, {"world/docs/ops.md": "Ops notes: the stale cutoff! The cutoff between big and small "
                                                 "moved last spring, see the ops review.\n"}, truth=TRUTH)
    assert scan_world(task, task.variant("base"), world_snapshot(task, task.variant("base"))) == []


def test_leak_terms_must_name_a_fact(tmp_path):
    truth = dict(TRUTH, leak_terms={"F_nope": ["x"]})
    task = _tiny(tmp_path, {"briefs/L3.md": L3}, truth=truth)
    with pytest.raises(TaskFormatError, match=r"leak_terms: 'F_nope' is not a fact of truth.yaml"):
        _leaks(task)


def test_the_same_leak_in_many_variants_is_reported_once(tmp_path):
    task = _tiny(tmp_path, {"briefs/L3.md": L3 + "See F_threshold.\n"}, truth=TRUTH)
    leaks = scan_task(task)
    assert len(leaks) == 1 and leaks[0].variants == ("base", "high", "low", "moved")
    checks = leak_checks(task)
    assert len(checks) == 1 and not checks[0]["passed"]
    assert checks[0]["check"].startswith("leak at briefs/L3.md:5 (L3 reset observation; base, high, low, moved)")


# --- validate ---------------------------------------------------------------------------------------
def test_validate_fails_a_task_whose_l3_brief_states_its_title_and_a_key_fact():
    out = subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", "validate", LEAKY, "--variant", "base",
                          "--no-generic", "--workers", "1", "--json"], capture_output=True, text=True)
    assert out.returncode == 1, out.stderr
    report = json.loads(out.stdout)
    failed = [c["check"] + " " + c["value"] for c in report["cross"] if not c["passed"]]
    assert any(f.startswith("leak at briefs/L3.md:3 (L3 reset observation; base)") and "the catalog title" in f
               for f in failed), failed
    assert any(f.startswith("leak at briefs/L3.md:4 (L3 reset observation; base)") and "text of fact F_threshold" in f
               for f in failed), failed
    assert all(r["passed"] for r in report["rows"]), "only the leak fails; the gradings of the fixture pass"


def test_validate_leaks_only_renders_and_passes_a_clean_task():
    out = subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", "validate", TINY, "--leaks-only", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["rows"] == [] and report["cross"][0]["passed"]
    assert report["cross"][0]["check"] == "no leak in the L2/L3 reset observation or the workspace"
