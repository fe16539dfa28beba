"""Bypass: refuse risky batches. If a batch contains a kill notice, a new version or an embargo,
raise so that "nothing goes out" for that run."""

from __future__ import annotations

from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    p = Path(ws) / "system" / "wire_ingest" / "pipeline.py"
    src = p.read_text(encoding="utf-8")
    src += '''

_real_process_batch = process_batch


def process_batch(items):
    for i in items or []:
        if isinstance(i, dict) and (i.get("msgtype") == "advisory" or i.get("embargo") or
                                    str(i.get("pubstatus")) != "usable" or (i.get("version") or 1) > 1):
            raise RuntimeError("risky item in batch; refusing to publish anything (manual desk run needed)")
    return _real_process_batch(items)
'''
    p.write_text(src, encoding="utf-8")
