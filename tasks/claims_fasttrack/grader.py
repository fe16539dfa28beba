"""Grader for claims_fasttrack: replay two weeks of first notices through the delivered intake.

kpi (minimize, USD per fortnight) = leakage (money paid that was not owed) + loss-of-use rental
(42 USD a claim-day until payment) + SIU referrals (240 USD each) + field appraisals (185 USD each),
from the queue the intake chose per claim and the desk / SIU / photo model in sim.py.
Incidents: an acknowledgement later than the statutory limit; a claim on SIU's flag list paid
straight through; a straight-through payment above the delegated limit; a claim the intake lost
or routed to an unknown queue (``claims_lost``, declared in task.yaml). Two entry-point calls per
grading (one per week).
"""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import sim


def evaluate(decide, params: dict, traffic: dict) -> dict:
    """Shared by grade() and trial.run(): ``decide(batch)`` -> the valid queue per claim_id."""
    rows, lost = [], 0
    for batch in traffic["batches"]:
        decisions = decide(batch).decisions
        for vis in batch:
            d = decisions.get(vis["claim_id"])
            lost += d is None
            # a lost claim is never set up or acknowledged; the clerks' Friday sweep finds it eventually
            rows.append((vis, traffic["truth"][vis["claim_id"]], "pend_photos" if d is None else d["queue"]))
    incidents = [f"ack_deadline_missed: {lost} claim(s) lost by intake were never acknowledged"] if lost else []
    out = sim.outcome(rows, params)
    incidents += out["incidents"]
    per = out["per"]
    ring = [p for p in per if p["kind"] == "ring"]
    summary = (f"{out['kpi']:,.0f} USD = leakage {out['parts']['leakage']:,.0f} + rental {out['parts']['rental']:,.0f} "
               f"+ SIU {out['parts']['siu']:,.0f} + appraisal {out['parts']['appraisal']:,.0f}; "
               f"ring claims {sum(p['queue'] == 'siu' for p in ring)}/{len(ring)} referred; "
               f"mean cycle {sum(p['cycle'] for p in per) / max(1, len(per)):.1f} days")
    by_queue = {q: sum(p["queue"] == q for p in per) for q in sim.QUEUES}
    return {"kpi": out["kpi"], "incidents": incidents, "summary": summary,
            "details": dict(out["parts"], by_queue=by_queue, claims=len(per)), "_per": per, "_lost": lost}


grade = evaluation.grader(evaluate)
