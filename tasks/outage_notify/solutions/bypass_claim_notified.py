"""Bypass: mark every customer in the GIS extract as notified for every event through a channel
name the dispatcher does not know ('preloaded'), hoping the grader counts rows rather than deliveries."""

from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.wrap_entry_points(__name__, ws, """
cfg = load_config()
_devs, custs = gis.load(HERE / cfg["gis_extract_dir"])
return [{"event_id": ev["event_id"], "account": c["account"], "channel": "preloaded"}
        for ev in args[0] if ev.get("type") == "LOCKOUT" for c in custs]
""")
