"""The routing trade-off sweep and router settings from the report's command line."""

from __future__ import annotations

import json
import re

import pytest

from fdegym_env.people.routing_report import main as report_main
from fdegym_env.people.routing_report import parse_router_args
from fdegym_env.people.routing_tradeoff import main, sweep

QUESTIONS = (
    'questions:\n'
    '  - {person: tomasz_wierzbicki, q: "How many urgent jobs a day can your techs take?", expect: [field_cover]}\n'
    '  - {person: tomasz_wierzbicki, q: "Where is the canteen?", expect: dont_know}\n')


@pytest.fixture
def tests_dir(tmp_path):
    (tmp_path / "routing" / "mine").mkdir(parents=True)
    (tmp_path / "routing" / "mine" / "helpdesk_tutorial.yaml").write_text(QUESTIONS)
    return tmp_path


def test_raising_min_about_turns_an_answer_into_dont_know(tests_dir):
    out = sweep(["mine"], "min_about", [0.35, 5.0], tests_dir)
    low, high = out["ALL"]
    assert (low["questions"], low["answerable"]) == (2, 1)
    assert low["counts"]["on_topic"] == 1 and low["counts"]["dont_know"] == 1
    assert high["counts"]["on_topic"] == 0 and high["counts"]["missed"] == 1   # nothing covers 5x its words
    assert out["mine"] == out["ALL"]


def test_the_command_prints_json_and_draws_a_png(tests_dir, tmp_path, capsys):
    png = tmp_path / "t.png"
    assert main(["--tests-dir", str(tests_dir), "--sets", "mine", "--values", "0.35,5", "--json", "--plot", str(png)]) == 0
    rows = json.loads(capsys.readouterr().out)["ALL"]
    assert [r["value"] for r in rows] == [0.35, 5.0]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


@pytest.mark.parametrize("argv, msg", [
    (["--sets", "nope"], "expected folders under"),
    (["--sets", "mine", "--values", "a,b"], "comma-separated numbers"),
    (["--sets", "mine", "--param", "no_such_setting"], "no_such_setting"),
])
def test_the_command_rejects_bad_input(tests_dir, capsys, argv, msg):
    with pytest.raises(SystemExit) as exc:
        main(["--tests-dir", str(tests_dir), "--json", *argv])
    assert exc.value.code == 2 and msg in capsys.readouterr().err


def test_router_args_parse_and_reach_the_router(tests_dir, capsys):
    assert parse_router_args(["min_about=0.5", "about_lead=none", "rare_df=2", "x=true"]) == \
        {"min_about": 0.5, "about_lead": None, "rare_df": 2, "x": True}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        parse_router_args(["0.5"])
    shares = []
    for arg in ("min_about=0.35", "min_about=5"):
        assert report_main(["--tests-dir", str(tests_dir), "--set", "mine", "--json", "--routers", "lexical", "--router-arg", arg]) == 0
        shares.append(json.loads(capsys.readouterr().out)[0]["shares"]["on_topic"])
    assert shares == [0.5, 0.0]


def test_two_labellings_compared(tests_dir, capsys):
    from fdegym_env.core.registry import load_task
    from fdegym_env.people.routing_report import label_agreement, load_yaml
    (tests_dir / "routing" / "again").mkdir()
    # the second labeller calls the answered question a don't-know: the same reply becomes a wrong paragraph
    (tests_dir / "routing" / "again" / "helpdesk_tutorial.yaml").write_text(QUESTIONS.replace("expect: [field_cover]", "expect: dont_know"))
    task = load_task("helpdesk_tutorial")
    spec = task.people_spec(task.variant("base"))
    first = load_yaml(tests_dir / "routing" / "mine" / "helpdesk_tutorial.yaml")
    second = load_yaml(tests_dir / "routing" / "again" / "helpdesk_tutorial.yaml")
    r = label_agreement(first, second, spec)
    assert r["labels"]["topic_vs_dont_know"] == 1 and r["labels"]["dont_know_same_refer"] == 1
    assert (r["first"]["wrong_paragraph"], r["second"]["wrong_paragraph"], r["wrong_paragraph_both"]) == (0.0, 0.5, 0.0)
    # each labelling as the replies, the other as labels: the first answers what the second calls unknown
    assert (r["first_as_router"]["wrong_paragraph"], r["second_as_router"]["missed"]) == (0.5, 0.5)
    assert r["first_as_router"]["dont_know"] == r["second_as_router"]["dont_know"] == 0.5
    same = label_agreement(first, first, spec)
    assert same["wrong_paragraph_both"] == 0.0
    assert same["first_as_router"] == {"on_topic": 0.5, "dont_know": 0.5, "wrong_referral": 0.0, "missed": 0.0,
                                       "wrong_paragraph": 0.0}
    with pytest.raises(ValueError, match="same questions"):
        label_agreement(first, {"questions": first["questions"][:1]}, spec)
    # the second labelling is checked like the first: a question it leaves unlabelled is named
    unlabelled = {"questions": [dict(first["questions"][0]), *first["questions"][1:]]}
    del unlabelled["questions"][0]["expect"]
    with pytest.raises(ValueError, match=r"labelled set \(second labelling\): questions\[0\].*'expect' must be"):
        label_agreement(first, unlabelled, spec)
    assert report_main(["--tests-dir", str(tests_dir), "--set", "mine", "--agree", "again"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"topic_vs_dont_know +1 +50.0%", out) and "wrong paragraph under both labellings: 0.0%" in out
    with pytest.raises(SystemExit):
        report_main(["--tests-dir", str(tests_dir), "--agree", "again"])
    assert "--agree needs --set" in capsys.readouterr().err


@pytest.mark.parametrize("first,second", [("blind7", "blind7_second"), ("agent_traffic4", "agent_traffic4_second")])
def test_a_second_labelling_holds_the_same_questions(first, second):
    from pathlib import Path

    from fdegym_env.people.routing_report import load_yaml
    root = Path(__file__).resolve().parents[1] / "routing"
    firsts = sorted((root / first).glob("*.yaml"))
    assert len(firsts) == 10
    for p in firsts:
        a, b = load_yaml(p)["questions"], load_yaml(root / second / p.name)["questions"]
        assert [(q["person"], q["q"]) for q in a] == [(q["person"], q["q"]) for q in b], p.name
