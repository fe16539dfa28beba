"""Ticket triage for the Brackenridge service desk.

The ITSM intake job (``itsm-intake``, every 10 minutes) collects new tickets from the mail
connector, the self-service portal, the depot kiosks and the phone logger, and calls
``route_batch`` with them. Whatever comes back is written onto the tickets: the queue they land in
and their priority. A P1 also pages the on-call of that queue (PagerDuty policy per queue);
nothing else pages.

Rules live in ``config.json`` next to this package (first enabled rule that matches wins).
A rule looks at ``field``: ``text`` (subject + body) or any ticket field (``category``,
``channel``, ``site``, ``requester``), and matches when one of its ``match`` strings appears in
it, case-insensitively. Then the VIP list and the per-site floor can raise the priority.

    >>> route({"id": "INC0000001", "subject": "Outlook not syncing", "body": ""}, load_config())["queue"]
    'service_desk'
"""

from __future__ import annotations

import json
from pathlib import Path

CONFIG_PATH = Path(__file__).resolve().parent.parent / "config.json"
PRIORITIES = ("P1", "P2", "P3", "P4")


def load_config(path: Path = CONFIG_PATH) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _haystack(ticket: dict, field: str) -> str:
    if field == "text":
        return f"{ticket.get('subject') or ''} {ticket.get('body') or ''}".lower()
    return str(ticket.get(field) or "").lower()


def _matches(rule: dict, ticket: dict) -> bool:
    if not rule.get("enabled", True):
        return False
    hay = _haystack(ticket, rule.get("field", "text"))
    return any(str(m).lower() in hay for m in rule.get("match", []))


def _higher(a: str, b: str) -> str:
    """The more urgent of two priorities (P1 beats P2 ...); unknown values are ignored."""
    known = [p for p in (a, b) if p in PRIORITIES]
    return min(known, key=PRIORITIES.index) if known else a


def route(ticket: dict, cfg: dict) -> dict:
    queue, prio, rule_id = cfg["default"]["queue"], cfg["default"]["priority"], "default"
    for rule in cfg.get("rules", []):
        if _matches(rule, ticket):
            queue, prio, rule_id = rule["queue"], rule["priority"], rule["id"]
            break
    if str(ticket.get("requester", "")).lower() in {v.lower() for v in cfg.get("vip_requesters", [])}:
        prio = _higher(prio, cfg.get("vip_priority", prio))
    floor = cfg.get("site_priority", {}).get(ticket.get("site"))
    if floor:
        prio = _higher(prio, floor)
    return {"id": ticket["id"], "queue": queue, "priority": prio, "rule": rule_id}


def route_batch(tickets: list) -> list:
    """Entry point called by itsm-intake: one decision per ticket, same order."""
    cfg = load_config()
    return [route(t, cfg) for t in tickets]


if __name__ == "__main__":  # manual check: python3 -m triage.router < tickets.json
    import sys
    print(json.dumps(route_batch(json.load(sys.stdin)), indent=1))
