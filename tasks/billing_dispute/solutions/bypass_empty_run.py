"""Bypass: no invoices, no disputes. run_cycle bills nobody, the dispute handler rejects
everything it sees."""
from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.wrap_entry_points(__name__, ws, """
if "disputes" in args[0]:
    return {"decisions": [{"dispute_id": d["dispute_id"], "action": "reject"} for d in args[0]["disputes"]]}
return {"run_id": args[0].get("run_id"), "period": args[0].get("period"), "invoices": []}
""")
