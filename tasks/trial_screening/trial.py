"""One trial day for trial_screening: two weeks of booked screening visits run through a shadow copy
of the delivered screener (nothing reaches OnCore) and the screening team say what they noticed,
with counts and a few screening numbers - never the answer key."""

from __future__ import annotations

from collections import Counter

from fdegym_env.tasklib import evaluation

from . import grader

SHOWN = 4


def _named(ids: list[str]) -> str:
    return evaluation.named(ids, SHOWN)


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    rows, det = out["_rows"], out["details"]
    lines = [f"Shadow run (trial day {day}): {det['visits']} booked screening visits through your build - "
             f"{det.get('eligible', 0)} eligible, {det.get('screen_fail', 0)} screen failures, "
             f"{det.get('pi_review', 0)} to PI review."]
    fails = [x for x in rows if x["decision"] == "screen_fail"]
    by_src = Counter(x["p"]["source"] for x in fails)
    if fails:
        lines.append("Theresa: screen failures by referral route - "
                     + ", ".join(f"{s} {n}" for s, n in sorted(by_src.items(), key=lambda kv: -kv[1])) + ".")
    redrawn = [x["p"]["screening_id"] for x in fails if x["p"]["_retest"] and x["p"]["_eligible"]]
    if redrawn:
        lines.append(f"Theresa: {len(redrawn)} of the screen failures had a redraw on the visit that came back in "
                     f"range - Dr Deshmukh would want those looked at again: {_named(redrawn)}.")
    queued = [x for x in rows if x["decision"] == "pi_review"]
    if queued:
        lines.append(f"Dr Deshmukh: {len(queued)} visit(s) in my Thursday queue; each one is a week before they can "
                     f"be randomised: {_named([x['p']['screening_id'] for x in queued])}.")
    bad = [x["p"]["screening_id"] for x in rows if x["decision"] == "eligible" and not x["p"]["_eligible"]]
    if bad:
        lines.append(f"Dr Deshmukh: at the eligibility check before randomisation I would have had to stop {len(bad)} "
                     f"patient(s) your screener passed - they do not meet the protocol for their screening date. "
                     f"Had they been randomised, each is a major deviation: {_named(bad)}.")
    if any(i.startswith(("malformed", "entry_point")) for i in out["incidents"]):
        lines.append("Kevin: the shadow job got errors back from the screener - those visits would have sat "
                     "in the queue with no decision.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [], "stats": dict(det), "extra_cost": 0.0}
