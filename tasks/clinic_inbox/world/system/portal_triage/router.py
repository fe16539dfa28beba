"""Entry point production calls: route_batch(batch).

The portal connector (EMIS/Accurx bridge, see README) calls this every 10 minutes with the
messages received since the last run. Each message gets a queue, a priority and optionally an
automatic reply that the portal sends to the patient straight away.

Queues: nurse_line, front_desk, doctor, pharmacy_desk, auto_reply (closed with the reply only).
"""

from __future__ import annotations

import json
import os

from . import classifier, hours, replies

_HERE = os.path.dirname(os.path.abspath(__file__))
_CONFIG = os.path.join(_HERE, "..", "config")

QUEUES = ("nurse_line", "front_desk", "doctor", "pharmacy_desk", "auto_reply")


def _load_rules() -> dict:
    with open(os.path.join(_CONFIG, "routing_rules.json"), encoding="utf-8") as f:
        return json.load(f)


def route_message(msg: dict, rules: dict) -> dict:
    category = (msg.get("category") or "Other").strip()
    rule = rules["categories"].get(category, rules["categories"]["Other"])
    queue = rule["queue"]
    priority = rule.get("priority", "routine")

    # urgency: the subject line is what the patient typed as their headline (see CHANGELOG 2.1.0)
    if classifier.is_urgent(msg.get("subject") or ""):
        queue, priority = "nurse_line", "urgent"

    reply = None
    received = hours.parse_ts(msg.get("received_at"))
    if received is not None and not hours.is_open(received):
        reply = replies.out_of_hours()

    return {"id": msg.get("id"), "queue": queue, "priority": priority, "reply": reply}


def route_batch(batch: dict) -> dict:
    """Route one batch from the portal connector.

    batch = {"batch_id": str, "messages": [{id, received_at, site, patient, category, subject, body, items}]}
    returns {"decisions": [{"id", "queue", "priority", "reply"}]} - one per message, same order.
    """
    rules = _load_rules()
    decisions = [route_message(m, rules) for m in batch.get("messages", [])]
    return {"decisions": decisions}
