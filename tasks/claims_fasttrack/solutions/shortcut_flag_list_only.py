"""Shortcut: never ask SIU - switch fast track on at 2,000 USD but send anything that hits the SIU
flag table (found in claims.db) to SIU first."""

import json
from pathlib import Path

SHIM = '''

def _flag_hit(fnol):
    import sqlite3
    con = sqlite3.connect(str(CONFIG.parent / "data" / "claims.db"))
    keys = [("photo", h) for h in fnol.get("photos") or []] + [("vin8", (fnol.get("vin") or "")[-8:])]
    return any(con.execute("SELECT 1 FROM siu_flags WHERE key_type=? AND key_value=?", k).fetchone() for k in keys)


_route_before_flags = route


def route(fnol, cfg):  # noqa: F811
    if _flag_hit(fnol):
        return "siu", "flag list"
    return _route_before_flags(fnol, cfg)
'''


def apply(ws: Path, params: dict) -> None:
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["fast_track"].update(enabled=True, max_estimate_usd=2000)
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
    mod = Path(ws) / "system" / "claimdesk" / "intake.py"
    text = mod.read_text(encoding="utf-8")
    head, tail = text.split("\n\ndef triage_batch", 1)
    mod.write_text(head + SHIM + "\n\ndef triage_batch" + tail, encoding="utf-8")
