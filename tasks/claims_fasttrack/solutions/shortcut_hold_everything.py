"""Shortcut: pay nothing straight through - switch the PhotoDrop link on so photo-less claims are set
up at once, and leave every other claim with the desk adjusters (no fast track, no ring check)."""

import json
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["photodrop"]["enabled"] = True
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
