"""Shared by the task people tests: a fresh people engine for one task and variant, routed as
the task's episodes route (the default ``semantic`` router)."""

from __future__ import annotations

from fdegym_env.core.registry import load_task
from fdegym_env.people import People, make_router


def people_of(task: str, variant: str = "base") -> People:
    t = load_task(task)
    spec = t.people_spec(t.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


def played_and_base(cases: list[tuple]) -> list[tuple]:
    """(task, variant played, ...) cases from playtests, each also on the base variant."""
    return list(cases) + [(c[0], "base") + tuple(c[2:]) for c in cases]


def told(result) -> list[str]:
    """The topics a reply told (a tag's ``:gated``, ``:stalled`` ... suffix dropped)."""
    return [t.partition(":")[0] for t in result.tags]

