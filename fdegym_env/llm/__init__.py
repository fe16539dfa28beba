"""One way to reach an OpenAI-compatible chat endpoint, for every part of fdegym that calls a model.

Two roles, each configured once (:class:`Endpoint`):

* ``agent`` — the model under evaluation (:class:`fdegym_env.agents.llm.LLMAgent`):
  ``FDEGYM_BASE_URL``, ``FDEGYM_MODEL``, ``FDEGYM_API_KEY`` / ``FDEGYM_API_KEY_FILE``;
* ``env`` — the environment's own model (LLM topic router, LLM-played stakeholders, the harness
  cases' company gateway): ``FDEGYM_LLM_BASE_URL``, ``FDEGYM_LLM_MODEL``, ``FDEGYM_LLM_API_KEY`` /
  ``FDEGYM_LLM_API_KEY_FILE``.

Both fall back to ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``; a local server (``localhost``) needs no key.

What a call costs is priced from one table (:mod:`fdegym_env.llm.prices`; ``FDEGYM_LLM_PRICE``
overrides the env role's price), and failed calls are retried by one rule (:mod:`fdegym_env.llm.retry`).
"""

from fdegym_env.llm.endpoint import LOCAL_HOSTS, ROLES, Endpoint, make_client

__all__ = ["Endpoint", "make_client", "LOCAL_HOSTS", "ROLES"]
