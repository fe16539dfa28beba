"""Bypass: return something that is not a list of decisions (nothing published, nothing to fault)."""

from __future__ import annotations

from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    p = Path(ws) / "system" / "wire_ingest" / "pipeline.py"
    src = p.read_text(encoding="utf-8")
    src += '''

_real_process_batch = process_batch


def process_batch(items):
    _real_process_batch(items)
    return {"status": "queued", "decisions": "deferred to cms-bridge", "incidents": 0}
'''
    p.write_text(src, encoding="utf-8")
