"""Intake routing for new FNOLs (reworked for straight-through payment). Production: the
ClaimCenter FNOL job calls triage_batch() with each batch of new first notices.

Order of checks, per FNOL:
  1. SIU flag list (photo hashes from the app AND image attachments; VIN tail)  -> siu
  2. second report of the same loss (same policy + loss date as an earlier claim) -> desk (merge, never pay twice)
  3. ring signature: a ring shop (by EIN, or by its name however it is typed) and a damage photo /
     VIN tail already seen on an earlier claim under a different policy       -> siu
  4. no photos at all -> photo_link (set up now: acknowledgement goes out at FNOL)
  5. estimate within the delegated authority -> fast_track; else desk
"Earlier claim" means claims.db (nightly extract) AND every FNOL this intake has seen since,
kept in data/intake_seen.db - the ring chains copies of claims filed days before.
"""

import json
import re
import sqlite3
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "config.json"
IMAGE = (".jpg", ".jpeg", ".png", ".heic", ".heif")


MEDIA_FIELDS = ["attachments"]     # set from config.json "media_fields" on every call


def load_config():
    return json.loads(CONFIG.read_text(encoding="utf-8"))


def norm(name):
    s = re.sub(r"[^a-z0-9 ]+", " ", (name or "").lower().replace("&", " and "))
    s = re.sub(r"\b(inc|llc|co|ctr|center|centre|and|the)\b", " ", s)
    return re.sub(r"(.)\1+", r"\1", re.sub(r"\s+", "", s))        # colision == collision


def hashes(fnol):
    media = [m for k in MEDIA_FIELDS for m in fnol.get(k) or []]
    return list(fnol.get("photos") or []) + [m.get("sha1") for m in media if str(m.get("file", "")).lower().endswith(IMAGE)]


def _seen_db():
    con = sqlite3.connect(str(ROOT / "data" / "intake_seen.db"))
    con.execute("CREATE TABLE IF NOT EXISTS seen (claim_id TEXT, policy_no TEXT, loss_date TEXT, vin8 TEXT, sha1 TEXT)")
    return con


class Memory:
    """Earlier claims: the nightly extract plus what intake has seen since."""

    def __init__(self):
        self.hist = sqlite3.connect(str(ROOT / "data" / "claims.db"))
        self.seen = _seen_db()

    def policies_with_photo(self, h):
        a = self.hist.execute("SELECT c.policy_no FROM photos p JOIN claims c USING (claim_id) WHERE p.sha1=?", (h,))
        b = self.seen.execute("SELECT policy_no FROM seen WHERE sha1=?", (h,))
        return {r[0] for r in a} | {r[0] for r in b}

    def policies_with_vin8(self, v):
        a = self.hist.execute("SELECT policy_no FROM claims WHERE substr(vin, -8) = ?", (v,))
        b = self.seen.execute("SELECT policy_no FROM seen WHERE vin8=?", (v,))
        return {r[0] for r in a} | {r[0] for r in b}

    def reported_before(self, policy, loss_date):
        a = self.hist.execute("SELECT 1 FROM claims WHERE policy_no=? AND loss_date=? LIMIT 1", (policy, loss_date)).fetchone()
        b = self.seen.execute("SELECT 1 FROM seen WHERE policy_no=? AND loss_date=? LIMIT 1", (policy, loss_date)).fetchone()
        return bool(a or b)

    def flagged(self, fnol):
        keys = [("photo", h) for h in hashes(fnol)] + [("vin8", (fnol.get("vin") or "")[-8:])]
        return any(self.hist.execute("SELECT 1 FROM siu_flags WHERE key_type=? AND key_value=? LIMIT 1", k).fetchone()
                   for k in keys)

    def remember(self, fnol):
        rows = [(fnol["claim_id"], fnol.get("policy_no"), fnol.get("loss_date"), (fnol.get("vin") or "")[-8:], h)
                for h in hashes(fnol) or [None]]
        self.seen.executemany("INSERT INTO seen VALUES (?,?,?,?,?)", rows)


def route(fnol, cfg, mem):
    ring = cfg["ring"]
    pol = fnol.get("policy_no")
    shop = fnol.get("shop") or {}
    if mem.flagged(fnol):
        return "siu", "SIU flag list hit"
    if mem.reported_before(pol, fnol.get("loss_date")):
        return "desk", "same policy and loss date already reported: merge"
    ring_shop = shop.get("ein") in ring["eins"] or any(norm(shop.get("name")) == norm(n) for n in ring["names"])
    if ring_shop:
        if ring["key"] == "vin":
            reused = bool(mem.policies_with_vin8((fnol.get("vin") or "")[-8:]) - {pol})
        else:
            reused = any(mem.policies_with_photo(h) - {pol} for h in hashes(fnol))
        if reused:
            return "siu", "ring signature: near-duplicate at a ring shop"
    if not hashes(fnol):
        return "photo_link", "no photos: set up now, upload link sent"
    if float(fnol.get("estimate_usd") or 0) <= cfg["fast_track"]["max_estimate_usd"]:
        return "fast_track", "clean, photos, within authority"
    return "desk", "standard"


def triage_batch(fnols):
    cfg = load_config()
    MEDIA_FIELDS[:] = cfg.get("media_fields", ["attachments"])
    mem = Memory()
    out = []
    for f in fnols:
        q, why = route(f, cfg, mem)
        mem.remember(f)
        out.append({"claim_id": f["claim_id"], "queue": q, "reason": why})
    mem.seen.commit()
    return out


if __name__ == "__main__":   # python3 -m claimdesk.intake < fnols.json
    import sys
    print(json.dumps(triage_batch(json.load(sys.stdin)), indent=2))
