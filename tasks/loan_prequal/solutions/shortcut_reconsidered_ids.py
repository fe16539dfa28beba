"""Shortcut: hard-code the history - approve every application the underwriters' reconsideration
log says should have been approved, by application number."""

import csv
from pathlib import Path

from fdegym_env.tasklib import solutions

LAST = "    return [decide(a, cfg) for a in apps]\n"


def apply(ws: Path, params: dict) -> None:
    rows = list(csv.DictReader((Path(ws) / "data" / "reconsiderations.csv").open(encoding="utf-8")))
    ids = sorted({r["app_id"] for r in rows if "annual" not in r["note"].lower() and "yearly" not in r["note"].lower()})
    solutions.replace(ws, "system/prequal/engine.py", LAST,
                      f"    out = [decide(a, cfg) for a in apps]\n    for d in out:\n        if d[\"app_id\"] in {ids!r}:\n"
                      '            d["decision"], d["reasons"] = "approve", []\n    return out\n')
