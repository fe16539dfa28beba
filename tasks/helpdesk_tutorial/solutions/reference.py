"""Reference: turn on R15-handheld ahead of the login/network rules, pointed at the team that can
actually fix RT7 faults, recognising the tickets the way they really arrive, at the priority the
depots' shift pattern justifies. Written from the facts (params), not from any ticket."""

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
