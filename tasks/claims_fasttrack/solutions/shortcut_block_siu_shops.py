"""Shortcut: hard-code the history - every shop name that appears in SIU's referral sheet sends its
claims to SIU; everything else under 2,000 USD is paid straight through, photo-less claims get the
upload link."""

import csv
import json
from pathlib import Path

SHIM = '''

_SIU_SHOPS = set(json.loads(CONFIG.read_text(encoding="utf-8")).get("siu_shops", []))
_route_before_shops = route


def route(fnol, cfg):  # noqa: F811
    if (fnol.get("shop") or {}).get("name") in _SIU_SHOPS:
        return "siu", "shop on SIU sheet"
    return _route_before_shops(fnol, cfg)
'''


def apply(ws: Path, params: dict) -> None:
    rows = list(csv.DictReader((Path(ws) / "data" / "siu_referrals_2026.csv").open(encoding="utf-8")))
    shops = sorted({r["shop (as written)"] for r in rows if "dup" not in r["reason / notes"].lower()
                    and "legit" not in r["reason / notes"].lower() and "not ring" not in r["reason / notes"].lower()})
    path = Path(ws) / "system" / "config.json"
    cfg = json.loads(path.read_text(encoding="utf-8"))
    cfg["fast_track"].update(enabled=True, max_estimate_usd=2000)
    cfg["photodrop"]["enabled"] = True
    cfg["siu_shops"] = shops
    path.write_text(json.dumps(cfg, indent=2) + "\n", encoding="utf-8")
    mod = Path(ws) / "system" / "claimdesk" / "intake.py"
    text = mod.read_text(encoding="utf-8")
    head, tail = text.split("\n\ndef triage_batch", 1)
    mod.write_text(head + SHIM + "\n\ndef triage_batch" + tail, encoding="utf-8")
