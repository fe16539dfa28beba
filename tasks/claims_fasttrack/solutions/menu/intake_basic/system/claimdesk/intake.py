"""Intake routing for new FNOLs (straight-through payment with SIU and photo checks).

  1. SIU flag list (photos, image attachments, VIN tail)             -> siu
  2. ring shop (by name) with a photo / VIN tail already in claims.db
     under a different policy                                          -> siu
  3. no photos -> photo_link;  4. within delegated authority -> fast_track;  else desk
"""

import json
import sqlite3
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "config.json"


MEDIA_FIELDS = ["attachments"]     # set from config.json "media_fields" on every call


def load_config():
    return json.loads(CONFIG.read_text(encoding="utf-8"))


def hashes(fnol):
    media = [m for k in MEDIA_FIELDS for m in fnol.get(k) or []]
    return list(fnol.get("photos") or []) + [m.get("sha1") for m in media
                                             if str(m.get("file", "")).lower().endswith((".jpg", ".jpeg", ".png", ".heic"))]


def route(fnol, cfg, con):
    ring = cfg["ring"]
    pol = fnol.get("policy_no")
    vin8 = (fnol.get("vin") or "")[-8:]
    keys = [("photo", h) for h in hashes(fnol)] + [("vin8", vin8)]
    if any(con.execute("SELECT 1 FROM siu_flags WHERE key_type=? AND key_value=?", k).fetchone() for k in keys):
        return "siu", "SIU flag list hit"
    if (fnol.get("shop") or {}).get("name") in ring["names"]:
        if ring["key"] == "vin":
            pols = {r[0] for r in con.execute("SELECT policy_no FROM claims WHERE substr(vin, -8)=?", (vin8,))}
        else:
            pols = set()
            for h in hashes(fnol):
                pols |= {r[0] for r in con.execute(
                    "SELECT c.policy_no FROM photos p JOIN claims c USING (claim_id) WHERE p.sha1=?", (h,))}
        if pols - {pol}:
            return "siu", "ring signature"
    if not hashes(fnol):
        return "photo_link", "no photos: upload link sent"
    if float(fnol.get("estimate_usd") or 0) <= cfg["fast_track"]["max_estimate_usd"]:
        return "fast_track", "within authority"
    return "desk", "standard"


def triage_batch(fnols):
    cfg = load_config()
    MEDIA_FIELDS[:] = cfg.get("media_fields", ["attachments"])
    con = sqlite3.connect(str(ROOT / "data" / "claims.db"))
    out = []
    for f in fnols:
        q, why = route(f, cfg, con)
        out.append({"claim_id": f["claim_id"], "queue": q, "reason": why})
    return out
