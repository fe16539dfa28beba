"""Loads the nightly GIS extract (ArcGIS Utility Network -> CSV, 02:15 job `gis_un_export`).

devices.csv    one row per device: id, kind, up, down, normal, scada, feeder
customers.csv  one row per service point: account, premise, section, transformer, feeder,
               phone, phone_type, med_code, kind

Both files describe the network as GIS holds it: the NORMAL configuration. The extract is
refreshed nightly but only changes when GIS posts an edit (see docs/gis_data_notes.md).
"""

from __future__ import annotations

import csv
from collections import deque
from pathlib import Path


def load(extract_dir: Path) -> tuple[list[dict], list[dict]]:
    with open(extract_dir / "devices.csv", newline="", encoding="utf-8") as fh:
        devs = list(csv.DictReader(fh))
    with open(extract_dir / "customers.csv", newline="", encoding="utf-8") as fh:
        custs = list(csv.DictReader(fh))
    return devs, custs


def paths(devs: list[dict], state: dict | None = None) -> dict[str, list[str]]:
    """section -> the devices between it and its substation breaker, walking closed devices
    only. ``state`` overrides the normal position of a device (id -> 'open' | 'closed')."""
    state = state or {}
    adj: dict[str, list[tuple[str, str]]] = {}
    for d in devs:
        pos = state.get(d["id"], d["normal"])
        if pos != "closed":
            continue
        adj.setdefault(d["up"], []).append((d["id"], d["down"]))
        adj.setdefault(d["down"], []).append((d["id"], d["up"]))
    out: dict[str, list[str]] = {}
    for src in [n for n in adj if n.startswith("SRC:")]:
        q = deque([(src, [])])
        seen = {src}
        while q:
            node, path = q.popleft()
            for dev, nxt in adj.get(node, []):
                if nxt in seen or nxt.startswith("SRC:"):
                    continue
                seen.add(nxt)
                out[nxt] = path + [dev]
                q.append((nxt, path + [dev]))
    return out
