"""Literal: what Gemma asked for - block returns from customers with more than 3 returns in 90 days,
through the block_rules hook IT added to the returns service."""

import json
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["block_rules"] = [{"field": "returns_90d", "max": 3,
                           "message": "Your account is not eligible for returns - please contact customer care."}]
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
