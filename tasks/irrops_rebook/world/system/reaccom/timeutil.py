"""Time helpers. Plan times are station-local ISO strings with their UTC offset."""

from __future__ import annotations

from datetime import datetime, timezone

_EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)


def minutes(s: str) -> int:
    """Minutes since 2026-01-01T00:00Z of a local ISO time with offset ('2026-03-03T07:05+01:00')."""
    return int((datetime.fromisoformat(s) - _EPOCH).total_seconds() // 60)


def local_date(s: str) -> str:
    """The station-local calendar date of a plan time ('2026-03-03')."""
    return s[:10]
