"""Alert router entry point.

alertbridge (the fan-in in front of Alertmanager, lb-healthd, pgwatch, certscan and the
synthetics runner) calls ``route_batch`` every 60 s with the events it received since the
previous call and the current CAB calendar snapshot. Whatever we return is acted on:

    page     -> PagerDuty incident on the "Payments Platform - Primary" schedule
    group    -> attached to the open PagerDuty incident with the same dedup key (no new notification)
    ticket   -> Jira OPS ticket, triaged next business day
    suppress -> dropped (kept in the alert archive only)

Every event in the batch must get exactly one decision, otherwise alertbridge rejects the
whole batch and *pages everything in it* (fail-open, see runbook alertbridge.md).
"""
from __future__ import annotations

from . import dedup, maintenance, rules, timeutil
from .hooks import always_page, quiet_hours, ticket_only

ROUTER_VERSION = "2.4.3"
VALID_ACTIONS = ("page", "group", "ticket", "suppress")


def route_batch(batch: dict) -> dict:
    events = list(batch.get("events") or [])
    calendar = batch.get("change_calendar")
    state = dedup.DedupState()
    decisions = []
    # alertbridge delivers slightly out of order since the February upgrade (OPS-1203)
    order = sorted(range(len(events)), key=lambda i: timeutil.sort_key(events[i]))
    try:
        for i in order:
            ev = events[i]
            ts = timeutil.parse_ts(ev.get("ts"))
            if always_page.applies(ev, ts):
                action, reason = "page", "always-page override"
            elif maintenance.covered(ev, ts, calendar):
                action, reason = "suppress", "in change window"
            elif quiet_hours.applies(ev, ts):
                action, reason = "suppress", "quiet-hours override"
            elif ticket_only.applies(ev, ts):
                action, reason = "ticket", "ticket-only override"
            else:
                action, reason = rules.decide(ev)
            key = None
            if action == "page":
                key = dedup.key_for(ev, ts)
                if state.seen_within(key, ts, dedup.WINDOW_MIN):
                    action, reason = "group", "duplicate of open page"
                state.touch(key, ts)
            decisions.append({"id": ev.get("id"), "action": action, "reason": reason, "dedup_key": key})
    finally:
        state.close()
    return {"router_version": ROUTER_VERSION, "decisions": decisions}
