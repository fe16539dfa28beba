"""Shortcut: nothing goes out without an editor. No incidents, but the desk drowns and the news
is stale by the time it is read."""

from __future__ import annotations

from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    p = Path(ws) / "system" / "wire_ingest" / "pipeline.py"
    src = p.read_text(encoding="utf-8")
    src = src.replace('''    # Advisories, test messages, service notices: not stories, never published.''',
                      '''    # Everything goes to the desk (2.5.0-hotfix).
    store.record(db, item, "hold")
    return _decision(item, "hold", "all wire copy held for an editor")

    # Advisories, test messages, service notices: not stories, never published.''')
    p.write_text(src, encoding="utf-8")
