"""One trial day for helpdesk_tutorial: intake is mirrored to a shadow queue for a day and the
people who watch it say what they saw, naming the tickets (never the answer key)."""

from __future__ import annotations

from datetime import timedelta

from fdegym_env.tasklib import evaluation

from . import grader, sim

SHOWN = 5       # tickets named per line; the rest are counted


def _clip(text: str, n: int) -> str:
    s = " ".join(text.replace('"', "'").split())
    return s if len(s) <= n else s[:n - 3] + "..."


def _named(ids: list[str], note: dict[str, str] | None = None) -> str:
    """'INC0042403, INC0042407' or, past SHOWN, 'INC.., ... (5 of 11 shown)'; with ``note``, each
    ticket's note (its text, or why it was slow) follows its number."""
    def one(i: str) -> str:
        return i if note is None else f"{i} {note.get(i, '')}".rstrip()
    return ", ".join(one(i) for i in ids[:SHOWN]) + (f" ({SHOWN} of {len(ids)} shown)" if len(ids) > SHOWN else "")


def _texts(traffic: dict) -> dict[str, str]:
    """Ticket -> its subject and the start of its body, as the shadow queue shows them: enough to see
    which words a rule missed."""
    return {v["id"]: f'"{_clip(v["subject"], 45)}" / "{_clip(v["body"], 70)}"'
            for week in traffic["weeks"] for v in week}


TEAM = {"field_ops": "Depot IT", "vendor_korvex": "Korvex"}


def _after_hours(r: dict) -> bool:
    """Raised while the queue it went to was closed (its calendar, e.g. Korvex 07:00-20:00 Mon-Sat)."""
    opened = sim.parse_ts(r["opened"])
    return sim.CAL[r["queue"]].next_open(opened) > opened


def _why_slow(r: dict) -> str:
    """What the team saw of a slow ticket: when it was opened, at what priority, when it was fixed, and
    when it came in while the team was closed, when they open (a wait that the priority may not change)."""
    opened = sim.parse_ts(r["opened"])
    fixed = opened + timedelta(hours=r["hours"])
    closed = ""
    if _after_hours(r):
        team = TEAM.get(r["queue"], r["queue"])
        closed = f", {team} closed till {sim.CAL[r['queue']].next_open(opened):%H:%M}"
    return f"(opened {opened:%a %H:%M} at {r['priority']}, fixed {fixed:%a %H:%M}{closed})"


def _slow_note(rows: list[dict], slow: list[str]) -> str:
    """For a team with no on-call: how many slow tickets only waited for the team to open, which no
    route or priority changes."""
    late = [r for r in rows if r["id"] in slow and _after_hours(r)]
    if not late or not rows or rows[0]["queue"] in sim.ONCALL:
        return ""
    team = TEAM.get(rows[0]["queue"], rows[0]["queue"])
    which = ("raised while" if len(slow) == 1 else "all raised while" if len(late) == len(slow)
             else f"{len(late)} of them raised while")
    return (f" - {which} {team} was closed: {team} has no on-call, so "
            f"{'it waits' if len(late) == 1 else 'those wait'} for the morning whatever the route or priority")


def _n(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


def _incident_report(incidents: list[str], unrouted: list[str]) -> str:
    """One line per kind of incident, its count first, the tickets named."""
    outages = [i.partition(": ")[2].split(" ")[0] for i in incidents if i.startswith("site_outage_not_paged: ")]
    other = [i for i in incidents if not i.startswith("site_outage_not_paged: ")]
    lines = []
    if outages:
        lines.append(f"Network on-call: {len(outages)} site outage ticket(s) today and nobody paged us at P1 "
                     f"({_named(outages)}). A DC down with nobody woken is exactly what R10 is there to stop.")
    if unrouted:
        lines.append(f"Priya: the shadow intake fell over today - {len(unrouted)} ticket(s) came out of the router "
                     f"without a queue and priority we could use ({_named(unrouted)}). In production that would "
                     "have been tickets nobody sees.")
    elif other:
        lines.append(f"Priya: the shadow intake fell over today - {len(other)} problem(s) ({'; '.join(other)}). In "
                     "production that would have been tickets nobody sees.")
    return "\n".join(lines)


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    if out["incidents"]:
        return {"feedback": _incident_report(out["incidents"], out["_unrouted"]), "facts": [],
                "topics": ["trial_incident"], "stats": out["details"], "extra_cost": 0.0}
    subject = _texts(traffic)
    hh = [r for r in out["_routed"] if r["kind"] == "scanner"]
    owner = params["owner_queue"]
    lines = [f"Shadow intake, {traffic.get('day', 'today')}: {len(out['_routed'])} tickets, {len(hh)} of them "
             "about RT7 handhelds."]
    facts, topics = [], []
    at = {}
    for r in hh:
        at.setdefault(r["queue"], []).append(r)
    for q, rows in sorted(at.items()):
        ids = [r["id"] for r in rows]
        if q == owner:
            slow = [r["id"] for r in rows if r["hours"] > 4]
            who = "Tomasz" if q == "field_ops" else "Korvex's daily report"
            lines.append(f"{who}: {len(rows)} RT7 ticket(s) came straight to the team that fixes them "
                         f"({_named(ids)}); {len(slow)} still took more than 4 hours"
                         + (f" ({_named(slow, {r['id']: _why_slow(r) for r in rows})}){_slow_note(rows, slow)}."
                            if slow else "."))
        elif q == "field_ops":
            lines.append(f"Tomasz: {len(rows)} RT7 ticket(s) came to us and there's nothing we can do with them "
                         f"any more ({_named(ids, subject)}) - forwarded each one, they went to the back of the "
                         "next queue.")
            facts.append("F_owner")
        elif q == "service_desk":
            lines.append(f"Priya: {len(rows)} RT7 ticket(s) landed with L1 again ({_named(ids, subject)}); we can't "
                         "see them in MDM, so they sat until someone reassigned them.")
        else:
            lines.append(f"{q} team: {len(rows)} ticket(s) about handhelds ended up with us by mistake and were "
                         f"passed on ({_named(ids, subject)}).")
    strays = [r for r in out["_routed"] if r["kind"] == "mfp" and r["queue"] in ("field_ops", "vendor_korvex")]
    if strays:
        who = "Tomasz" if strays[0]["queue"] == "field_ops" else "Korvex's daily report"
        lines.append(f"{who}: {len(strays)} ticket(s) came our way about the copiers at head office "
                     f"({_named([r['id'] for r in strays], subject)}) - nothing to do with handhelds, sent back "
                     "to the desk.")
    night = [r for r in hh if int(r["opened"][11:13]) >= 22 or int(r["opened"][11:13]) < 6]
    if night:
        stuck = [r["id"] for r in night if r["hours"] > 4]
        lines.append(f"Shona: {_n(len(night), 'of those was', 'of those were')} raised on nights "
                     f"({_named([r['id'] for r in night])}); {_n(len(stuck), 'of them wasn', 'of them weren')}'t "
                     "sorted till the morning" + (f" ({_named(stuck)})." if stuck else "."))
    pages = out["details"]["wasted_pages"]
    if pages:
        paged = [r["id"] for r in out["_routed"] if r["wasted_page"]]
        lines.append(f"Graham's pager report: {pages} page(s) that day he'd call wasted - woke people for "
                     f"things that weren't stoppages or weren't theirs ({_named(paged)}).")
    missed = sum(1 for r in hh if r["queue"] != owner)
    lines.append("Moira: depot first response looked " + ("much better." if missed <= len(hh) // 4 else
                                                           "no better than usual."))
    return {"feedback": "\n".join(lines), "facts": sorted(set(facts)), "topics": topics,
            "stats": {"handheld_tickets": len(hh), "handheld_in_owner_queue": len(hh) - missed,
                      "wasted_pages": pages, "lost_user_hours": out["details"]["lost_user_hours"]},
            "extra_cost": 0.0}
