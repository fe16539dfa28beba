"""Grader for line_changeover: replay four weeks of order books through the delivered scheduler and run
each line's days as the filling hall really runs them (plant.run_line).

kpi (maximize, cases per week) = packed cases - waste cases (flavour-change purge, wash-down start-up
waste, and every case of a job planned but not started because it could not finish before the end of
its day: the kitchen made its mix), averaged over the weeks. A held job is neither; a job on a line that cannot fill its format,
or left out of the plan, is not packed.
Incident: allergen_cross_contact - a product run after one carrying a wash-down allergen it does not
declare, with no full wash-down between (QA would hold the whole run). One call per week.
"""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import plant


def week_lines(jobs: list[dict], decisions: dict) -> tuple[dict, list[str]]:
    """{(line, day): [(job, wash_before)] in the plan's order}, and the jobs the plan left off or put on a
    line that cannot fill them."""
    lines, dropped = {(ln, day): [] for ln in plant.LINES for day in sorted({j["day"] for j in jobs})}, []
    for job in jobs:
        d = decisions.get(job["job_id"])
        if d is not None and d["line"] == "hold":
            continue
        if d is None or not plant.eligible(d["line"], job["product"]):
            dropped.append(job["job_id"])
            continue
        lines[(d["line"], job["day"])].append((d["seq"], job["job_id"], job, bool(d["wash_before"])))
    return {ln: [(j, w) for _s, _i, j, w in sorted(rows, key=lambda r: (r[0], r[1]))] for ln, rows in lines.items()}, dropped


def evaluate(decide, params: dict, traffic: dict) -> dict:
    packed = waste = 0.0
    tot = {"washes": 0, "flavour": 0, "swaps": 0, "changeover_h": 0.0, "short_jobs": 0, "dropped_jobs": 0}
    cross, weeks = [], []
    for wk in traffic["weeks"]:
        lines, dropped = week_lines(wk["jobs"], decide(wk["jobs"]).decisions)
        tot["dropped_jobs"] += len(dropped)
        per = {}
        for (ln, day), seq in lines.items():
            r = plant.run_line(ln, seq, params)
            per[(ln, day)] = r
            packed += r["packed"]
            waste += r["waste"]
            tot["washes"] += r["washes"]
            tot["flavour"] += r["flavour"]
            tot["swaps"] += r["swaps"]
            tot["changeover_h"] += r["changeover_min"] / 60
            tot["short_jobs"] += len(r["short"])
            cross += [(f"{wk['week']} {day}", ln, *c) for c in r["cross_contact"]]
        weeks.append({"week": wk["week"], "lines": per, "dropped": dropped})
    n = max(1, len(traffic["weeks"]))
    kpi = (packed - waste) / n
    incidents = []
    if cross:
        w, ln, a, b, job = cross[0]
        incidents.append(f"allergen_cross_contact: {len(cross)} run(s) after an allergen they do not declare without "
                         f"a full wash-down (e.g. {job} {b} after {a} on {ln}, w/c {w})")
    summary = (f"{kpi:,.0f} cases/week net: {packed / n:,.0f} packed, {waste / n:,.0f} waste; "
               f"{tot['washes']} wash-downs, {tot['flavour']} flavour changes over {n} week(s)")
    details = {"packed_per_week": round(packed / n), "waste_per_week": round(waste / n),
               **{k: round(v, 1) if isinstance(v, float) else v for k, v in tot.items()}, "cross_contact": len(cross)}
    return {"kpi": round(kpi, 1), "incidents": incidents, "summary": summary, "details": details,
            "_weeks": weeks, "_cross": cross}


grade = evaluation.grader(evaluate)
