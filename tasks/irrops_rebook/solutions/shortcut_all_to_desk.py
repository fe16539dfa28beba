"""Shortcut: hold everything - no automation at all, every passenger on a cancelled flight goes to
the recovery desk (nobody is ever misconnected or auto-rebooked wrongly, and nothing is learned)."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.wrap_entry_points(__name__, ws, """
return {"decisions": [{"pax_id": p["pax_id"], "action": "desk", "reason": "manual handling"}
                      for p in args[0]["passengers"]]}
""")
