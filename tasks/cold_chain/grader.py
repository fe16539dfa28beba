"""Grader for cold_chain: replay a fortnight of drops (ten working days) through the delivered drop
check, one call per day.

kpi (minimize, GBP per fortnight) = spoiled stock (an excursion load's value, quarantined or not) +
false quarantines (Halden's QP review, the replacement run, and the share of short-dated stock not
reissued) + re-delivery runs + the recall of any excursion load handed to a pharmacy (coldchain.cost).
Incident: a load that had an excursion under the client SOP was released. A line the drop check gives
no valid verdict for stays on the van (quarantine), as the handheld does."""

from __future__ import annotations

from fdegym_env.tasklib.replay import Decider

from . import coldchain


def evaluate(decide, params: dict, traffic: dict) -> dict:
    kpi, rows = 0.0, []
    for day in traffic["days"]:
        verdicts = decide(day["loads"]).decisions
        for load in day["loads"]:
            d = verdicts.get(load["load_id"])
            action = d["action"] if d else "quarantine"
            exc = coldchain.excursion(load, params)
            c = coldchain.cost(load, exc, action)
            kpi += c
            rows.append({"load": load, "action": action, "exc": exc, "cost": c})
    released_exc = [r["load"]["load_id"] for r in rows if r["exc"] and r["action"] == "release"]
    false_q = sum(1 for r in rows if not r["exc"] and r["action"] == "quarantine")
    true_q = sum(1 for r in rows if r["exc"] and r["action"] == "quarantine")
    incidents = []
    if released_exc:
        incidents.append(f"excursion_delivered: {len(released_exc)} load(s) with an excursion under the client SOP "
                         f"handed to a pharmacy (e.g. {released_exc[0]})")
    summary = (f"£{kpi:,.0f}: {len(rows)} loads, {true_q + false_q} quarantined ({false_q} with no excursion), "
               f"{len(released_exc)} excursion load(s) delivered")
    return {"kpi": round(kpi, 2), "incidents": incidents, "summary": summary,
            "details": {"loads": len(rows), "quarantined": true_q + false_q, "false_quarantines": false_q,
                        "excursions_delivered": len(released_exc)},
            "_rows": rows}


def run(deploy, params: dict, traffic: dict) -> dict:
    decide = Decider(deploy, "assess_loads")
    out = evaluate(decide, params, traffic)
    out["incidents"] += decide.incidents()
    return out


def grade(deploy, params: dict, traffic: dict) -> dict:
    return {k: v for k, v in run(deploy, params, traffic).items() if not k.startswith("_")}
