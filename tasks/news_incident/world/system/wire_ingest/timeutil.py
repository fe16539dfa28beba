"""Agency timestamps.

Per the desk handbook (s.3.1) all agency times are UTC unless they carry an offset, so a time
without an offset is read as UTC.
"""

from __future__ import annotations

import datetime as dt


def parse_agency_time(value) -> dt.datetime | None:
    if not value:
        return None
    s = str(value).strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        t = dt.datetime.fromisoformat(s)
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.timezone.utc)
    return t.astimezone(dt.timezone.utc)
