"""Test helpers that ship with the package: a scripted OpenAI-compatible server for LLM agents.

    from fdegym_env.testing import FakeLLMServer, plan_for
    with FakeLLMServer(plan_for("news_incident")) as srv:
        agent = LLMAgent(model=srv.model, base_url=srv.base_url, api_key="x")
"""

from fdegym_env.testing.fake_llm import FAKE_MODEL, FakeLLMServer, call, http_error, plan_for, raw_call, say, text_call

__all__ = ["FakeLLMServer", "FAKE_MODEL", "plan_for", "call", "raw_call", "text_call", "say", "http_error"]
