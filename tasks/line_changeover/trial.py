"""One trial day for line_changeover: next week's order book is run through a shadow copy of the
delivered scheduler (nothing printed for the floor, no batch sheet to the kitchen) and the people who
watch the lines say what they would have seen - with counts, never the answer key."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader, plant

SHOWN = 5           # examples named per line of the report; the rest are counted


def _named(items: list[str]) -> str:
    return ", ".join(items[:SHOWN]) + (f" ({SHOWN} of {len(items)} shown)" if len(items) > SHOWN else "")


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    det = out["details"]
    jobs = {j["job_id"]: j for wk in traffic["weeks"] for j in wk["jobs"]}
    lines_run = [(d, ln, r) for wk in out["_weeks"] for (ln, d), r in wk["lines"].items()]
    planned = sum(len(r["done"]) + len(r["short"]) for _d, _l, r in lines_run)
    held = len(jobs) - planned - det["dropped_jobs"]
    notes = [f"Shadow week (trial day {day}): {len(jobs)} jobs in the order book, {planned} planned onto the lines, "
             f"{held} held for the short report; {det['washes']} full wash-downs and {det['flavour']} flavour changes "
             f"done; {det['packed_per_week']:,} cases packed, {det['waste_per_week']:,} cases of waste."]
    binned = [f"{sid} ({jobs[sid]['product']}, {ln} {d})" for d, ln, r in lines_run for sid, _c in r["short"][:1]]
    if binned:
        notes.append(f"Kitchen: {len(binned)} run(s) not started because they wouldn't finish before hygiene - mix binned, "
                     f"and the rest of that line's day went short: {_named(binned)}.")
    idle = {ln: sum(r["idle_min"] for _d, l2, r in lines_run if l2 == ln) for ln in plant.LINES}
    slack = [f"{ln} {m / 60:.1f} h" for ln, m in idle.items() if m >= 60]
    if slack:
        notes.append("Team leaders: lines stood finished before the end of shift with jobs on the short report - "
                     + ", ".join(slack) + " over the week.")
    swaps = sum(r["swaps"] for _d, ln, r in lines_run if ln == params["new_line"])
    if swaps:
        notes.append(f"Stacey ({params['new_line']}): {swaps} chunky/smooth swap(s) on the new filler this week.")
    if out["_cross"]:
        ex = [f"{ln} {when.split()[-1]}: {job} {b} after {a}" for when, ln, a, b, job in out["_cross"]]
        notes.append(f"Rukhsana: {len(ex)} run(s) I'd have stopped at the pre-start check - a product after an allergen it "
                     f"doesn't declare, no wash-down: {_named(ex)}.")
    if any(i.startswith(("malformed", "entry_point")) for i in out["incidents"]):
        notes.append("Wes: the shadow run errored - part of the week had no plan.")
    return {"feedback": "\n".join(notes), "facts": [], "topics": [], "stats": det, "extra_cost": 0.0}
