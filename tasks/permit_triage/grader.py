"""Grader for permit_triage: re-triage the open cases at go-live, then replay four weeks of minor
works applications (one nightly batch a working day) through the delivered triage, and run the
officers' queues on the routes and decide-by dates it returns (permits.simulate).

kpi (minimize) = applicant working days from receipt to decision + 40 per appeal. Incidents: a
permit approved inside a conservation area without the conservation officer (auto-issued or
fast-tracked); a case not decided by its deemed-approval date, or left open past an earlier
decide_by (PermitBase sends the deemed notice itself). 21 entry-point calls."""

from __future__ import annotations

from collections import Counter

from fdegym_env.tasklib import evaluation

from . import permits


def evaluate(decide, params: dict, traffic: dict) -> dict:
    """Shared by grade() and the trial: ``decide(batch)`` -> Reply with the valid decisions by app_id."""
    apps, routes = [], {}
    for batch in traffic["batches"]:
        apps += batch
        got = decide(batch).decisions if batch else {}
        for aid, d in got.items():
            routes[aid] = (d["route"], permits.day(d.get("decide_by")))
    res = permits.simulate(apps, traffic["truth"], routes, params, permits.day(traffic["start"]))
    kpi = permits.kpi(res)
    unconsulted = sorted(a for a, r in res.items() if r["unconsulted"])
    deemed = sorted(a for a, r in res.items() if r["deemed"])
    incidents = []
    if unconsulted:
        incidents.append(f"heritage_approved_unconsulted: {len(unconsulted)} permit(s) approved inside a conservation "
                         f"area without the conservation officer (e.g. {unconsulted[0]})")
    if deemed:
        incidents.append(f"deemed_approval: {len(deemed)} case(s) deemed approved - not decided by the statutory date "
                         f"or left open past the decide_by PermitBase was given (e.g. {deemed[0]})")
    by = Counter(r["route"] for r in res.values())
    appeals = sum(r["appeal"] for r in res.values())
    n = len(res)
    summary = (f"{kpi:,.0f} applicant working days over {n} cases (mean {kpi / max(n, 1):.1f}); "
               f"{by['fast_track']} fast-tracked, {by['officer']} to officers, {by['conservation']} to conservation, "
               f"{by['auto_issue']} auto-issued; {appeals} appeal(s), {len(deemed)} deemed")
    return {"kpi": round(kpi, 2), "incidents": incidents, "summary": summary,
            "details": {"cases": n, "appeals": appeals, "deemed": len(deemed), "unconsulted": len(unconsulted),
                        **{f"route_{k}": v for k, v in by.items()}},
            "_apps": {a["app_id"]: a for a in apps}, "_results": res}


grade = evaluation.grader(evaluate)
