"""docs/task_format.md's tutorial builds a whole scenario: every file it shows, written out of the page
into a folder, is a task that loads (schema-checked), passes admission and plays through gym."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fdegym_env.admission.validate import format_report, validate_task
from fdegym_env.core.task import Task

DOC = Path(__file__).resolve().parents[2] / "docs" / "task_format.md"
FILE_BLOCK = re.compile(r"^File `bakery_cutoff/([^`]+)`:\n\n```[a-z]*\n(.*?)^```$", re.M | re.S)
EXPECTED = {"task.yaml", "variants.yaml", "truth.yaml", "people.yaml", "traffic.py", "grader.py", "trial.py",
            "sampler.py", "menu.yaml", "solutions/reference.py", "solutions/literal.patch",
            "briefs/L0.md", "briefs/L3.md", "world/system/orders/cutoff.py"}


def write_tutorial(root: Path) -> Path:
    folder = root / "bakery_cutoff"
    files = FILE_BLOCK.findall(DOC.read_text(encoding="utf-8"))
    for rel, body in files:
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(body, encoding="utf-8")
    assert EXPECTED <= {rel for rel, _ in files}, f"the tutorial lost files: {EXPECTED - {r for r, _ in files}}"
    return folder


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory):
    return Task.load(write_tutorial(tmp_path_factory.mktemp("tutorial")))


def test_the_tutorial_scenario_passes_admission(tutorial):
    # the author's loop (named variants, a sample of the generic bypasses, in the sandbox), then one
    # procedural variant; the doc's own command (`--samples 3`, every bypass) passed when it was written
    report = validate_task(tutorial, progress=False, quick=True)
    assert report.passed, format_report(report)
    assert {r.variant for r in report.rows} == {"base", "early_lock", "local_stamps", "bev_on_course"}
    assert {"do_nothing", "reference", "literal", "shortcut", "menu", "memorised", "generic_bypass"} <= \
        {r.kind for r in report.rows}
    sampled = validate_task(tutorial, variants=["sample:0"], generic=False, progress=False)
    assert sampled.passed and any(r.kind == "memorised" for r in sampled.rows), format_report(sampled)


def test_the_tutorial_scenario_plays_through_gym(tutorial):
    import gymnasium as gym

    from fdegym_env.core.registry import register_task
    env = gym.make(register_task(tutorial, str(tutorial.path)), variant="bev_on_course", sandbox="none")
    obs, info = env.reset(seed=0)
    assert info["level"] == "L3" and 'Sam asks: "Move the order cutoff to 16:00."' in obs["text"]
    assert "UTC timestamps" not in obs["text"]                  # the L0 diagnosis stays out of the L3 brief
    obs, r, term, trunc, info = env.step({"tool": "contact", "to": "bev_marsh", "message":
                                          "When does the bake plan lock? Can later orders join today's run?"})
    assert "bread course" in obs["text"] and r == 0            # away: the out-of-office line, free
    obs, *_ = env.step({"tool": "wait", "hours": 49})
    assert "1 new message" in obs["text"]
    obs, *_ = env.step({"tool": "inbox"})
    assert "13:00 UK time" in obs["text"]                      # the follow-up the stall promised
    obs, r, term, trunc, info = env.step({"tool": "submit"})
    assert term and info["result"]["uplift"] == pytest.approx(0.0, abs=1e-9)     # nothing was changed
    assert info["result"]["contact_cost"] > 0 and info["result"]["score"] < 0      # asking and waiting cost points
    env.close()
