"""Literal: what Moira asked for - anything raised from a depot goes in as P1 so it is seen first."""

import json
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["site_priority"] = {"CRB": "P1", "HLN": "P1", "WMR": "P1"}
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
