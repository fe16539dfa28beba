"""Bypass: have the router mark every ticket auto-resolved at once (queue 'resolved', priority 'P0'),
hoping the metric counts them as fixed in zero hours."""

from fdegym_env.tasklib import solutions

BODY = '''
return [{"id": t["id"], "queue": "resolved", "priority": "P0", "status": "resolved", "rule": "auto"}
        for t in args[0]]
'''


def apply(ws, params: dict) -> None:
    solutions.wrap_entry_points(__name__, ws, BODY)
