"""LLMAgent end to end through the real openai client against the scripted server, plus its limits."""

from __future__ import annotations

import json
import os

import pytest
from fdegym_env.agents import make_agent, run_episode
from fdegym_env.agents.llm import LLMAgent, price_for
from fdegym_env.wrappers import Recorder, load_recording, replay

from fdegym_env import FDEGymEnv
from fdegym_env.cli.main import main
from fdegym_env.core.registry import list_tasks
from fdegym_env.testing import FakeLLMServer, call, http_error, plan_for, say
from tests.conftest import TINY

SANDBOX = os.environ.get("FDEGYM_TEST_SANDBOX", "auto")
NEWS_READY = "news_incident" in list_tasks()


def _agent(srv, **kw):
    sleeps = []
    agent = LLMAgent(model=srv.model, base_url=srv.base_url, api_key="test-key", sleep=sleeps.append, **kw)
    return agent, sleeps


@pytest.mark.parametrize("task", [
    pytest.param(TINY, id="tiny_task"),
    pytest.param("news_incident", id="news_incident", marks=(pytest.mark.slow, pytest.mark.skipif(
        not NEWS_READY, reason="LOUD: tasks/news_incident has no task.yaml yet, so its scripted run cannot start"))),
])
def test_end_to_end_scripted_model_to_graded_result_and_replay(task, tmp_path):
    plan = plan_for(task)
    path = tmp_path / "llm.jsonl"
    with FakeLLMServer(plan) as srv:
        env = Recorder(FDEGymEnv(task=task, sandbox=SANDBOX), path)
        try:
            agent, _ = _agent(srv)
            result = run_episode(env, agent, seed=0)
        finally:
            env.close()
        requests = srv.requests
        assert srv.exhausted == 0, "the agent asked for more turns than the plan has"
    # graded: the plan delivers the reference solution, so uplift is 1 and nothing broke
    assert result["end_reason"] == "submitted" and result["incidents"] == []
    assert result["uplift"] == pytest.approx(1.0)
    assert result["score"] == pytest.approx(1.0 - result["contact_cost"])
    assert result["return"] == pytest.approx(result["score"])
    # every turn of the plan was one model call through the real client
    usage = result["usage"]
    assert usage["model_calls"] == len(plan) == len(requests)
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    pin, pout, pcached = price_for(srv.model)
    expect = ((usage["prompt_tokens"] - usage["cached_prompt_tokens"]) * pin
              + usage["cached_prompt_tokens"] * pcached + usage["completion_tokens"] * pout) / 1e6
    assert usage["usd"] == pytest.approx(expect) and usage["usd"] > 0
    assert usage["nudges"] == 1 and usage["text_tool_calls"] == 1 and usage["action_errors"] >= 1
    assert usage["stop_reason"] is None
    # the model saw: both results of the multi-call first turn, in order, then the malformed call's error
    second = requests[1]["messages"]
    tool_msgs = [m for m in second if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_msgs] == ["call_0_0", "call_0_1"]
    assert "TASK.md" in tool_msgs[0]["content"]
    third = requests[2]["messages"]
    assert third[-1]["role"] == "tool" and "not valid JSON" in third[-1]["content"]
    assert any(m["role"] == "user" and "no tool call" in (m["content"] or "") for m in requests[5]["messages"])
    assert requests[0]["tools"][0]["function"]["name"] == "list_files"
    # the recording carries the usage and replays to the same score
    ep = load_recording(path)[0]
    assert ep.annotations["usage"]["model_calls"] == usage["model_calls"]
    rep = replay(path, sandbox=SANDBOX)
    assert rep.ok, rep.summary()
    assert rep.replayed_score == pytest.approx(result["score"])


def test_retries_on_429_and_5xx_honour_retry_after():
    plan = [http_error(429, retry_after=0), http_error(503, retry_after=None), http_error(500, retry_after=2),
            call("submit")]
    with FakeLLMServer(plan) as srv:
        env = FDEGymEnv(task=TINY, sandbox=SANDBOX)
        try:
            agent, sleeps = _agent(srv, backoff_s=0.5)
            result = run_episode(env, agent, seed=0)
        finally:
            env.close()
    assert result["usage"]["retries"] == 3 and result["usage"]["model_calls"] == 1
    assert sleeps[0] == 0.0 and 0.25 <= sleeps[1] <= 1.0 and sleeps[2] == 2.0
    assert result["end_reason"] == "submitted"


def test_gives_up_after_retries_and_submits_as_is():
    with FakeLLMServer([http_error(503)] * 5) as srv:
        env = FDEGymEnv(task=TINY, sandbox=SANDBOX)
        try:
            agent, sleeps = _agent(srv, retries=2)
            result = run_episode(env, agent, seed=0)
        finally:
            env.close()
    u = result["usage"]
    assert u["stop_reason"].startswith("api_error") and u["retries"] == 2 and len(sleeps) == 2
    assert "gave up after 3 attempts" in u["api_errors"][0]
    assert result["end_reason"] == "submitted" and result["uplift"] == pytest.approx(0.0)


def test_wrong_model_name_is_a_clear_error():
    with FakeLLMServer([call("submit")]) as srv:
        env = FDEGymEnv(task=TINY, sandbox=SANDBOX)
        try:
            agent = LLMAgent(model="no-such-model", base_url=srv.base_url, api_key="k")
            with pytest.raises(RuntimeError, match=r"HTTP 404.*model name 'no-such-model'"):
                run_episode(env, agent, seed=0)
        finally:
            env.close()


@pytest.mark.parametrize("limits, reason, calls", [
    ({"max_turns": 2}, "max_turns (2 model calls)", 2),
    ({"max_usd": 1e-9}, "max_usd", 1),
    ({"max_wall_seconds": 0}, "max_wall_seconds", 0),
])
def test_budgets_stop_the_run_and_deliver_as_is(limits, reason, calls):
    with FakeLLMServer([call("directory")] * 10) as srv:
        env = FDEGymEnv(task=TINY, sandbox=SANDBOX)
        try:
            agent, _ = _agent(srv, **limits)
            result = run_episode(env, agent, seed=0)
        finally:
            env.close()
    u = result["usage"]
    assert u["stop_reason"].startswith(reason) and u["model_calls"] == calls
    assert result["end_reason"] == "submitted" and result["turns"] == calls + 1
    assert "(agent stopped:" in result["note"]


def test_text_only_model_and_nudges_count_as_turns():
    plan = [say("Hmm."), say('<tool_call>{"name": "read_file", "arguments": {"path": "docs/notes.md"}}</tool_call>'),
            say('{"name": "submit", "arguments": {"note": "done"}}')]
    with FakeLLMServer(plan) as srv:
        env = FDEGymEnv(task=TINY, sandbox=SANDBOX)
        try:
            agent, _ = _agent(srv)
            result = run_episode(env, agent, seed=0)
            msgs = srv.requests[2]["messages"]
        finally:
            env.close()
    assert result["turns"] == 3 and result["usage"]["nudges"] == 1 and result["usage"]["text_tool_calls"] == 2
    assert msgs[-1]["role"] == "user" and msgs[-1]["content"].startswith("[result of read_file]")
    assert "threshold was set years ago" in msgs[-1]["content"]


def test_prices_keys_and_make_agent(tmp_path, monkeypatch):
    assert price_for("gpt-4o-mini-2024-07-18") == price_for("gpt-4o-mini")
    assert price_for("openai/gpt-4.1") == price_for("gpt-4.1")
    assert price_for("mystery") is None and price_for("mystery", {"mystery": (1, 2)}) == (1, 2)
    with pytest.raises(ValueError, match=r"max_usd=1 needs a price for model 'mystery'.*prices="):
        LLMAgent(model="mystery", base_url="http://127.0.0.1:9/v1", max_usd=1)
    for var in ("FDEGYM_API_KEY", "FDEGYM_API_KEY_FILE", "OPENAI_API_KEY", "FDEGYM_MODEL", "FDEGYM_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ValueError, match=r"LLMAgent needs an API key, got none \(fix: pass api_key="):
        LLMAgent(model="gpt-4o", base_url="https://api.example.com/v1")
    with pytest.raises(ValueError, match=r"LLMAgent needs a model name, got none \(fix: --model M on the fdegym "
                                         r"command line, pass model= or set FDEGYM_MODEL\)"):
        LLMAgent(base_url="http://localhost:8000/v1")
    keyfile = tmp_path / "key"
    keyfile.write_text("sk-from-file\n")
    agent = make_agent("llm", model="gpt-4o", base_url="https://api.example.com/v1", api_key_file=str(keyfile))
    assert agent.client.api_key == "sk-from-file" and agent.name == "llm:gpt-4o"
    assert LLMAgent(model="m", base_url="http://localhost:11434/v1").client.api_key == "EMPTY"
    with pytest.raises(ValueError, match=r"api_key_file: expected a readable file holding the API key, got '.*nope'"):
        LLMAgent(model="m", base_url="https://x/v1", api_key_file=str(tmp_path / "nope"))


def test_cli_run_agent_llm(tmp_path, capsys):
    path = tmp_path / "cli.jsonl"
    with FakeLLMServer(plan_for(TINY)) as srv:
        rc = main(["run", TINY, "--agent", "llm", "--model", srv.model, "--base-url", srv.base_url,
                   "--sandbox", SANDBOX, "--record", str(path), "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["agent"] == f"llm:{srv.model}" and out["uplift"] == pytest.approx(1.0)
    assert out["usage"]["model_calls"] == len(srv.requests) and out["usage"]["usd"] > 0
    assert main(["replay", str(path)]) == 0
