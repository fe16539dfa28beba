"""One trial day: the current system/ runs in shadow on a day of wire traffic, and the people who
would have noticed say what they saw. Evidence, never the answer key."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader

AGENCY = {"UKNS": "UKNS", "MRD": "Meridian", "KNA": "Kestrel"}


def run(deploy, params: dict, day: int, traffic) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    d = out["details"]
    ex = d.get("examples", {})
    lines = [f"Shadow run: a day of live wire ({d.get('stories', 0)} agency stories) through the current ingest, nothing published."]
    for k in ex.get("killed_live", [])[:2]:
        how = "was still up when I left" if k["minutes"] is None else f"stayed up {k['minutes']} minutes"
        lines.append(f"- Niamh (nights): {AGENCY.get(k['agency'], k['agency'])} withdrew '{k['slug']}' and in "
                     f"shadow it {how}. Nobody would have known unless they were watching the raw wire.")
    for e in ex.get("embargo_broken", [])[:2]:
        lines.append(f"- Tomasz (wire desk): {AGENCY.get(e['agency'], e['agency'])} copy '{e['slug']}' would have "
                     f"gone live at {e['live']} UTC; the agency's embargo notice says it lifts at {e['embargo']} UTC.")
    for g in ex.get("legal", [])[:2]:
        lines.append(f"- Harriet (legal): '{g['slug']}' ({g['guid']}) would have gone out without coming to me. "
                     f"I'd have wanted to see that one first.")
    if ex.get("stale"):
        lines.append(f"- Ashok (day desk): readers emailed about '{ex['stale'][0]}' - the agency had sent a corrected "
                     f"version but the old text is what was on the site"
                     + (f", and {len(ex['stale']) - 1} more like it." if len(ex["stale"]) > 1 else "."))
    if ex.get("wrong_unpublish"):
        lines.append(f"- Ashok (day desk): {len(ex['wrong_unpublish'])} stories vanished from the site and "
                     f"nobody here pulled them. The agencies hadn't withdrawn them.")
    held = max(ex.get("desk_days", {}).values(), default=0)
    cap = int(params["desk_capacity"])
    if held > cap:
        lines.append(f"- Kofi (nights): the Held queue got {held} stories; we'd have cleared about {cap}. "
                     f"The rest would have been binned stale in the morning.")
    elif held:
        lines.append(f"- Kofi (nights): {held} held stories in the queue; manageable.")
    if d.get("advisories_published"):
        lines.append(f"- Ashok: {d['advisories_published']} agency notices went up on the site as if they were stories.")
    if len(lines) == 1:
        lines.append("- Quiet day. Nothing came back to the desk, legal or the wire desk.")
    if any(i.startswith("malformed_output") for i in out["incidents"]):
        lines.append("- Platform team: cms-bridge rejected the ingest's output for that run (not one decision per item).")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [],
            "stats": {k: d.get(k) for k in ("stories", "published_on_time", "held", "killed_exposed",
                                            "embargo_broken", "legal_autopublished", "overflow")},
            "extra_cost": 0.0}
