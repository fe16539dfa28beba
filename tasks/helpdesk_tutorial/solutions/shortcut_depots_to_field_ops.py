"""Shortcut: skip the diagnosis - everything raised at a depot (outages aside) goes to the depot IT
field team, on the theory that they are on site and will sort or pass on whatever it is."""

import json
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["rules"].insert(1, {"id": "R12-depots", "enabled": True, "field": "site", "match": ["crb", "hln", "wmr"],
                            "queue": "field_ops", "priority": "P3"})
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
