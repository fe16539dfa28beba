"""Shortcut: play safe - every case to a Planning Officer (or conservation), nothing to the
technicians, so no small permit is ever issued without an officer. The reference, then this."""

from fdegym_env.tasklib import solutions

from . import reference


def apply(ws, params):
    reference.apply(ws, params)
    solutions.replace(ws, "system/permits/triage.py", '        route = "fast_track"\n', '        route = "officer"\n')
