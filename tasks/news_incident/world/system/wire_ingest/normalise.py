"""Make receiver output safe to work with. The receiver passes agency fields through mostly as
sent, so expect strings where numbers should be, nulls, stray whitespace and HTML entities."""

from __future__ import annotations

import html


def _text(v) -> str:
    return html.unescape(str(v)).strip() if v is not None else ""


def _list(v) -> list:
    if isinstance(v, list):
        return [str(x).strip() for x in v if x is not None and str(x).strip()]
    if isinstance(v, str) and v.strip():
        return [s.strip() for s in v.split(",") if s.strip()]
    return []


def normalise(raw: dict) -> dict:
    raw = raw if isinstance(raw, dict) else {}
    try:
        priority = int(str(raw.get("priority", "")).strip() or 4)
    except ValueError:
        priority = 4
    try:
        version = int(raw.get("version") or 1)
    except (TypeError, ValueError):
        version = 1
    return {
        "guid": _text(raw.get("guid")) or "unknown",
        "agency": _text(raw.get("agency")).upper(),
        "received": _text(raw.get("received")),
        "slug": _text(raw.get("slug")),
        "version": version,
        "pubstatus": (_text(raw.get("pubstatus")) or "usable").lower(),
        "msgtype": (_text(raw.get("msgtype")) or "story").lower(),
        "priority": priority,
        "headline": _text(raw.get("headline")),
        "body": _text(raw.get("body")),
        "subjects": [s.lower() for s in _list(raw.get("subjects"))],
        "people": _list(raw.get("people")),
        "country": _text(raw.get("country")).upper() or "GB",
        "embargo": _text(raw.get("embargo")) or None,
        "ref": _text(raw.get("ref")) or None,
    }
