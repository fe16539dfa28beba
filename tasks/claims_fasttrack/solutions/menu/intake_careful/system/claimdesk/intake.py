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
    """Earlier claims: the nightly extract plus every FNOL intake has seen since (intake_seen.db),
    loaded once per batch into dicts."""

    def __init__(self):
        self.by_photo, self.by_vin8, self.reported, self.flags = {}, {}, set(), set()
        hist = sqlite3.connect(str(ROOT / "data" / "claims.db"))
        for pol, loss, vin in hist.execute("SELECT policy_no, loss_date, vin FROM claims"):
            self._add(pol, loss, (vin or "")[-8:], None)
        for h, pol in hist.execute("SELECT p.sha1, c.policy_no FROM photos p JOIN claims c USING (claim_id)"):
            self.by_photo.setdefault(h, set()).add(pol)
        self.flags = {(t, v) for t, v in hist.execute("SELECT key_type, key_value FROM siu_flags")}
        self.seen = _seen_db()
        for _cid, pol, loss, vin8, h in self.seen.execute("SELECT * FROM seen"):
            self._add(pol, loss, vin8, h)
        self.new = []

    def _add(self, pol, loss, vin8, h):
        self.reported.add((pol, loss))
        if vin8:
            self.by_vin8.setdefault(vin8, set()).add(pol)
        if h:
            self.by_photo.setdefault(h, set()).add(pol)

    def policies_with_photo(self, h):
        return self.by_photo.get(h, set())

    def policies_with_vin8(self, v):
        return self.by_vin8.get(v, set())

    def reported_before(self, policy, loss_date):
        return (policy, loss_date) in self.reported

    def flagged(self, fnol):
        keys = [("photo", h) for h in hashes(fnol)] + [("vin8", (fnol.get("vin") or "")[-8:])]
        return any(k in self.flags for k in keys)

    def remember(self, fnol):
        vin8 = (fnol.get("vin") or "")[-8:]
        for h in hashes(fnol) or [None]:
            self._add(fnol.get("policy_no"), fnol.get("loss_date"), vin8, h)
            self.new.append((fnol["claim_id"], fnol.get("policy_no"), fnol.get("loss_date"), vin8, h))

    def save(self):
        self.seen.executemany("INSERT INTO seen VALUES (?,?,?,?,?)", self.new)
        self.seen.commit()


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
    mem.save()
    return out


if __name__ == "__main__":   # python3 -m claimdesk.intake < fnols.json
    import sys
    print(json.dumps(triage_batch(json.load(sys.stdin)), indent=2))
