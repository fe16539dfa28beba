"""Grader for returns_desk: replay four weeks of orders through the delivered catalogue sizing and
returns service.

kpi (minimize, GBP) = fit-return CLV damage + lost sales (no listed size fits the shopper) + for
every return request: reverse logistics, resale loss, inspection, or the CLV lost by a refusal
(shop.outcome). Incidents: a refused return inside the statutory period or a faulty one; a Plus
member refused inside the member terms (plus_members). Two entry-point calls: uk_sizes once for
the range, authorise_batch once for the returns the orders produce.
"""

from __future__ import annotations

from collections import Counter

from fdegym_env.tasklib.replay import Decider

from . import shop


def evaluate(sizes, decide, params: dict, traffic: dict) -> dict:
    """Shared by grade() and the trial: ``sizes(items)`` / ``decide(requests)`` -> Reply."""
    listed = {k: d["uk_size"] for k, d in sizes(traffic["items"]).decisions.items()}
    reqs, truth, kpi, lost = shop.shop(traffic["lines"], traffic["prods"], listed, params)
    acts = decide(reqs).decisions if reqs else {}
    statutory, plus, rows = [], [], []
    by = Counter()
    for r in reqs:
        d = acts.get(r["rma_id"])
        action = d["action"] if d else "approve"          # malformed: the portal falls back to a label
        t = truth[r["rma_id"]]
        unlawful = ""                                      # why this refusal is an incident, if it is one
        if action == "refuse" and shop.statutory(r):
            statutory.append(r["rma_id"])
            unlawful = "statutory"
        elif action == "refuse" and shop.protected(r, params):
            plus.append(r["rma_id"])
            unlawful = "plus"
        cost = shop.outcome(r, t, action)
        kpi += cost
        by[action] += 1
        why = " ".join(str(d.get("reason") or "").split()) if d else ""     # the service's own reason, if any
        rows.append({"req": r, "action": action, "cost": cost, "why": why, "unlawful": unlawful, **t})
    incidents = []
    if statutory:
        incidents.append(f"statutory_return_refused: {len(statutory)} return(s) refused inside the cancellation "
                         f"period or faulty (e.g. {statutory[0]})")
    if plus:
        incidents.append(f"plus_terms_breached: {len(plus)} Plus member return(s) refused inside the no-quibble "
                         f"window (e.g. {plus[0]})")
    fit = sum(1 for x in rows if x["fit"] != 0)
    summary = (f"£{kpi:,.0f}: {len(reqs)} returns ({fit} wrong fit), {by['inspect']} inspected, "
               f"{by['refuse']} refused, {lost} lost sales")
    return {"kpi": round(kpi, 2), "incidents": incidents, "summary": summary,
            "details": {"returns": len(reqs), "wrong_fit": fit, "lost_sales": lost, **dict(by)},
            "_rows": rows}


def run(deploy, params: dict, traffic: dict) -> dict:
    sizes, decide = Decider(deploy, "uk_sizes"), Decider(deploy, "authorise_batch")
    out = evaluate(sizes, decide, params, traffic)
    out["incidents"] += sizes.incidents() + decide.incidents()
    return out


def grade(deploy, params: dict, traffic: dict) -> dict:
    return {k: v for k, v in run(deploy, params, traffic).items() if not k.startswith("_")}
