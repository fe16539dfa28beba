"""people.yaml topic ``examples:`` are a short list of non-empty questions."""

import pytest

from fdegym_env.core.errors import TaskFormatError
from fdegym_env.people.spec import MAX_EXAMPLE_CHARS, MAX_EXAMPLES, validate_people


def _spec(examples):
    return {"people": [{"id": "a", "name": "A", "role": "r", "blurb": "b",
                        "topics": [{"id": "t", "answer": "x", "examples": examples}]}]}


def test_examples_are_kept():
    qs = ["When does the cutoff move?", "I'm looking at ORD-1 in orders.csv. Who signs off a refund over 50?"]
    out = validate_people(_spec(qs), "people.yaml")
    assert out["people"][0]["topics"][0]["examples"] == qs


@pytest.mark.parametrize("bad, says", [
    ("When is the cutoff?", "must be a list of 1-"),
    ([], "must be a list of 1-"),
    (["q"] * (MAX_EXAMPLES + 1), f"got {MAX_EXAMPLES + 1} items"),
    (["fine", "  "], r"examples\[1\]: must be a non-empty string"),
    (["fine", 42], r"examples\[1\]: must be a non-empty string, got 42"),
    (["x" * (MAX_EXAMPLE_CHARS + 1)], f"expected at most {MAX_EXAMPLE_CHARS}"),
])
def test_bad_examples_are_rejected_naming_the_topic(bad, says):
    with pytest.raises(TaskFormatError, match=says) as e:
        validate_people(_spec(bad), "people.yaml")
    assert "people[0] (a).topics[0] (t)" in str(e.value)


def test_every_shipped_topic_has_example_questions():
    from pathlib import Path

    from fdegym_env.core.task import Task
    tasks = sorted(p.parent for p in (Path(__file__).resolve().parents[2] / "tasks").glob("*/people.yaml"))
    assert len(tasks) >= 10
    bare = [f"{t.name}/{p['id']}/{tp['id']}" for t in tasks
            for p in Task.load(t).people_spec(Task.load(t).variant("base"))["people"]
            for tp in p["topics"] if len(tp.get("examples") or []) < 3]
    assert bare == [], f"topics with fewer than 3 example questions: {bare}"
