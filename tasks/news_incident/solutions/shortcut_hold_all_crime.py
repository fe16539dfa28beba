"""Shortcut: fix kills, versions and embargo times, and instead of asking legal what must be
reviewed, hold every crime/court story. Safe, but the desk overflows and the most-read copy is late."""

from __future__ import annotations

from pathlib import Path

from . import reference as _ref


def apply(ws: Path, params: dict) -> None:
    _ref.apply(ws, params)
    p = Path(ws) / "system" / "wire_ingest" / "pipeline.py"
    src = p.read_text(encoding="utf-8")
    src = src.replace('''def legal_hold(item):
    subj = set(item["subjects"])''', '''def legal_hold(item):
    return "crime" in set(item["subjects"])
    subj = set(item["subjects"])''')
    src = src.replace("if item[\"priority\"] >= policy.SPIKE_PRIORITY:", "if False:")
    p.write_text(src, encoding="utf-8")
