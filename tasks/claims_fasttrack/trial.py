"""One trial day for claims_fasttrack: a day of FNOLs is mirrored to a shadow intake and the people
who watch the queues say what they saw (never the answer key)."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    # a trial day takes a customer day (people.yaml trial.advance_hours): the report covers the 24 hours just
    # mirrored and names no calendar day, which trial.run cannot check against the customer's clock
    when = "the last 24 hours"
    per = out["_per"]
    if out["_lost"]:
        return {"feedback": f"Jorge (shadow intake, {when}): the shadow intake fell over - " + "; ".join(out["incidents"][:2]),
                "facts": [], "topics": [], "stats": out["details"], "extra_cost": 0.0}
    q = out["details"]["by_queue"]
    lines = [f"Shadow intake, {when}: {len(per)} FNOLs - " + ", ".join(f"{k} {v}" for k, v in q.items() if v) + "."]
    ft = [p for p in per if p["queue"] == "fast_track"]
    if ft:
        lines.append(f"Gloria: {len(ft)} claim(s) would have been paid within two days - that's what I want to see.")
    odd = [p for p in ft if p["kind"] == "ring"]
    if odd:
        # what gives the ring away, and who holds its current pattern, follow the variant
        seen = "the VINs look familiar" if params.get("ring_key") == "vin" else "the pictures look familiar"
        ask = ("Ask me what we'd want sent over - I've had the Delta file since January."
               if params.get("siu_holder") == "marcus_lindqvist" else "Worth asking Renata what she'd send us.")
        lines.append(f"Marcus: going through the fast-track list I'd have stopped {len(odd)} of those - {seen}. {ask}")
    twice = [p for p in ft if p["kind"] == "double"]
    if twice:
        lines.append(f"Tom: {len(twice)} fast-track payment(s) went to a customer we'd already paid for the same loss.")
    siu = [p for p in per if p["queue"] == "siu"]
    honest = [p for p in siu if p["kind"] != "ring"]
    if honest:
        lines.append(f"Renata: {len(siu)} referral(s) in one day; {len(honest)} of them honest customers - "
                     "we can't take that, and they'll wait four weeks.")
    late = [i for i in out["incidents"] if i.startswith("ack_deadline_missed")]
    pend = q.get("pend_photos", 0)
    if pend:
        lines.append(f"Hector: {pend} file(s) went to the photo pend again - no letter until the Friday sweep.")
    if late:
        lines.append(f"Aileen: {len(late)} acknowledgement(s) would have gone out after the statutory limit.")
    other = [i for i in out["incidents"] if i.startswith(("ring_claim_paid", "authority_exceeded"))]
    if other:
        lines.append("Aileen: " + other[0].split(":")[0].replace("_", " ") + f" on {len(other)} claim(s) - that cannot go live.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [],
            "stats": {"fnols": len(per), "fast_track": len(ft), "siu": len(siu), "pend_photos": pend},
            "extra_cost": 0.0}
