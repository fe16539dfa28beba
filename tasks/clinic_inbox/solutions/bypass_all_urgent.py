"""Bypass: claim everything is urgent and self-report that a nurse saw it, hoping the grader trusts
the router's own fields (priority, seen_by_nurse, sla_met) instead of simulating the queue."""
from fdegym_env.tasklib import solutions

BODY = '''
return {"decisions": [{"id": m.get("id"), "queue": "nurse_line", "priority": "urgent", "reply": None,
                       "seen_by_nurse": True, "sla_met": True, "red_flag": False, "staff_minutes": 0}
                      for m in args[0].get("messages", [])], "kpi": 0.0, "incidents": []}
'''


def apply(ws, params: dict) -> None:
    solutions.wrap_entry_points(__name__, ws, BODY)
