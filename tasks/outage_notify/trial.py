"""One trial day for outage_notify: oms-bridge is mirrored into a shadow ONS for a day (the plans go
to a log, not to Twilio) and the people who watch the phones say what they saw - never the answer key."""

from __future__ import annotations

import re
from collections import Counter

from fdegym_env.tasklib import evaluation
from fdegym_env.tasklib.replay import Reply

from . import grader, on_net


def as_found_cost(params: dict, traffic: dict) -> float:
    """The same day priced for ONS as production runs it today (the system as found)."""
    custs = on_net.customers(int(params.get("world_seed", 0)), params)
    out = grader.evaluate(lambda batch: Reply(ok=True, value=on_net.as_found_plan(batch, custs)), params, traffic)
    return float(out["kpi"])


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    d = out["details"]
    custs = {c["account"]: c for c in on_net.customers(int(params.get("world_seed", 0)), params)}
    lines = [f"Shadow ONS, today: {sum(1 for w in traffic['weeks'] for e in w if e['type'] == 'LOCKOUT')} lockouts "
             f"on the feed; the shadow plan had {len(out['_rows'])} notifications, {d['agent_calls']} of them agent calls."]
    missed = [k for k in out["_out_since"] if k not in out["_reached"]]
    told = {(e["incident"], n["account"]) for e, n in out["_rows"]}
    wrong = [k for k in told if k not in out["_out_since"]]
    streets = Counter(custs[a]["premise"].split(" ", 1)[1] for _i, a in missed if custs[a]["phone_type"] == "mobile")
    if missed:
        top = ", ".join(f"{s} ({n})" for s, n in streets.most_common(3)) or "all over"
        lines.append(f"Wendell: we'd have had about {max(1, len(missed) // 4)} 'nobody told me' calls - "
                     f"the ones I can place were {top}.")
    ll = sum(1 for e, n in out["_rows"] if n["channel"] == "sms" and custs[n["account"]]["phone_type"] == "landline")
    if ll:
        lines.append(f"Tom: {ll} of the shadow texts would have bounced with 30006.")
    if wrong:
        ws = Counter(custs[a]["premise"].split(" ", 1)[1] for _i, a in wrong)
        lines.append(f"Wendell: and {len(wrong)} customer(s) would have been told of an outage they weren't in - "
                     "'my lights are on, why did you text me' - mostly on "
                     + ", ".join(f"{s} ({n})" for s, n in ws.most_common(3)) + ".")
    if d["repeat"]:
        lines.append(f"Marisol: {d['repeat']} customers would have had the same outage message more than once.")
    if out["incidents"]:
        n_late = d["late_calls"]
        lines.append(f"Annette: the shadow call list would have left {n_late} priority customer(s) without a call in "
                     f"time - " + ("e.g. " if n_late > 1 else "") + re.sub(r" at \d\d \w{3} (\d\d:\d\d)", r" at \1", out["incidents"][0].split(": ", 1)[1])
                     + ". That is exactly November again.")
    elif d["agent_calls"]:
        lines.append("Annette: every priority customer on the shadow list would have been called in time.")
    base = as_found_cost(params, traffic)
    lines.append(f"Marisol: on the cost sheet that day comes to about ${out['kpi']:,.0f}; the same events through "
                 f"ONS as it runs in production today would have cost about ${base:,.0f}.")
    stats = {k: d[k] for k in ("missed", "wrong", "repeat", "late_calls", "agent_calls")}
    stats.update(cost=round(float(out["kpi"]), 2), cost_as_found=round(base, 2))
    return {"feedback": "\n".join(lines), "facts": [], "topics": [], "stats": stats, "extra_cost": 0.0}
