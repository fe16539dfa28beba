"""Timestamp helpers. Sources disagree: Alertmanager sends ...Z (sometimes with millis),
lb-healthd +00:00, pgwatch the host's local offset, synthetics a space instead of the T."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

UTC = timezone.utc


def parse_ts(s):
    if not isinstance(s, str) or not s:
        return None
    try:
        dt = datetime.fromisoformat(s.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC)


def sort_key(ev):
    dt = parse_ts(ev.get("ts"))
    return dt or datetime.max.replace(tzinfo=UTC)


def _last_sunday(y: int, m: int) -> date:
    d = date(y, m, 31)
    while d.weekday() != 6:
        d -= timedelta(days=1)
    return d


def london(dt_utc: datetime) -> datetime:
    """UTC -> Europe/London wall clock (naive). No tzdata on the router hosts, so the EU rule is
    spelled out: BST from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday
    of October."""
    y = dt_utc.year
    a = datetime.combine(_last_sunday(y, 3), datetime.min.time(), UTC) + timedelta(hours=1)
    b = datetime.combine(_last_sunday(y, 10), datetime.min.time(), UTC) + timedelta(hours=1)
    off = 1 if a <= dt_utc < b else 0
    return (dt_utc + timedelta(hours=off)).replace(tzinfo=None)
