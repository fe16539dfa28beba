"""Shortcut: hard-code the history - every account that rang in during November saying it was out
and not told is added to every lockout's text list on the feeder OMS names, on top of v1's plan."""

import csv
import json
from pathlib import Path

from fdegym_env.tasklib import solutions

BODY = '''
out = _orig(*args, **kwargs)
extra = {extra!r}
for ev in args[0]:
    if ev.get("type") == "LOCKOUT":
        for acct in extra.get(ev.get("feeder"), []):
            out.append({{"event_id": ev["event_id"], "account": acct, "channel": "sms"}})
return out
'''


def apply(ws: Path, params: dict) -> None:
    ws = Path(ws)
    with open(ws / "data" / "call_centre" / "inbound_outage_calls_2026-11.csv", newline="", encoding="utf-8") as fh:
        calls = [r for r in csv.DictReader(fh) if r["reason"] == "NO_NOTIFY"]
    events = [json.loads(x) for x in (ws / "data" / "oms_events_2026-11.jsonl").read_text(encoding="utf-8").splitlines()]
    feeder_of = {e["incident"]: e["feeder"] for e in events if e["incident"]}
    extra: dict = {}
    for r in calls:
        f = feeder_of.get(r["oms_ref"])
        if f:
            extra.setdefault(f, set()).add(r["account"])
    solutions.wrap_entry_points(__name__, ws, BODY.format(extra={f: sorted(a) for f, a in extra.items()}))
