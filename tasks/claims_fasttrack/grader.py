"""Grader for claims_fasttrack: replay two weeks of first notices through the delivered intake.

kpi (minimize, USD per fortnight) = leakage (money paid that was not owed) + loss-of-use rental
(42 USD a claim-day until payment) + SIU referrals (240 USD each) + field appraisals (185 USD each),
from the queue the intake chose per claim and the desk / SIU / photo model in sim.py.
Incidents: an acknowledgement later than the statutory limit; a claim on SIU's flag list paid
straight through; a straight-through payment above the delegated limit; a claim the intake lost
or routed to an unknown queue. Two entry-point calls per grading (one per week).
"""

from __future__ import annotations

from . import sim


def evaluate(decide, params: dict, traffic: dict) -> dict:
    """Shared by grade() and trial.run(): ``decide(batch) -> (ok, value)``."""
    rows, lost = [], 0
    for batch in traffic["batches"]:
        ok, value = decide(batch)
        by_id = {}
        if ok and isinstance(value, list):
            by_id = {d.get("claim_id"): d.get("queue") for d in value if isinstance(d, dict)}
        for vis in batch:
            q = by_id.get(vis["claim_id"])
            if q not in sim.QUEUES:
                lost += 1
                q = "pend_photos_lost"
            rows.append((vis, traffic["truth"][vis["claim_id"]], q))
    incidents = []
    if lost:
        incidents.append(f"claims_lost: {lost} FNOL(s) came back without a known queue (never set up, never acknowledged)")
        incidents.append("ack_deadline_missed: claims lost by intake were never acknowledged")
        # the clerks' Friday sweep finds them eventually
        rows = [(v, t, "pend_photos" if q == "pend_photos_lost" else q) for v, t, q in rows]
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
            "details": dict(out["parts"], by_queue=by_queue, claims=len(per)), "per": per}


def grade(deploy, params: dict, traffic: dict) -> dict:
    def decide(batch):
        res = deploy.call("claimdesk.intake", "triage_batch", batch, timeout_s=20)
        return res.ok, res.value

    out = evaluate(decide, params, traffic)
    out.pop("per")
    return out
