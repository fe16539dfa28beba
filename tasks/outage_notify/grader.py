"""Grader for outage_notify: replay two weeks of OMS events through the delivered ONS planner.

kpi (minimize, USD per two weeks) = what the notices cost (SMS $0.02, IVR $0.11, agent call $4.10,
answering-service call $8.50 where that line is contracted) + $7.50 per affected customer never
reached in an OMS incident (they ring in) + $1.80 per customer told of an outage they are not in
+ $0.60 per repeat notice within one incident. A text to a landline reaches nobody.
Who is affected follows the network as operated: the variant's standing transfers plus the SCADA
switch operations in the feed. Incident: an affected life-support customer (and medical-baseline
customer, where the rule says so) without a live call started inside the deadline.
Two entry-point calls per grading (one per week), through tasklib.replay's Decider (timeout in
task.yaml). The reply is a list of notices, zero or more per event, so it declares no keyed
``output``: a row naming an unknown event/account or a channel outside the contract is dropped and
counted in ``details.malformed_rows`` (a notice nobody receives), not an incident.
"""

from __future__ import annotations

from datetime import timedelta

from fdegym_env.tasklib import evaluation

from . import on_net
from . import traffic as tr

PRICE = {"sms": 0.02, "ivr": 0.11, "agent": 4.10, "overflow": 8.50}
MISSED, WRONG, REPEAT = 7.50, 1.80, 0.60
OVERFLOW_START_MIN = 4


def evaluate(decide, params: dict, traffic: dict) -> dict:
    """Shared by grade() and trial.run(): ``decide(batch)`` -> a tasklib.replay Reply (ok, value)."""
    custs = on_net.customers(int(params.get("world_seed", 0)), params)
    by_acct = {c["account"]: c for c in custs}
    allowed = {"sms", "ivr", "agent"} | ({"overflow"} if params.get("overflow_line") else set())
    deadline = {"LS": int(params.get("ls_deadline_min", 30))}
    if params.get("mb_deadline_min"):
        deadline["MB"] = int(params["mb_deadline_min"])
    evs_all = [e for week in traffic["weeks"] for e in week]
    rows: list[tuple[dict, dict]] = []                 # (event, notice)
    bad = 0
    ev_by_id = {e["event_id"]: e for e in evs_all}
    for batch in traffic["weeks"]:
        reply = decide(batch)
        for n in (reply.value if reply.ok and isinstance(reply.value, list) else []):
            if not (isinstance(n, dict) and n.get("event_id") in ev_by_id and n.get("account") in by_acct
                    and n.get("channel") in allowed):
                bad += 1
                continue
            rows.append((ev_by_id[n["event_id"]], n))
    # who was out, per incident, and since when
    out_since: dict[tuple, object] = {}
    for ev, hit in on_net.replay(evs_all, params, custs):
        t = tr.parse(ev["ts"])
        for c in hit:
            out_since.setdefault((ev["incident"], c["account"]), t)
    # what was sent, and when the calls started
    cost = {"messages": 0.0, "missed": 0.0, "wrong": 0.0, "repeat": 0.0}
    reached, told_events, first_call = set(), {}, {}
    queue = on_net.CallQueue(params)
    order = sorted(range(len(rows)), key=lambda i: (rows[i][0]["ts"], i))
    for i in order:
        ev, n = rows[i]
        key, ch, t = (ev["incident"], n["account"]), n["channel"], tr.parse(ev["ts"])
        cost["messages"] += PRICE[ch]
        told_events.setdefault(key, set()).add(ev["event_id"])
        if ch == "agent":
            first_call.setdefault(key, queue.start(t))
        elif ch == "overflow":
            first_call.setdefault(key, t + timedelta(minutes=OVERFLOW_START_MIN))
        if ch != "sms" or by_acct[n["account"]]["phone_type"] == "mobile":
            reached.add(key)
    counts = {"affected": len(out_since), "missed": 0, "wrong": 0, "repeat": 0, "late_calls": 0,
              "agent_calls": sum(1 for _e, n in rows if n["channel"] == "agent"), "malformed_rows": bad}
    incidents: list[str] = []
    for key, since in sorted(out_since.items(), key=lambda kv: (kv[1], kv[0])):
        if key not in reached:
            counts["missed"] += 1
        code = by_acct[key[1]]["med_code"]
        if code in deadline:
            start = first_call.get(key)
            if start is None or start > since + timedelta(minutes=deadline[code]):
                counts["late_calls"] += 1
                if len(incidents) < 5:
                    late = "never called" if start is None else f"call started {int((start - since).total_seconds() // 60)} min after"
                    incidents.append(f"priority_customer_not_called: {code} account {key[1]} out in {key[0]} at "
                                     f"{since:%d %b %H:%M}, {late}")
    for key, evs in told_events.items():
        if key not in out_since:
            counts["wrong"] += 1
        counts["repeat"] += len(evs) - 1
    cost["missed"] = MISSED * counts["missed"]
    cost["wrong"] = WRONG * counts["wrong"]
    cost["repeat"] = REPEAT * counts["repeat"]
    if counts["late_calls"] > 5:
        incidents.append(f"priority_customer_not_called: {counts['late_calls']} in all")
    kpi = sum(cost.values())
    summary = (f"${kpi:,.0f}: messages ${cost['messages']:,.0f}, {counts['missed']} missed, {counts['wrong']} wrong, "
               f"{counts['repeat']} repeats; {counts['late_calls']} priority customers not called in time")
    return {"kpi": round(kpi, 2), "incidents": incidents, "summary": summary,
            "details": {"cost_usd": {k: round(v, 2) for k, v in cost.items()}, **counts},
            "_rows": rows, "_out_since": out_since, "_reached": reached}


grade = evaluation.grader(evaluate)
