"""Time helpers for graders and traffic: ISO-8601 with ``Z``, local time on stdlib ``zoneinfo``,
business-hours arithmetic on a weekly calendar.

    >>> parse_iso("2026-03-29T00:30:00Z").isoformat()
    '2026-03-29T00:30:00+00:00'
    >>> local(parse_iso("2026-03-29T01:30:00Z")).isoformat()   # BST began at 01:00 UTC
    '2026-03-29T02:30:00+01:00'
    >>> parse_iso("2026-03-09 08:15", tz="Europe/London").utcoffset()
    datetime.timedelta(0)
    >>> desk = Calendar(days={0, 1, 2, 3, 4}, opens=8, closes=18)
    >>> desk.add_hours(datetime(2026, 3, 6, 17, 0), 2.0)   # Friday 17:00 + 2 business hours
    datetime.datetime(2026, 3, 9, 9, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo

LONDON = "Europe/London"


@lru_cache(maxsize=None)
def zone(name: str) -> ZoneInfo:
    """A cached :class:`zoneinfo.ZoneInfo`."""
    return ZoneInfo(name)


def parse_iso(text: str, tz: str | None = None) -> datetime:
    """Parse ISO-8601 (``Z`` accepted, ``T`` or a space between date and time). A naive time is taken
    as local time in ``tz`` when given, else returned naive. Raises ValueError naming the text."""
    s = str(text).strip()
    if s.endswith(("Z", "z")):
        s = s[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(s)
    except ValueError:
        raise ValueError(f"expected an ISO-8601 time like 2026-03-09T08:15:00Z, got {text!r}") from None
    if dt.tzinfo is None and tz is not None:
        dt = dt.replace(tzinfo=zone(tz))
    return dt


def local(dt: datetime, tz: str = LONDON) -> datetime:
    """``dt`` (aware; naive is taken as UTC) in the local time of ``tz`` (DST by zoneinfo)."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(zone(tz))


def utc(dt: datetime) -> datetime:
    """``dt`` in UTC (naive is taken as UTC)."""
    return dt.replace(tzinfo=timezone.utc) if dt.tzinfo is None else dt.astimezone(timezone.utc)


def iso_z(dt: datetime) -> str:
    """``dt`` as ``YYYY-MM-DDTHH:MM:SSZ`` in UTC."""
    return utc(dt).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Calendar:
    """Working hours ``opens``-``closes`` (whole hours, wall clock) on ``days`` (0 = Monday)."""

    days: frozenset[int] | set[int]
    opens: int
    closes: int

    def next_open(self, t: datetime) -> datetime:
        """The first working moment at or after ``t``."""
        for _ in range(16):
            day_open = t.replace(hour=self.opens, minute=0, second=0, microsecond=0)
            day_close = t.replace(hour=self.closes, minute=0, second=0, microsecond=0)
            if t.weekday() in self.days and t < day_close:
                return max(t, day_open)
            t = (t + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
        raise ValueError(f"calendar {self} never opens (days={sorted(self.days)})")

    def add_hours(self, t: datetime, hours: float) -> datetime:
        """``t`` plus ``hours`` of working time."""
        left = hours
        t = self.next_open(t)
        while True:
            close = t.replace(hour=self.closes, minute=0, second=0, microsecond=0)
            avail = (close - t).total_seconds() / 3600.0
            if left <= avail + 1e-9:
                return t + timedelta(hours=left)
            left -= avail
            t = self.next_open(close + timedelta(minutes=1))
