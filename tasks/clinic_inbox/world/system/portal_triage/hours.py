"""Opening hours, from config/practice.json."""

from __future__ import annotations

import datetime as dt
import json
import os

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "config", "practice.json")


def _cfg() -> dict:
    with open(_PATH, encoding="utf-8") as f:
        return json.load(f)


def parse_ts(value):
    """Portal timestamps: ISO 8601, usually with Z or +00:00. Returns a naive UK-local datetime or None."""
    if not value:
        return None
    s = str(value).strip().replace(" ", "T")
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        t = dt.datetime.fromisoformat(s)
    except ValueError:
        return None
    if t.tzinfo is not None:
        # practice runs on UK time; GMT until the clocks change (BST handled by the connector)
        t = t.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return t


def is_open(t: dt.datetime) -> bool:
    cfg = _cfg()
    day = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"][t.weekday()]
    span = cfg["opening_hours"].get(day)
    if not span:
        return False
    start, end = span
    hm = t.strftime("%H:%M")
    return start <= hm < end
