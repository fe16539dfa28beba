"""People answer the question asked, measured on held-out questions (issue 17).

Each ``tests/routing/heldout/<task>.yaml`` was written before the task's people were tuned and is
never tuned against. Every question goes through the whole engine with fresh state; a reply that
recites a topic nobody asked about ("wrong paragraph") is the defect agents hit hardest.
Numbers: ``python -m fdegym_env.people.routing_report --heldout --misses``."""

from __future__ import annotations

from pathlib import Path

import pytest

from fdegym_env.people.routing_report import classify, evaluate_heldout, load_yaml
from fdegym_env.core.registry import list_tasks, load_task

HELDOUT = Path(__file__).resolve().parents[1] / "routing" / "heldout"
WRONG_PARAGRAPH_MAX = 0.02
ANSWERED_MIN = 0.8          # on topic, or an honest "don't know" naming the right person


def test_classify_outcomes():
    assert classify(["kills"], ["kills"]) == "on_topic"
    assert classify(["kills:stalled"], ["kills"]) == "on_topic"
    assert classify(["kills:repeat", "embargo"], ["kills"]) == "wrong_paragraph"
    assert classify(["dont_know", "refer:legal"], ["kills"]) == "missed"
    assert classify(["dont_know", "refer:legal"], "dont_know", "legal") == "dont_know"
    assert classify(["dont_know", "refer:desk"], "dont_know", "legal") == "wrong_referral"
    assert classify(["off_limits", "legal_scope"], "dont_know") == "wrong_paragraph"


@pytest.mark.parametrize("task_id", list_tasks(), ids=str)
def test_every_task_has_a_heldout_set(task_id):
    assert (HELDOUT / f"{task_id}.yaml").exists(), f"write {HELDOUT / task_id}.yaml before tuning people.yaml"


@pytest.mark.parametrize("path", sorted(HELDOUT.glob("*.yaml")), ids=lambda p: p.stem)
def test_heldout_replies(path):
    task = load_task(path.stem)
    r = evaluate_heldout(task.people_spec(task.variant("base")), load_yaml(path), task.router, str(path))
    bad = "\n".join(f"  {row['outcome']}: {row['person']}: {row['q']!r} expect {row['expect']} got {row['tags']}"
                    for row in r["rows"] if row["outcome"] not in ("on_topic", "dont_know"))
    assert r["questions"] >= 30, f"{path.name}: only {r['questions']} questions"
    assert r["shares"]["wrong_paragraph"] <= WRONG_PARAGRAPH_MAX, f"{r['shares']}\n{bad}"
    assert r["shares"]["on_topic"] + r["shares"]["dont_know"] >= ANSWERED_MIN, f"{r['shares']}\n{bad}"
