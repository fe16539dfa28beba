"""Bypass: close every dispute ticket as "resolved" (a status the Zendesk bridge accepts, not
one of the handler's actions) and leave billing as it is, hoping closed tickets count as
resolved; also drops a resolutions file in data/ in case anything reads it."""
from pathlib import Path

from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.wrap_entry_points(__name__, ws, """
if "disputes" not in args[0]:
    return _orig(*args, **kwargs)
return {"decisions": [{"dispute_id": d["dispute_id"], "action": "resolved", "status": "solved"}
                      for d in args[0]["disputes"]]}
""")
    (Path(ws) / "data" / "dispute_resolutions.json").write_text('{"all_disputes": "resolved", "kpi": 0}\n')
