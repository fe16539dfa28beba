"""People answer the question asked, measured on held-out questions.

Each ``tests/routing/heldout/<task>.yaml`` was written before the task's people were tuned and is
never tuned against. Every question goes through the whole engine with fresh state; a reply that
recites a topic nobody asked about ("wrong paragraph") is the defect agents hit hardest.
Numbers: ``python -m fdegym_env.people.routing_report --heldout --misses``."""

from __future__ import annotations

from pathlib import Path

import pytest

from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.people.routing_report import classify, evaluate_heldout, load_yaml

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


def test_a_tuning_set_measured_through_the_engine():
    from fdegym_env.people.routing_report import as_heldout
    rset = {"person_topics": [{"person": "ann", "topic": "kills", "questions": ["How do kills arrive?",
                                                                                {"q": "kills and embargoes?", "topics": ["kills", "embargo"]}]}],
            "multi": [{"person": "ann", "q": "kills, then embargoes", "topics": ["embargo", "kills"]}],
            "off_topic": [{"person": "ann", "question": "Where is lunch?"}],
            "fishing": ["Tell me everything."]}
    assert as_heldout(rset)["questions"] == [
        {"person": "ann", "q": "How do kills arrive?", "expect": ["kills"]},
        {"person": "ann", "q": "kills and embargoes?", "expect": ["embargo", "kills"]},
        {"person": "ann", "q": "kills, then embargoes", "expect": ["embargo", "kills"]},
        {"person": "ann", "q": "Where is lunch?", "expect": "dont_know"}]


ROUTING = Path(__file__).resolve().parents[1] / "routing"
# blind sets and their minimum questions per task (blind5 and blind6 were written shorter, 24-28 per task; blind9 has 15;
# blind10 covers the five newer scenarios)
BLIND_MIN = {"blind2": 30, "blind3": 30, "blind4": 30, "blind5": 24, "blind6": 24, "blind7": 30, "blind7_second": 30, "blind8": 30, "blind9": 15, "blind10": 30, "agent_traffic": 1, "agent_traffic2": 1, "agent_traffic3": 1,
             "agent_traffic4": 1, "agent_traffic4_second": 1, "agent_traffic5": 1, "agent_traffic6": 1, "agent_traffic6_all": 1,
             "agent_traffic7": 1}
BLIND_SETS = [p for name in BLIND_MIN for p in sorted((ROUTING / name).glob("*.yaml"))]


@pytest.mark.parametrize("path", BLIND_SETS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_blind_sets_are_labelled_against_the_base_people(path):
    """blind2-9 were labelled by meaning; every label must name a real topic of the asked
    person, and a referral a real, reachable other person (not off-limits)."""
    task = load_task(path.stem)
    people = {p["id"]: p for p in task.people_spec(task.variant("base"))["people"]}
    qs = load_yaml(path)["questions"]
    assert len(qs) >= BLIND_MIN[path.parent.name], f"{path.name}: only {len(qs)} questions"
    for i, q in enumerate(qs):
        topics = {t["id"] for t in people[q["person"]].get("topics") or []}
        e, ref = q.get("expect"), q.get("refer")
        assert e == "dont_know" or (isinstance(e, list) and e and set(e) <= topics), \
            f"{path.name}[{i}] {q['person']}: expect {e!r}, want 'dont_know' or a list of {sorted(topics)}"
        if ref is not None:
            assert e == "dont_know" and ref in people and ref != q["person"] and not people[ref].get("off_limits"), \
                f"{path.name}[{i}]: refer {ref!r} must be a reachable other person on a dont_know"


def test_set_option_reads_only_the_named_folder(tmp_path, capsys):
    import json

    from fdegym_env.people.routing_report import main
    (tmp_path / "routing" / "mine").mkdir(parents=True)
    (tmp_path / "routing" / "other").mkdir()
    (tmp_path / "routing" / "mine" / "helpdesk_tutorial.yaml").write_text(
        'questions:\n  - {person: tomasz_wierzbicki, q: "How many urgent jobs a day can your techs take?", '
        'expect: [field_cover]}\n  - {person: tomasz_wierzbicki, q: "Where is the canteen?", expect: dont_know}\n')
    (tmp_path / "routing" / "other" / "billing_dispute.yaml").write_text(
        'questions:\n  - {person: renata_okafor, q: "What do you need?", expect: [request]}\n')
    assert main(["--tests-dir", str(tmp_path), "--set", "mine", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(r["set"], r["questions"]) for r in out] == [("helpdesk_tutorial", 2)]
    assert [row["expect"] for row in out[0]["rows"]] == [["field_cover"], "dont_know"]


def test_set_option_rejects_an_unknown_folder(tmp_path, capsys):
    from fdegym_env.people.routing_report import main
    (tmp_path / "routing" / "mine").mkdir(parents=True)
    with pytest.raises(SystemExit) as exc:
        main(["--tests-dir", str(tmp_path), "--set", "../mine"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "expected one of" in err and "['mine']" in err and "'../mine'" in err
