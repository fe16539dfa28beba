"""Change-window suppression from the CAB calendar (ServiceNow JSON export in every batch).

A non-contract alert from a CI that is inside a change window is suppressed. Only changes in a
state that means the work is really happening count: ('Implement',).
"""
from __future__ import annotations

from .timeutil import parse_ts

TRUSTED_STATES = ('Implement',)


def _service(ci: str) -> str:
    ci = (ci or "").strip().lower()
    return ci[:-4] if ci.endswith(".prd") else ci


def covered(ev: dict, ts, calendar) -> bool:
    if ts is None or not calendar:
        return False
    svc = str(ev.get("service") or "").lower()
    for c in calendar:
        if c.get("state") not in TRUSTED_STATES:
            continue
        if _service(c.get("cmdb_ci")) != svc:
            continue
        a, b = parse_ts(c.get("planned_start")), parse_ts(c.get("planned_end"))
        if a and b and a <= ts <= b:
            return True
    return False
