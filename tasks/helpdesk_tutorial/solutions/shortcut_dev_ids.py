"""Shortcut: hard-code the history - every ticket the log shows being reassigned to field_ops gets a
rule on its ticket number sending it there directly."""

import json
import re
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    log = (Path(ws) / "logs" / "triage.log").read_text(encoding="utf-8")
    ids = sorted(set(re.findall(r"(INC\d{7}) reassigned \S+ -> field_ops", log)))
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["rules"].insert(0, {"id": "R05-seen", "enabled": True, "field": "id", "match": ids,
                            "queue": "field_ops", "priority": "P2"})
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
