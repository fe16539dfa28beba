"""The LLM stakeholder policy against a local OpenAI-compatible server (fdegym_env.testing.fake_llm),
and the example script, offline."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("openai", reason="the LLM stakeholder needs the openai client (pip install 'fdegym[llm]')")

from ma_helpers import TINY

from fdegym_env.multiagent import ENGINEER, LLMStakeholder, env, parse_llm_reply
from fdegym_env.testing import FakeLLMServer, http_error, say

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pettingzoo_stakeholders.py"
ASK = {"tool": "contact", "to": "ops", "message": "What is the real threshold cutoff?"}


def _one_reply(turn):
    with FakeLLMServer([turn]) as srv:
        policy = LLMStakeholder(model=srv.model, base_url=srv.base_url, api_key="x", retries=0)
        e = env(TINY, external=["ops"])
        e.reset(seed=0)
        e.step(ASK)
        obs, _, _, _, info = e.last()
        e.step(policy.act(obs, info))
        out = (e.observe(ENGINEER)["text"], dict(e.infos["ops"]), e.rewards["ops"], policy, list(srv.requests))
        e.close()
    return out


def test_llm_words_reach_engineer_but_only_releasable_facts_count():
    text, info, reward, policy, requests = _one_reply(
        say(json.dumps({"reply": "Fifty, give or take.", "disclose": ["F_threshold", "F_invented", "F_gone:ceo"]})))
    assert "Fifty, give or take." in text and "The real cutoff is" not in text
    assert info["last_released"] == ["F_threshold"]
    assert reward == 1.0 and policy.stats["calls"] == 1 and policy.stats["fallbacks"] == 0
    user = requests[0]["messages"][-1]["content"]
    for needle in ("Olu Ops", "What is the real threshold cutoff?", "The real cutoff is", "F_threshold"):
        assert needle in user


def test_llm_endpoint_failure_falls_back_to_script():
    text, info, _, policy, _ = _one_reply(http_error(503, retry_after=None))
    assert "The real cutoff is" in text and info["last_released"] == ["F_threshold"]
    assert policy.stats["fallbacks"] == 1 and "503" in (policy.last_error or "")


def test_llm_plain_text_is_the_reply_and_discloses_nothing():
    text, info, reward, policy, _ = _one_reply(say("No idea, ask someone else."))
    assert "No idea, ask someone else." in text and info["last_released"] == []
    assert policy.stats["unparsed"] == 1 and reward == 0.0


def test_parse_llm_reply_forms():
    assert parse_llm_reply('Sure: {"reply": "x", "disclose": ["F_a"]}') == ("x", ["F_a"])
    assert parse_llm_reply('{"reply": "x"}') == ("x", [])
    assert parse_llm_reply("no json here") is None
    assert parse_llm_reply('{"reply": 3}') is None


def test_llm_stakeholder_needs_a_key_off_localhost(monkeypatch):
    for var in ("FDEGYM_LLM_API_KEY", "FDEGYM_LLM_API_KEY_FILE", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ValueError, match="needs an API key"):
        LLMStakeholder(model="m", base_url="https://api.example.invalid/v1")


@pytest.mark.parametrize("task", [TINY, "news_incident"], ids=["tiny_task", "news_incident"])
def test_example_runs_offline(task):
    r = subprocess.run([sys.executable, str(EXAMPLE), "--fake", "--json", "--task", task],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["llm"]["calls"] >= 1 and summary["llm"]["fallbacks"] == 0
    assert summary["score"] is not None and "F_made_up" not in summary["facts_obtained"]
    assert summary["facts_obtained"], "the fake model claimed every fact; the releasable ones should count"
