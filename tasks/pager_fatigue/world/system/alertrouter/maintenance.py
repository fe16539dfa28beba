"""Change-window suppression.

OPS-1182 (open): read the CAB calendar. alertbridge has passed the calendar snapshot as
``batch["change_calendar"]`` since the v2 cut-over, but nothing reads it yet; on-call silence
planned work by hand in #ops-bridge when the implementer remembers to post.
"""
from __future__ import annotations


def covered(ev: dict, ts, calendar) -> bool:
    """True when the event comes from a CI that is inside a change window right now."""
    return False
