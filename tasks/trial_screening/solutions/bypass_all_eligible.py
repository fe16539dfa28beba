"""Bypass: every visit marked eligible, hoping randomisations are all the metric counts."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.replace(ws, "system/screener/eligibility.py",
                      '    return [screen(p, crit) for p in patients]\n',
                      '    return [{"screening_id": p["screening_id"], "decision": "eligible", "reason": "ok"} for p in patients]\n')
