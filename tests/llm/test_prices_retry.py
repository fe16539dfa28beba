"""One price table and one retry rule for both model clients: the agent's (openai SDK) and the harness
gateway's (stdlib, fdegym_env.harness.servers.chat), against the local scripted server."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from fdegym_env.agents import llm as agent_llm

from fdegym_env.harness import servers
from fdegym_env.llm import prices, retry
from fdegym_env.testing import FakeLLMServer, http_error, say

TOKENS = (1000, 100, 400)   # prompt, completion, cached prompt


@pytest.fixture
def env_llm(monkeypatch):
    """Point the environment's model (FDEGYM_LLM_*) at a server; no price override unless a test sets one."""
    for var in ("FDEGYM_LLM_PRICE", "FDEGYM_LLM_API_KEY", "FDEGYM_LLM_API_KEY_FILE", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)

    def point(srv):
        monkeypatch.setenv("FDEGYM_LLM_BASE_URL", srv.base_url)
        monkeypatch.setenv("FDEGYM_LLM_MODEL", srv.model)
    return point


def _agent_call_usd(srv) -> float:
    agent = agent_llm.LLMAgent(model=srv.model, base_url=srv.base_url, api_key="k")
    agent.reset(SimpleNamespace(), {"text": "brief"}, {})
    agent._complete()
    return agent.usage["usd"]


def test_agent_and_gateway_cost_a_call_identically(env_llm, monkeypatch):
    with FakeLLMServer([say("a"), say("b"), say("c")], usage=TOKENS) as srv:
        env_llm(srv)
        agent_usd = _agent_call_usd(srv)
        _, usage = servers.chat([{"role": "user", "content": "hi"}])
        expect = prices.cost_usd(prices.PRICES[srv.model], *TOKENS)
        assert expect > 0 and agent_usd == pytest.approx(expect) and usage["usd"] == pytest.approx(expect)
        # FDEGYM_LLM_PRICE overrides the table for the environment's model only
        monkeypatch.setenv("FDEGYM_LLM_PRICE", "10,20")
        _, usage = servers.chat([{"role": "user", "content": "hi"}])
        assert usage["usd"] == pytest.approx(prices.cost_usd((10.0, 20.0), *TOKENS))
        assert servers.llm_endpoint()["price_in"] == 10.0 and servers.llm_endpoint()["price_out"] == 20.0
    # one table: the agent's PRICES and price_for are the shared ones
    assert agent_llm.PRICES is prices.PRICES and agent_llm.price_for is prices.price_of


def test_both_clients_use_the_one_retry_rule():
    assert agent_llm.call_with_retries is servers.call_with_retries is retry.call_with_retries
    assert agent_llm.retryable is servers.retryable is retry.retryable
    assert agent_llm.RETRY_STATUS is retry.RETRY_STATUS
    assert servers.chat.__kwdefaults__ is None and servers.chat.__defaults__[-1] is retry.DEFAULT_RETRY
    default = agent_llm.LLMAgent(model="m", base_url="http://127.0.0.1:9/v1").retry_policy
    assert default == retry.DEFAULT_RETRY


def test_gateway_client_retries_429_and_5xx_then_gives_up(env_llm):
    with FakeLLMServer([http_error(429), http_error(503), say("ok")], usage=TOKENS) as srv:
        env_llm(srv)
        text, usage = servers.chat([{"role": "user", "content": "hi"}])
        assert text == "ok" and len(srv.requests) == 3
    with FakeLLMServer([http_error(503)] * 5) as srv:
        env_llm(srv)
        with pytest.raises(RuntimeError, match="gave up after 3 attempts"):
            servers.chat([{"role": "user", "content": "hi"}], retry=retry.RetryPolicy(retries=2))
        assert len(srv.requests) == 3
    with FakeLLMServer([http_error(400), say("never")]) as srv:    # a bad request is not retried
        env_llm(srv)
        with pytest.raises(RuntimeError, match="HTTP Error 400"):
            servers.chat([{"role": "user", "content": "hi"}])
        assert len(srv.requests) == 1


def test_gateway_client_does_not_retry_a_refused_connection(monkeypatch):
    monkeypatch.setenv("FDEGYM_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("FDEGYM_LLM_MODEL", "m")
    t0 = time.monotonic()
    with pytest.raises(RuntimeError, match="refused"):
        servers.chat([{"role": "user", "content": "hi"}])
    assert time.monotonic() - t0 < 5


def test_price_parsing_and_backoff():
    assert prices.parse_price("0.27,1.10") == (0.27, 1.1) and prices.parse_price("1,2,0.5") == (1.0, 2.0, 0.5)
    with pytest.raises(ValueError, match="FDEGYM_LLM_PRICE"):
        prices.parse_price("cheap")
    assert prices.env_price("gpt-4o", environ={}) == prices.PRICES["gpt-4o"]
    assert prices.env_price("mystery", environ={}) is None
    assert prices.env_price("gpt-4o", environ={"FDEGYM_LLM_PRICE": "1,2"}) == (1.0, 2.0)
    p = retry.RetryPolicy(retries=3, backoff_s=1.0, max_backoff_s=3.0)
    assert p.delay(0, retry_after=7) == 3.0 and 0.5 <= p.delay(0) <= 1.0 and 1.5 <= p.delay(5) <= 3.0
    assert [retry.retryable(s) for s in (400, 404, 408, 429, 500, 529)] == [False, False, True, True, True, True]
