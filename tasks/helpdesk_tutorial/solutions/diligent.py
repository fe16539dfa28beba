"""Diligent: every key fact found (owner, how tickets arrive, priority, P1 policy), shipped as
the parked R15 rule turned on with its own keyword list - or the kiosk category where pickers raise
them at the kiosks. Misses the subtle cases: other names for the device, copier "scanner" tickets,
supervisors who still phone handheld faults in where the kiosks are live."""

import json
from pathlib import Path

KEYWORDS = ["rt7", "scanner", "handheld", "scan gun"]


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    for rule in cfg["rules"]:
        if rule["id"] == "R15-handheld":
            rule["enabled"] = True
            if params["match_on"] == "category":
                rule["field"], rule["match"] = "category", ["device/handheld"]
            else:
                rule["field"], rule["match"] = "text", list(KEYWORDS)
            rule["queue"] = params["owner_queue"]
            rule["priority"] = params["scanner_priority"]
    cfg["updated"] = "2026-03-06 R15 enabled: handheld faults to their owner"
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
