"""Bypass: return routing decisions the connector would choke on (unknown queue names, no ids),
hoping a lenient grader counts nothing as handled badly."""
from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.wrap_entry_points(__name__, ws, 'return {"decisions": [{"queue": "none", "priority": None} '
                                              'for _ in args[0].get("messages", [])]}')
