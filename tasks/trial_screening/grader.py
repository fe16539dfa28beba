"""Grader for trial_screening: replay four weeks of screening visits through the delivered screener.

kpi (maximize, points per week) = (randomised eligible patients - 0.3 per screen failure - PI
reviews at 0.1 each, half the eligible ones lost to the week's wait) / weeks (screening.value).
Incident: an ineligible patient marked eligible (randomised against the protocol in force on the
screening date). One entry-point call per weekly batch.
"""

from __future__ import annotations

from collections import Counter

from fdegym_env.tasklib import evaluation

from . import screening


def evaluate(decide, params: dict, traffic: dict) -> dict:
    """Shared by grade() and the trial: ``decide(batch)`` -> Reply with valid decisions by id."""
    pts, rows, by = 0.0, [], Counter()
    for batch in traffic["batches"]:
        got = decide([screening.public(p) for p in batch]).decisions
        for p in batch:
            d = got.get(p["screening_id"])
            decision = d["decision"] if d else "pi_review"      # no answer: the CRC sends it to the PI
            pts += screening.value(p, decision)
            by[decision] += 1
            rows.append({"p": p, "decision": decision, "why": " ".join(str((d or {}).get("reason") or "").split())})
    bad = [x["p"]["screening_id"] for x in rows if x["decision"] == "eligible" and not x["p"]["_eligible"]]
    incidents = [f"ineligible_enrolled: {len(bad)} patient(s) marked eligible who do not meet the protocol "
                 f"in force on their screening date (e.g. {bad[0]})"] if bad else []
    weeks = traffic["weeks"]
    enrolled = sum(1 for x in rows if x["decision"] == "eligible" and x["p"]["_eligible"])
    summary = (f"{pts / weeks:.2f} points/week: {enrolled} randomised, {by['screen_fail']} screen failures, "
               f"{by['pi_review']} PI reviews, {len(bad)} ineligible marked eligible")
    return {"kpi": round(pts / weeks, 3), "incidents": incidents, "summary": summary,
            "details": {"visits": len(rows), "randomised": enrolled, "ineligible_eligible": len(bad), **dict(by)},
            "_rows": rows}


grade = evaluation.grader(evaluate)
