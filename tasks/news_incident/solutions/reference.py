"""Reference: what an engineer who had learned every fact would deliver.

- Honour each agency's control messages: kills (as each agency actually sends them) unpublish the
  story they refer to; new versions of a slug update the story instead of duplicating it.
- Read Meridian's naive embargo times in the agency's own timezone.
- Hold reports of active UK criminal proceedings for legal review (the scope legal gave), and spike
  the priorities the night desk said it cannot clear.
No keyword blocklist: everything else keeps auto-publishing.
"""

from __future__ import annotations

import json
from pathlib import Path

PIPELINE = r'''"""Entry point called by the scheduler (cron on ingest-01, every 5 minutes).

    process_batch(items: list[dict]) -> list[dict]

One decision per item, same order: {"guid", "action", "story", "publish_at"?, "reason"}.
Actions: publish | schedule | hold | update | unpublish | drop. `story` is the first guid of
the story an update/unpublish applies to.

2.5.0: agency control messages (kills, new versions), agency embargo timezones, legal holds.
"""

from __future__ import annotations

import datetime as dt
import logging
import re

from . import policy, rules, store, timeutil
from .normalise import normalise

log = logging.getLogger("wire_ingest")


def _decision(item, action, reason, story=None, publish_at=None):
    d = {"guid": item["guid"], "action": action, "story": story or item["guid"], "reason": reason}
    if publish_at:
        d["publish_at"] = publish_at
    return d


def _quoted_slug(db, agency, text):
    """The slug an advisory refers to: a quoted slug we know, else any known slug in the text."""
    for q in re.findall(r"[\"'\u2018\u2019\u201c\u201d]([^\"'\u2018\u2019\u201c\u201d]{2,80})[\"'\u2018\u2019\u201c\u201d]", text):
        root = store.root_for_slug(db, agency, q)
        if root:
            return root
    low = text.lower()
    best = None
    for slug, root in store.recent_slugs(db, agency):
        if slug and slug.lower() in low and (best is None or len(slug) > len(best[0])):
            best = (slug, root)
    return best[1] if best else None


def kill_target(db, item):
    """The story this item kills, or None if it is not a kill."""
    fmt = policy.KILL_FORMAT.get(item["agency"])
    if fmt is None:
        return None
    if fmt == "cancel":
        if item["pubstatus"] == "canceled":
            return store.root_for_slug(db, item["agency"], item["slug"]) or item["guid"]
        return None
    if item["msgtype"] != "advisory":
        return None
    if fmt == "ref":
        if item["ref"] and item["headline"].upper().startswith("KILL"):
            return store.root_for_guid(db, item["ref"]) or item["ref"]
        return None
    phrase = fmt.split(":", 1)[1].strip().upper()          # "phrase:DO NOT USE"
    if item["headline"].upper().startswith(phrase):
        return _quoted_slug(db, item["agency"], item["body"] + " " + item["headline"])
    return None


KNA_RESEND = re.compile(r"^\W*(re-?send\b.*correct|correct(ed|ion)\b|new version\b)", re.I)
KNA_RESEND_BODY = re.compile(r"\b(replaces (our |the )?(earlier|\d{1,2}[:.]\d{2})|corrected (version|copy)|use this version)",
                             re.I)


def new_version_of(db, item):
    """The root of the story this item is a new version of, or None.

    UKNS and Meridian: same slug, higher version. Kestrel's gateway makes every email version 1, and
    Kestrel reuse slugs from day to day for different cases, so a Kestrel item is a new version only
    when it says so (CORRECTED / re-send / 'replaces our earlier copy') and the slug was filed in the
    last day.
    """
    if item["agency"] == "KNA":
        if not (KNA_RESEND.search(item["headline"]) or KNA_RESEND_BODY.search(item["body"][:300])):
            return None
        root, when = store.root_and_time_for_slug(db, item["agency"], item["slug"])
        now = timeutil.parse_agency_time(item["received"])
        if root and when is not None and now is not None and dt.timedelta(0) <= now - when <= dt.timedelta(hours=24):
            return root
        return None
    if item["version"] > 1:
        root = store.root_for_slug(db, item["agency"], item["slug"])
        if root and root != item["guid"]:
            return root
    return None


def legal_hold(item):
    subj = set(item["subjects"])
    if "crime" not in subj or item["country"] != "GB":
        return False
    if not subj & policy.LEGAL_STAGES:
        return False
    return bool(item["people"]) or not policy.LEGAL_NEEDS_NAME


def embargo_utc(item):
    t = timeutil.parse_agency_time(item["embargo"], policy.NAIVE_OFFSET_H.get(item["agency"], 0.0))
    return t


def decide(db, item):
    if store.seen(db, item["guid"]):
        return _decision(item, "drop", "duplicate guid (already processed)")

    target = kill_target(db, item)
    if target:
        store.record(db, item, "unpublish", root=target)
        store.mark_killed(db, target)
        return _decision(item, "unpublish", "agency kill", story=target)

    if item["msgtype"] in rules.DROP_MSGTYPES or item["pubstatus"] != "usable":
        store.record(db, item, "drop")
        return _decision(item, "drop", f"non-story msgtype={item['msgtype']} pubstatus={item['pubstatus']}")

    root = new_version_of(db, item)
    if root:
        if store.is_killed(db, root):
            store.record(db, item, "drop", root=root)
            return _decision(item, "drop", "new version of a killed story", story=root)
        state = store.action_of(db, root)
        if state == "hold":
            # cms-bridge only updates a live story; a held one must get the new text in the queue
            store.record(db, item, "hold", root=root)
            return _decision(item, "hold", "new version of a story in the Held queue (desk/legal see this text)",
                             story=root)
        if state == "drop":
            store.record(db, item, "drop", root=root)
            return _decision(item, "drop", "new version of a story we spiked", story=root)
        if state == "schedule":
            emb = embargo_utc(item)
            received = timeutil.parse_agency_time(item["received"])
            if emb is not None and (received is None or emb > received):
                store.record(db, item, "schedule", root=root)
                return _decision(item, "schedule", f"new version of embargoed story, still embargoed until "
                                 f"{emb.isoformat()}", story=root, publish_at=emb.isoformat())
        store.record(db, item, "update", root=root)
        return _decision(item, "update", f"version {item['version']} replaces the live story", story=root)

    if legal_hold(item):
        if item["priority"] >= policy.SPIKE_PRIORITY:
            store.record(db, item, "drop")
            return _decision(item, "drop", "legal copy below the desk's priority cut (spiked)")
        store.record(db, item, "hold")
        return _decision(item, "hold", "legal review: active proceedings, defendant identifiable")

    why = rules.hold_reason(item)
    if why:
        store.record(db, item, "hold")
        return _decision(item, "hold", why)

    emb = embargo_utc(item)
    received = timeutil.parse_agency_time(item["received"])
    if emb is not None and (received is None or emb > received):
        store.record(db, item, "schedule")
        return _decision(item, "schedule", f"embargoed until {emb.isoformat()}", publish_at=emb.isoformat())

    store.record(db, item, "publish")
    return _decision(item, "publish", "auto-publish")


def process_batch(items):
    db = store.open_store()
    out = []
    try:
        for raw in items or []:
            item = normalise(raw)
            d = decide(db, item)
            log.info("%s slug=%r -> %s (%s)", item["guid"], item["slug"], d["action"], d["reason"])
            out.append(d)
        db.commit()
    finally:
        db.close()
    return out
'''

STORE = r'''"""The ingest's memory between runs: a small SQLite file next to the code.

Path: $INGEST_DB if set, else system/state/ingest.db. Created on first use.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent.parent / "state" / "ingest.db"

SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    guid TEXT PRIMARY KEY, agency TEXT, slug TEXT, version INTEGER, received TEXT, action TEXT,
    headline TEXT, root TEXT
);
CREATE INDEX IF NOT EXISTS items_slug ON items(agency, slug);
CREATE TABLE IF NOT EXISTS killed (root TEXT PRIMARY KEY);
"""


def open_store():
    path = Path(os.environ.get("INGEST_DB") or DEFAULT)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path))
    db.row_factory = sqlite3.Row
    db.executescript(SCHEMA)
    cols = {r[1] for r in db.execute("PRAGMA table_info(items)")}
    if "root" not in cols:                       # db from 2.4.x
        db.execute("ALTER TABLE items ADD COLUMN root TEXT")
    return db


def seen(db, guid):
    return db.execute("SELECT 1 FROM items WHERE guid = ?", (guid,)).fetchone() is not None


def record(db, item, action, root=None):
    is_story = item["msgtype"] == "story" and action not in ("unpublish",)
    db.execute("INSERT OR REPLACE INTO items (guid, agency, slug, version, received, action, headline, root) "
               "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (item["guid"], item["agency"], item["slug"] if is_story else "", item["version"], item["received"],
                action, item["headline"][:200], root or item["guid"]))


def root_for_slug(db, agency, slug):
    r = db.execute("SELECT root FROM items WHERE agency = ? AND lower(slug) = lower(?) AND slug != '' "
                   "ORDER BY received DESC, rowid DESC LIMIT 1", (agency, slug.strip())).fetchone()
    return r[0] if r else None


def root_and_time_for_slug(db, agency, slug):
    """(root, when the story's first version was received) for the latest story under this slug."""
    from .timeutil import parse_agency_time
    r = db.execute("SELECT root FROM items WHERE agency = ? AND lower(slug) = lower(?) AND slug != '' "
                   "ORDER BY received DESC, rowid DESC LIMIT 1", (agency, slug.strip())).fetchone()
    if not r:
        return None, None
    first = db.execute("SELECT received FROM items WHERE guid = ?", (r[0],)).fetchone()
    return r[0], parse_agency_time(first[0]) if first else None


def action_of(db, guid):
    """What we decided for this item (publish, schedule, hold, drop, ...), or None."""
    r = db.execute("SELECT action FROM items WHERE guid = ?", (guid,)).fetchone()
    return r[0] if r else None


def root_for_guid(db, guid):
    r = db.execute("SELECT root FROM items WHERE guid = ?", (guid,)).fetchone()
    return r[0] if r else None


def recent_slugs(db, agency, limit=400):
    return [(r[0], r[1]) for r in db.execute(
        "SELECT slug, root FROM items WHERE agency = ? AND slug != '' ORDER BY rowid DESC LIMIT ?", (agency, limit))]


def mark_killed(db, root):
    db.execute("INSERT OR IGNORE INTO killed (root) VALUES (?)", (root,))


def is_killed(db, root):
    return db.execute("SELECT 1 FROM killed WHERE root = ?", (root,)).fetchone() is not None
'''

TIMEUTIL = r'''"""Agency timestamps.

Times with an offset (or Z) are exact. Naive times are the agency's local wall-clock time:
see policy.NAIVE_OFFSET_H (Meridian sends its embargoes in its own local time, no offset).
"""

from __future__ import annotations

import datetime as dt


def parse_agency_time(value, naive_offset_h=0.0):
    if not value:
        return None
    s = str(value).strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        t = dt.datetime.fromisoformat(s)
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.timezone(dt.timedelta(hours=naive_offset_h)))
    return t.astimezone(dt.timezone.utc)
'''


def policy_source(params: dict) -> str:
    ukns = params["ukns_kill"]
    kill = {"UKNS": "cancel" if ukns == "cancel" else "ref" if ukns == "ref" else "phrase:MANDATORY KILL",
            "MRD": "cancel", "KNA": "phrase:" + params["kna_kill_phrase"]}
    stages = sorted(params["legal_stages"])
    return f'''"""What the newsroom told us (see docs/ and the tickets); change here, not in the code.

KILL_FORMAT      how each agency withdraws a story: "cancel" = new version with pubstatus canceled,
                 "ref" = advisory "KILL ..." whose ref is the killed guid, "phrase:X" = advisory whose
                 headline starts with X and quotes the slug.
NAIVE_OFFSET_H   agencies whose times come without an offset, and their UTC offset.
LEGAL_STAGES     crime subjects that mean proceedings are active (legal review before publication).
LEGAL_NEEDS_NAME only when a suspect/defendant is named.
SPIKE_PRIORITY   legal copy at this priority number or lower importance is spiked, not queued.
"""

KILL_FORMAT = {json.dumps(kill)}
NAIVE_OFFSET_H = {{"MRD": {float(params["mrd_embargo_offset_h"])}}}
LEGAL_STAGES = {{{", ".join(json.dumps(s) for s in stages)}}}
LEGAL_NEEDS_NAME = {bool(params["legal_needs_name"])}
SPIKE_PRIORITY = {int(params["spike_priority"])}
'''


def apply(ws: Path, params: dict) -> None:
    pkg = Path(ws) / "system" / "wire_ingest"
    (pkg / "pipeline.py").write_text(PIPELINE, encoding="utf-8")
    (pkg / "store.py").write_text(STORE, encoding="utf-8")
    (pkg / "timeutil.py").write_text(TIMEUTIL, encoding="utf-8")
    (pkg / "policy.py").write_text(policy_source(params), encoding="utf-8")
