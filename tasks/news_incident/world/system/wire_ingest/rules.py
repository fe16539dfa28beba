"""Editorial rules applied before auto-publication.

History: until 2023 flashes (priority 1) were held for the desk; switched off after the
night desk complained about the delay (CHANGELOG 2.2.0). Court and crime copy is not held:
agency court copy is legally checked at source (desk handbook s.4.2).
"""

from __future__ import annotations

DROP_MSGTYPES = {"advisory", "admin", "test", "service"}

# Subjects that always go to the desk. Empty since 2.2.0.
HOLD_SUBJECTS: set[str] = set()


def hold_reason(item: dict) -> str | None:
    """Why an item must go to an editor instead of the site, or None to auto-publish."""
    hit = HOLD_SUBJECTS & set(item.get("subjects") or [])
    if hit:
        return "subject " + ", ".join(sorted(hit))
    return None
