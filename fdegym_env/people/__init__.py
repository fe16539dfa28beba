"""Scripted stakeholders: a pure state machine (:class:`People`) plus a pluggable topic router.

The engine knows nothing about Gymnasium, so the single-agent env, the multi-agent env and other
front ends share it.
"""

from fdegym_env.people import llm_router  # noqa: F401  (registers the "llm" router kind)
from fdegym_env.people.engine import ContactResult, People
from fdegym_env.people.routers import LexicalRouter, RegexRouter, Router, make_router
from fdegym_env.people.semantic_router import SemanticRouter

__all__ = ["People", "ContactResult", "Router", "RegexRouter", "LexicalRouter", "SemanticRouter", "make_router"]
