"""One evaluation per task, used by both grading and the trial day.

A grader writes ``evaluate(decide, params, traffic) -> dict`` once: it replays ``traffic`` by calling
``decide(batch)`` (a :class:`~fdegym_env.tasklib.replay.Reply` with the valid decisions by id) and
scores the decisions. :func:`grader` turns it into the ``grade(deploy, params, traffic)`` the core
calls; :func:`evaluate_on` runs it for a trial. Malformed output becomes one incident (declared in
task.yaml, see :mod:`~fdegym_env.tasklib.replay`), so the evaluation only scores decisions.

Example (``grader.py``)::

    from fdegym_env.tasklib import evaluation

    def evaluate(decide, params, traffic):
        hits = 0
        for batch in traffic["batches"]:
            reply = decide(batch)
            hits += sum(reply.decisions.get(i["id"], {}).get("action") == i["want"] for i in batch)
        return {"kpi": hits, "incidents": [], "summary": f"{hits} right", "details": {}}

    grade = evaluation.grader(evaluate)

and in ``trial.py``: ``out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)``.
Keys of the result starting with ``_`` are for the trial only; ``grade`` drops them.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from fdegym_env.tasklib.replay import Decider

Evaluate = Callable[[Callable[..., Any], dict, Any], dict]


def evaluate_on(deploy: Any, evaluate: Evaluate, params: dict, traffic: Any, entry: str | None = None) -> dict:
    """Run ``evaluate`` against ``deploy``'s entry point ``entry`` (default: the task's only one);
    the malformed-output incident is appended to ``incidents``."""
    decide = Decider(deploy, entry)
    out = dict(evaluate(decide, params, traffic))
    out["incidents"] = list(out.get("incidents") or []) + decide.incidents()
    return out


def grader(evaluate: Evaluate, entry: str | None = None) -> Callable[[Any, dict, Any], dict]:
    """``grade(deploy, params, traffic)`` built from ``evaluate``: its ``kpi``, ``incidents``,
    ``summary`` and ``details``, without the trial-only ``_`` keys."""

    def grade(deploy: Any, params: dict, traffic: Any) -> dict:
        out = evaluate_on(deploy, evaluate, params, traffic, entry)
        return {k: v for k, v in out.items() if not k.startswith("_")}

    grade.__doc__ = f"Grade by {getattr(evaluate, '__module__', '?')}.{getattr(evaluate, '__name__', '?')}."
    return grade


def named(ids: Iterable[str], shown: int) -> str:
    """How a trial report names examples beside its count: the first ``shown`` ids, sorted, and
    "(5 of 11 shown)" when there are more (``named(["b", "a", "c"], 2)`` -> ``"a, b (2 of 3 shown)"``)."""
    ids = sorted(ids)
    return ", ".join(ids[:shown]) + (f" ({shown} of {len(ids)} shown)" if len(ids) > shown else "")
