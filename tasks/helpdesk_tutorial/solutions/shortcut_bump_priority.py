"""Shortcut: never ask who owns the handhelds - just catch them with R15 and bump them to P2 on the
service desk, hoping speed fixes it."""

import json
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    for rule in cfg["rules"]:
        if rule["id"] == "R15-handheld":
            rule.update(enabled=True, queue="service_desk", priority="P2")
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
