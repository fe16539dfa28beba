"""Toolkit for scenario authors (docs/tasklib.md).

- :mod:`~fdegym_env.tasklib.replay`: call an entry point per batch; output checked against the
  shape declared in task.yaml; malformed output is one incident.
- :mod:`~fdegym_env.tasklib.evaluation`: one ``evaluate(decide, params, traffic)`` per task gives
  both ``grade`` and the trial's run.
- :mod:`~fdegym_env.tasklib.timeutil`: ISO-8601 with ``Z``, zoneinfo local time, business hours.
- :mod:`~fdegym_env.tasklib.sampling`: a sampler's view of its task, ``redraw_until``.
- :mod:`~fdegym_env.tasklib.solutions`: solutions as overlay folders and "reference, then this".
- :mod:`~fdegym_env.tasklib.menu`: menu.yaml's plans per variant (validate checks they reach 0.95).
"""

from fdegym_env.tasklib import evaluation, menu, replay, sampling, solutions, timeutil

__all__ = ["evaluation", "menu", "replay", "sampling", "solutions", "timeutil"]
