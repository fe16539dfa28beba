"""Intake routing for new FNOLs. Production: the ClaimCenter FNOL job calls triage_batch() with
each batch of new first notices (see README). One decision per FNOL, same order.

Queues (ClaimCenter assignment rules read the `queue` field):
  desk         Material Damage desk adjusters (review estimate + photos, pay or deny)
  fast_track   straight-through payment of the shop estimate, no adjuster (pilot, off)
  siu          Special Investigations referral
  pend_photos  PEND_PHOTO status: no claim set-up until photos arrive (no claim no., no letters)
  photo_link   set up now and text the claimant a PhotoDrop upload link
"""

import json
from pathlib import Path

CONFIG = Path(__file__).resolve().parent.parent / "config.json"


def load_config():
    return json.loads(CONFIG.read_text(encoding="utf-8"))


def route(fnol, cfg):
    est = float(fnol.get("estimate_usd") or 0)
    if not fnol.get("photos"):
        # adjusters won't work a file with no pictures (MD team, 2024) - hold it until they come in
        if cfg["photodrop"]["enabled"]:
            return "photo_link", "no photos: upload link sent"
        return "pend_photos", "no photos"
    if est >= cfg["siu"]["refer_over_usd"]:
        return "siu", "large loss referral"
    ft = cfg["fast_track"]
    if ft["enabled"] and est < ft["max_estimate_usd"] and fnol.get("channel") in ft["channels"]:
        return "fast_track", f"under {ft['max_estimate_usd']}"
    return "desk", "standard"


def triage_batch(fnols):
    cfg = load_config()
    out = []
    for f in fnols:
        q, why = route(f, cfg)
        out.append({"claim_id": f["claim_id"], "queue": q, "reason": why})
    return out


if __name__ == "__main__":   # python3 -m claimdesk.intake < fnols.json
    import sys
    print(json.dumps(triage_batch(json.load(sys.stdin)), indent=2))
