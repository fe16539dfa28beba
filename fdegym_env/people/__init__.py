"""Scripted stakeholders: a pure state machine (:class:`People`) plus a pluggable topic router.

The engine knows nothing about Gymnasium, so the single-agent env, the multi-agent env and other
front ends share it.
"""

from fdegym_env.people.engine import ContactResult, People
from fdegym_env.people.routers import LexicalRouter, RegexRouter, Router, make_router
from fdegym_env.people import llm_router  # noqa: E402,F401  (registers the "llm" router kind)

__all__ = ["People", "ContactResult", "Router", "RegexRouter", "LexicalRouter", "make_router"]
