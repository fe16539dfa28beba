"""Grader for helpdesk_tutorial: replay two weeks of tickets through the delivered triage router.

kpi (minimize) = lost user-hours + 10 h per wasted on-call page.
  lost user-hours: users stopped x hours until fixed (capped at one 8-hour shift), from the
  queue/priority the router chose and the service-desk timing model in sim.py.
  wasted page: a P1 set at creation that pages a team that cannot fix the ticket, or pages for a
  fault that does not justify a call-out.
Incidents: a site outage not paged to network as P1; routing output that is malformed (missing
tickets, unknown queue or priority: checked by tasklib.replay from task.yaml's ``output``). Two
entry-point calls per grading (one per week).
"""

from __future__ import annotations

import math
from collections import defaultdict

from fdegym_env.tasklib import evaluation

from . import sim


def evaluate(decide, params: dict, traffic: dict) -> dict:
    """Shared by grade() and trial.run(): ``decide(batch)`` -> a tasklib Reply (valid decisions by id)."""
    truth = traffic["truth"]
    loss = 0.0
    pages = 0
    incidents: list[str] = []
    per_kind = defaultdict(lambda: {"n": 0, "lost_h": 0.0, "right_queue": 0, "hours": 0.0, "pages_wasted": 0})
    routed: list[dict] = []
    unrouted: list[str] = []                          # ids without a valid decision
    load: dict = {}                                    # per-queue, per-day capacity used so far
    for batch in traffic["weeks"]:
        by_id = decide(batch).decisions
        for vis in batch:
            t, d = truth[vis["id"]], by_id.get(vis["id"])
            if d is None:                               # no valid decision: nobody ever sees it
                q = p = None
                lost, wasted, hours = sim.lost_hours(t, math.inf), False, sim.CAP_H   # the full cap
                unrouted.append(vis["id"])
            else:
                q, p = d["queue"], d["priority"]
                lost, wasted, hours = sim.loss_of(vis, t, q, p, load)
                routed.append({"id": vis["id"], "kind": t["kind"], "site": vis["site"], "opened": vis["opened"],
                               "queue": q, "priority": p, "owner": t["owner"], "hours": round(hours, 2),
                               "users": t["users"], "wasted_page": bool(wasted)})
            k = per_kind[t["kind"]]
            loss += lost
            pages += wasted
            k["n"] += 1
            k["lost_h"] += lost
            k["hours"] += min(hours, 72.0)
            k["right_queue"] += q == t["owner"]
            k["pages_wasted"] += wasted
            if t["kind"] == "outage" and not (q == "network" and p == "P1"):
                incidents.append(f"site_outage_not_paged: {vis['id']} ({vis['site']}) "
                                 + (f"went to {q}/{p}" if d else "was never routed"))
    kpi = loss + sim.PAGE_COST_H * pages
    kinds = {kind: {"n": v["n"], "lost_user_h": round(v["lost_h"], 1),
                    "mean_hours_to_fix": round(v["hours"] / max(1, v["n"]), 2),
                    "in_right_queue": v["right_queue"], "wasted_pages": v["pages_wasted"]}
             for kind, v in sorted(per_kind.items())}
    sc = kinds.get("scanner", {})
    summary = (f"lost {loss:.0f} user-hours + {pages} wasted pages x {sim.PAGE_COST_H:g} h = {kpi:.0f}; "
               f"handheld tickets: {sc.get('in_right_queue', 0)}/{sc.get('n', 0)} in the right queue, "
               f"mean {sc.get('mean_hours_to_fix', 0)} h to fix")
    return {"kpi": round(kpi, 3), "incidents": incidents, "summary": summary,
            "details": {"lost_user_hours": round(loss, 1), "wasted_pages": pages, "by_kind": kinds},
            "_routed": routed, "_unrouted": unrouted}


grade = evaluation.grader(evaluate)
