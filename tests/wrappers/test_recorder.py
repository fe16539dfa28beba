"""Recorder, replay and show: recordings reproduce; tampering is caught; the CLI works."""

from __future__ import annotations

import json
import os

import pytest
from fdegym_env.agents import make_agent, run_episode
from fdegym_env.wrappers import ChatEnv, Recorder, load_recording, render_recording, replay

from fdegym_env import FDEGymEnv
from fdegym_env.cli.main import main
from tests.conftest import TINY

SANDBOX = os.environ.get("FDEGYM_TEST_SANDBOX", "auto")


def _record(path, agent="reference", seed=0, **kw):
    env = Recorder(FDEGymEnv(task=TINY, sandbox=SANDBOX, **kw), path)
    try:
        return run_episode(env, make_agent(agent), seed=seed), env
    finally:
        env.close()


def _lines(path):
    return [json.loads(x) for x in open(path, encoding="utf-8")]


def test_recording_shape_and_replay(tmp_path):
    path = tmp_path / "ep.jsonl"
    result, _ = _record(path)
    recs = _lines(path)
    assert [r["type"] for r in recs] == ["reset"] + ["step"] * result["turns"] + ["result"]
    head = recs[0]
    assert head["task"] == "tiny_task" and head["variant"] == "base" and head["level"] == "L3" and head["seed"] == 0
    assert head["env"]["reward_mode"] == "dense" and head["agent"] == "reference"
    assert recs[-1]["result"]["score"] == pytest.approx(result["score"])
    assert sum(r["reward"] for r in recs if r["type"] == "step") == pytest.approx(result["score"])
    rep = replay(path, sandbox=SANDBOX)
    assert rep.ok, rep.summary()
    assert rep.steps == result["turns"] and rep.replayed_score == pytest.approx(result["score"])
    assert rep.observation_diffs == 0
    assert rep.summary().startswith("REPRODUCED")


def test_tampered_recording_is_caught(tmp_path):
    path = tmp_path / "ep.jsonl"
    _record(path)
    recs = _lines(path)
    for r in recs:  # deliver a wrong threshold instead of the right one
        if r["type"] == "step" and r["action"].get("tool") == "write_file":
            r["action"]["content"] = '{"threshold": 100}'
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    rep = replay(bad, sandbox=SANDBOX)
    assert not rep.ok
    assert any(m.startswith("turn ") and "reward" in m for m in rep.mismatches)
    assert any(m.startswith("score ") for m in rep.mismatches)
    assert rep.summary().startswith("DIFFERENT")


def test_malformed_actions_and_chat_record_and_replay(tmp_path):
    path = tmp_path / "chat.jsonl"
    env = ChatEnv(Recorder(FDEGymEnv(task=TINY, sandbox=SANDBOX), path))
    try:
        env.reset(seed=5)
        env.step({"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "do'}},
            {"id": "b", "type": "function", "function": {"name": "contact",
                                                         "arguments": '{"to": "ops", "message": "threshold?"}'}}]})
        env.step("no tool call here")
        env.step('<tool_call>{"name": "submit", "arguments": {}}</tool_call>')
    finally:
        env.close()
    rep = replay(path, sandbox=SANDBOX)
    assert rep.ok, rep.summary()
    assert rep.steps == 4
    text = render_recording(path)
    assert "read_file(<malformed arguments:" in text and "(no tool call) no tool call here" in text
    assert "contact(to=ops, message=threshold?)  reward -0.010" in text
    assert "--- result ---" in text and "return -0.010000 (equals the score)" in text


def test_annotations_before_and_after_the_end(tmp_path):
    path = tmp_path / "ep.jsonl"
    env = Recorder(FDEGymEnv(task=TINY, sandbox=SANDBOX), path)
    try:
        env.reset(seed=0)
        env.get_wrapper_attr("annotate")(usage={"model_calls": 1})
        env.step({"tool": "submit"})
        env.annotate(usage={"model_calls": 2}, note="after")
    finally:
        env.close()
    ep = load_recording(path)[0]
    assert ep.annotations == {"usage": {"model_calls": 2}, "note": "after"}
    assert _lines(path)[-2]["annotations"] == {"usage": {"model_calls": 1}}


def test_several_episodes_in_one_file(tmp_path):
    path = tmp_path / "two.jsonl"
    env = Recorder(FDEGymEnv(task=TINY, sandbox=SANDBOX), path)
    try:
        run_episode(env, make_agent("reference"), seed=0)
        run_episode(env, make_agent("do-nothing"), seed=1)
    finally:
        env.close()
    eps = load_recording(path)
    assert [e.header["episode"] for e in eps] == [0, 1]
    assert replay(path, episode=1, sandbox=SANDBOX).ok
    with pytest.raises(ValueError, match=r"holds 2 episode\(s\); got episode=5"):
        replay(path, episode=5)


def test_bad_recordings_say_what_is_wrong(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"type": "step"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"x.jsonl:1: a 'step' line before any 'reset' line"):
        load_recording(p)
    p.write_text("not json\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"x.jsonl:1: not JSON"):
        load_recording(p)
    p.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match=r"no episodes"):
        load_recording(p)
    p.write_text('{"bad": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r'x.jsonl:1: a line without a "type" before any \'reset\' line'):
        load_recording(p)
    with pytest.raises(ValueError, match=r"no recording at .*nothere.jsonl \(no such file\); expected a JSONL file "
                                         r"written by `fdegym run --record FILE`"):
        load_recording(tmp_path / "nothere.jsonl")
    with pytest.raises(ValueError, match=r"no recording at .* \(a folder\)"):
        load_recording(tmp_path)


@pytest.mark.parametrize("command", ["show", "replay"])
def test_cli_on_a_missing_recording_is_an_error_line_not_a_traceback(tmp_path, capsys, command):
    assert main([command, str(tmp_path / "nothere.jsonl")]) == 2
    err = capsys.readouterr().err
    assert f"fdegym {command}: error: no recording at" in err and "Traceback" not in err


def test_a_line_whose_type_is_not_text_is_an_error_line_not_a_traceback(tmp_path, capsys):
    p = tmp_path / "odd.jsonl"
    p.write_text('{"type": ["reset"]}\n', encoding="utf-8")
    assert main(["show", str(p)]) == 2
    err = capsys.readouterr().err
    assert "odd.jsonl:1: a ['reset'] line before any 'reset' line" in err and "Traceback" not in err


def test_cli_run_record_replay_show(tmp_path, capsys):
    path = tmp_path / "cli.jsonl"
    assert main(["run", TINY, "--agent", "reference", "--sandbox", SANDBOX, "--record", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert main(["replay", str(path)]) == 0
    assert "REPRODUCED" in capsys.readouterr().out
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["ok"] and data[0]["replayed_score"] == pytest.approx(out["score"])
    assert main(["show", str(path), "--max-chars", "50"]) == 0
    shown = capsys.readouterr().out
    assert "=== episode 0: tiny_task" in shown and "--- turn 1: write_file(" in shown
    recs = _lines(path)
    recs[-1]["result"]["score"] += 0.5
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "DIFFERENT" in capsys.readouterr().out
