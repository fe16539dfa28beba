"""One trial day for permit_triage: PermitBase's test tenancy re-triages a copy of the open cases and
a week of applications through the delivered triage (no letters, no permits) and the people who watch
the queues say what they saw, with counts and case numbers - never the answer key."""

from __future__ import annotations

from collections import Counter

from fdegym_env.tasklib import evaluation

from . import grader, permits

SHOWN = 5


def _named(ids: list[str]) -> str:
    return evaluation.named(ids, SHOWN)


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    res, apps, det = out["_results"], out["_apps"], out["details"]
    routes = Counter(r["route"] for r in res.values())
    lines = [f"Test tenancy run (trial day {day}): {len(res)} cases - the open pile plus a week of new applications - "
             f"re-triaged through your build: {routes['fast_track']} fast track, {routes['officer']} to the officers, "
             f"{routes['conservation']} to conservation, {routes['auto_issue']} auto-issued."]
    if any(i.startswith(("malformed", "entry_point")) for i in out["incidents"]):
        lines.append("Business Systems: PermitBase got errors or unreadable decisions back - those cases sat in manual "
                     "review with no date.")
    small_to_officers = [a for a, r in res.items() if r["route"] == "officer" and r["eligible"] and not r["heritage"]]
    if small_to_officers:
        lines.append(f"Karen: {len(small_to_officers)} of the cases on my list look like technician jobs to me - small, "
                     f"ticked, nowhere near an area: {_named(small_to_officers)}.")
    unconsulted = [a for a, r in res.items() if r["unconsulted"]]
    if unconsulted:
        lines.append(f"Imogen: {len(unconsulted)} case(s) in a conservation area would have been approved without me "
                     f"seeing them: {_named(unconsulted)}. That cannot happen.")
    screened = [a for a, r in res.items() if r["route"] == "conservation" and not r["heritage"]]
    if screened:
        lines.append(f"Imogen: {len(screened)} case(s) came to my queue from streets in no conservation area; I sent "
                     f"them back: {_named(screened)}.")
    deemed = [a for a, r in res.items() if r["deemed"]]
    if deemed:
        notice = [a for a in deemed if res[a]["notice"]]
        lines.append(f"Karen: {len(deemed)} case(s) would have gone deemed"
                     + (f" ({len(notice)} of them with PermitBase sending the DA1 on the date your triage gave)" if notice else "")
                     + f": {_named(deemed)}.")
    appeals = [a for a, r in res.items() if r["appeal"]]
    if appeals:
        lines.append(f"Joanne: {len(appeals)} of the auto-issued permits had drawings my technicians would have sent "
                     f"back - those end up as appeals: {_named(appeals)}.")
    start = permits.day(traffic["start"])
    new = [r["days"] for a, r in res.items() if permits.day(apps[a]["validated_on"]) >= start]
    pile = [r["days"] for a, r in res.items() if permits.day(apps[a]["validated_on"]) < start]
    lines.append(f"Alistair: the week's {len(new)} new applications took {sum(new) / max(len(new), 1):.1f} working days "
                 f"from receipt to decision on average; the {len(pile)} cases already open, "
                 f"{sum(pile) / max(len(pile), 1):.1f}.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [], "stats": dict(det), "extra_cost": 0.0}
