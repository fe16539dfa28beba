"""One trial day for helpdesk_tutorial: intake is mirrored to a shadow queue for a day and the
people who watch it say what they saw (never the answer key)."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader


def _incident_report(incidents: list[str]) -> str:
    """One line per kind of incident, its count first, two examples at most."""
    by_kind: dict[str, list[str]] = {}
    for i in incidents:
        kind, _, text = i.partition(": ")
        by_kind.setdefault(kind, []).append(text)
    lines = []
    for kind, texts in by_kind.items():
        eg = "; ".join(texts[:2]) + (f"; and {len(texts) - 2} more" if len(texts) > 2 else "")
        if kind == "site_outage_not_paged":
            lines.append(f"Network on-call: {len(texts)} site outage ticket(s) today and nobody paged us at P1 "
                         f"({'e.g. ' if len(texts) > 2 else ''}{eg}). A DC down with nobody woken is exactly "
                         "what R10 is there to stop.")
        else:
            lines.append(f"Priya: the shadow intake fell over today - {len(texts)} problem(s) ({eg}). In "
                         "production that would have been tickets nobody sees.")
    return "\n".join(lines)


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    if out["incidents"]:
        return {"feedback": _incident_report(out["incidents"]), "facts": [], "topics": ["trial_incident"],
                "stats": out["details"], "extra_cost": 0.0}
    hh = [r for r in out["_routed"] if r["kind"] == "scanner"]
    owner = params["owner_queue"]
    lines = [f"Shadow intake, today: {len(out['_routed'])} tickets, {len(hh)} of them about RT7 handhelds."]
    facts, topics = [], []
    at = {}
    for r in hh:
        at.setdefault(r["queue"], []).append(r)
    for q, rows in sorted(at.items()):
        slow = sum(1 for r in rows if r["hours"] > 4)
        if q == owner:
            who = "Tomasz" if q == "field_ops" else "Korvex's daily report"
            lines.append(f"{who}: {len(rows)} RT7 ticket(s) came straight to the team that fixes them; "
                         f"{slow} still took more than 4 hours.")
        elif q == "field_ops":
            lines.append(f"Tomasz: {len(rows)} RT7 ticket(s) came to us and there's nothing we can do with them "
                         "any more - forwarded each one, they went to the back of the next queue.")
            facts.append("F_owner")
        elif q == "service_desk":
            lines.append(f"Priya: {len(rows)} RT7 ticket(s) landed with L1 again; we can't see them in MDM, "
                         "so they sat until someone reassigned them.")
        else:
            lines.append(f"{q} team: {len(rows)} ticket(s) about handhelds ended up with us by mistake and were "
                         "passed on.")
    strays = [r for r in out["_routed"] if r["kind"] == "mfp" and r["queue"] in ("field_ops", "vendor_korvex")]
    if strays:
        who = "Tomasz" if strays[0]["queue"] == "field_ops" else "Korvex's daily report"
        lines.append(f"{who}: {len(strays)} ticket(s) came our way about the copiers at head office - "
                     "nothing to do with handhelds, sent back to the desk.")
    night = [r for r in hh if int(r["opened"][11:13]) >= 22 or int(r["opened"][11:13]) < 6]
    if night:
        stuck = sum(1 for r in night if r["hours"] > 4)
        lines.append(f"Shona: {len(night)} of those were raised on nights; {stuck} of them weren't sorted till "
                     "the morning.")
    pages = out["details"]["wasted_pages"]
    if pages:
        lines.append(f"Graham's pager report: {pages} page(s) that day he'd call wasted - woke people for "
                     "things that weren't stoppages or weren't theirs.")
    missed = sum(1 for r in hh if r["queue"] != owner)
    lines.append("Moira: depot first response looked " + ("much better." if missed <= len(hh) // 4 else
                                                           "no better than usual."))
    return {"feedback": "\n".join(lines), "facts": sorted(set(facts)), "topics": topics,
            "stats": {"handheld_tickets": len(hh), "handheld_in_owner_queue": len(hh) - missed,
                      "wasted_pages": pages, "lost_user_hours": out["details"]["lost_user_hours"]},
            "extra_cost": 0.0}
