"""Entry point called by the scheduler (cron on ingest-01, every 5 minutes).

    process_batch(items: list[dict]) -> list[dict]

`items` are the wire items the receiver collected since the last run, oldest first (see
README.md for the fields). The result has exactly one decision per item, in the same order:

    {"guid": <item guid>, "action": "publish" | "schedule" | "hold" | "update" | "unpublish" | "drop",
     "story": <guid of the story the action applies to>, "publish_at": <ISO time, schedule only>,
     "reason": <free text for the ingest log>}

The CMS adaptor (cms-bridge) applies the decisions. `story` is the story's first guid for
update/unpublish; for publish/schedule/hold it is the item's own guid.
"""

from __future__ import annotations

import logging

from . import rules, store, timeutil
from .normalise import normalise

log = logging.getLogger("wire_ingest")


def _decision(item: dict, action: str, reason: str, story: str | None = None, publish_at: str | None = None) -> dict:
    d = {"guid": item["guid"], "action": action, "story": story or item["guid"], "reason": reason}
    if publish_at:
        d["publish_at"] = publish_at
    return d


def decide(db, item: dict) -> dict:
    if store.seen(db, item["guid"]):
        return _decision(item, "drop", "duplicate guid (already processed)")

    # Advisories, test messages, service notices: not stories, never published.
    if item["msgtype"] in rules.DROP_MSGTYPES:
        store.record(db, item, "drop")
        return _decision(item, "drop", f"non-story msgtype={item['msgtype']}")

    # Anything the agency does not mark usable is not for publication.
    if item["pubstatus"] != "usable":
        store.record(db, item, "drop")
        return _decision(item, "drop", f"pubstatus={item['pubstatus']}")

    why = rules.hold_reason(item)
    if why:
        store.record(db, item, "hold")
        return _decision(item, "hold", why)

    embargo = timeutil.parse_agency_time(item["embargo"])
    received = timeutil.parse_agency_time(item["received"])
    if embargo is not None and (received is None or embargo > received):
        store.record(db, item, "schedule")
        return _decision(item, "schedule", f"embargoed until {embargo.isoformat()}",
                         publish_at=embargo.isoformat())

    store.record(db, item, "publish")
    return _decision(item, "publish", "auto-publish")


def process_batch(items: list) -> list:
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
