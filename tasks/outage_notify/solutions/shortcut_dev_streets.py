"""Shortcut: hard-code the history - every account that rang in during November saying it was out
and not told is added to every lockout's text list on the feeder OMS names, on top of v1's plan."""

import csv
from pathlib import Path

PATCH = '''

_plan_v1 = plan_batch
_EXTRA = {extra!r}


def plan_batch(events: list) -> list:  # noqa: F811
    out = _plan_v1(events)
    for ev in events:
        if ev.get("type") == "LOCKOUT":
            for acct in _EXTRA.get(ev.get("feeder"), []):
                out.append({{"event_id": ev["event_id"], "account": acct, "channel": "sms"}})
    return out
'''


def apply(ws: Path, params: dict) -> None:
    ws = Path(ws)
    with open(ws / "data" / "call_centre" / "inbound_outage_calls_2026-11.csv", newline="", encoding="utf-8") as fh:
        calls = [r for r in csv.DictReader(fh) if r["reason"] == "NO_NOTIFY"]
    import json
    events = [json.loads(x) for x in (ws / "data" / "oms_events_2026-11.jsonl").read_text(encoding="utf-8").splitlines()]
    feeder_of = {e["incident"]: e["feeder"] for e in events if e["incident"]}
    extra: dict = {}
    for r in calls:
        f = feeder_of.get(r["oms_ref"])
        if f:
            extra.setdefault(f, set()).add(r["account"])
    extra = {f: sorted(a) for f, a in extra.items()}
    path = ws / "system" / "ons" / "planner.py"
    src = path.read_text(encoding="utf-8").split('if __name__ == "__main__"')[0]
    path.write_text(src + PATCH.format(extra=extra), encoding="utf-8")
