"""How a graded result is worded for people: the env's last observation, ``fdegym episode``, ``fdegym run``.

The score's cost term is the harness's ``contact_cost``: every point spent on people's time, trial days
and waiting. The words say which of those it was, so nobody mistakes a trial day for a question.
"""
from __future__ import annotations

from typing import Any


def cost_words(result: dict[str, Any]) -> str:
    """``contact cost 0.170 (people 0.120, trial days 0.050)``: the parts that are not zero.

    >>> cost_words({"contact_cost": 0.17, "cost_parts": {"people": 0.12, "trials": 0.05, "waiting": 0.0}})
    'contact cost 0.170 (people 0.120, trial days 0.050)'
    >>> cost_words({"contact_cost": 0.08, "cost_parts": {"people": 0.08, "trials": 0.0, "waiting": 0.0}})
    'contact cost 0.080 (people)'
    >>> cost_words({"contact_cost": 0.0})
    'contact cost 0.000'
    """
    parts = result.get("cost_parts") or {}
    names = {"people": "people", "trials": "trial days", "waiting": "waiting"}
    spent = [(names[k], v) for k, v in parts.items() if k in names and v]
    text = f"contact cost {result['contact_cost']:.3f}"
    if len(spent) == 1:
        return f"{text} ({spent[0][0]})"
    if spent:
        return f"{text} ({', '.join(f'{n} {v:.3f}' for n, v in spent)})"
    return text


def resolved_words(result: dict[str, Any]) -> str:
    """``yes``, or ``no`` and why: a score of at least :data:`RESOLVED_AT` with no incident resolves."""
    from fdegym_env.grading.grade import RESOLVED_AT
    if result["resolved"]:
        return "yes"
    why = [f"score under {RESOLVED_AT:g}"] if result["score"] < RESOLVED_AT else []
    why += ["an incident"] if result.get("incidents") else []
    return f"no ({' and '.join(why)})" if why else "no"


def result_text(result: dict[str, Any]) -> str:
    """The graded result as the env words it at the end of an episode."""
    inc = "; ".join(result.get("incidents") or []) or "none"
    metric = (result.get("metric") or {}).get("name", "kpi")
    return (f"== result ==\nscore {result['score']:.3f} (uplift {result['uplift']:.3f}, {cost_words(result)}); "
            f"incidents: {inc}; resolved: {resolved_words(result)}; ended: {result['end_reason']}\n"
            f"{metric}: {result['kpi']:.4g} (as found {result['kpi_baseline']:.4g}, "
            f"reference {result['kpi_reference']:.4g})")
