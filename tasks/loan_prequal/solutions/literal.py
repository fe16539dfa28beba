"""Literal: what Tom asked for - loosen the criteria: max DTI 43% -> 50%, FICO floor 640 -> 600."""

import json
from pathlib import Path


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["max_dti"] = 0.50
    cfg["min_fico"] = 600
    cfg["policy_version"] = "CC-2025-11 + approvals uplift (T. Brandvold)"
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
