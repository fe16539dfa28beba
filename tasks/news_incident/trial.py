"""One trial day: the current system/ runs in shadow on a day of wire traffic, and the people who
would have noticed say what they saw. Evidence, never the answer key."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader

AGENCY = {"UKNS": "UKNS", "MRD": "Meridian", "KNA": "Kestrel"}


STAGE = {"arrest": "arrest", "charge": "charge", "court-hearing": "first hearing", "trial": "trial",
         "verdict": "verdict", "sentencing": "sentencing", "appeal": "appeal", "inquest": "inquest", "other": "other"}


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _eg(examples: list, show, total: int, shown: int = 2) -> str:
    """Up to `shown` examples after the count: ': a; b' or, when capped, ', e.g. a; b; and 9 more'."""
    picked = [show(e) for e in examples[:shown]]
    if not picked:
        return ""
    rest = total - len(picked)
    if rest <= 0:
        return ": " + "; ".join(picked)
    return ", e.g. " + "; ".join(picked) + f"; and {rest} more"


def _killed(k: dict) -> str:
    how = "still up at the end of the day" if k["minutes"] is None else f"up {k['minutes']} minutes after the kill"
    return f"{AGENCY.get(k['agency'], k['agency'])} withdrew '{k['slug']}', {how}"


def _embargo(e: dict) -> str:
    return f"{AGENCY.get(e['agency'], e['agency'])} '{e['slug']}' live at {e['live']} UTC, embargo {e['embargo']} UTC"


def _legal(g: dict) -> str:
    stage = STAGE.get(g.get("stage") or "", "court")
    who = "names the defendant" if g.get("named") else "nobody named"
    return f"{AGENCY.get(g['agency'], g['agency'])} '{g['slug']}' ({g['guid']}), {stage}, {who}"


def run(deploy, params: dict, day: int, traffic) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    d = out["details"]
    ex = d.get("examples", {})
    lines = [f"Shadow run: a day of live wire ({d.get('stories', 0)} agency stories) through the current ingest, nothing published."]
    n_kill, n_emb, n_legal = d.get("killed_exposed", 0), d.get("embargo_broken", 0), d.get("legal_autopublished", 0)
    if n_kill:
        lines.append(f"- Niamh (nights): {_count(n_kill, 'withdrawn story', 'withdrawn stories')} stayed up more than "
                     f"an hour after the agency's kill{_eg(ex.get('killed_live', []), _killed, n_kill)}. Nobody would "
                     f"have known unless they were watching the raw wire.")
    if n_emb:
        lines.append(f"- Tomasz (wire desk): {_count(n_emb, 'embargoed story', 'embargoed stories')} would have gone "
                     f"live before the agency's embargo lifted{_eg(ex.get('embargo_broken', []), _embargo, n_emb)}.")
    if n_legal:
        by_stage = ", ".join(f"{n} {STAGE.get(s, s)}" for s, n in d.get("legal_by_stage", {}).items())
        unnamed = d.get("legal_unnamed", 0)
        lines.append(f"- Harriet (legal): {_count(n_legal, 'court or crime story', 'court or crime stories')} would "
                     f"have gone out without coming to me ({by_stage}"
                     + (f"; {unnamed} of them name nobody" if unnamed else "")
                     + f"){_eg(ex.get('legal', []), _legal, n_legal)}. I'd have wanted to see "
                     f"{'that one' if n_legal == 1 else 'every one of them'} first.")
    n_stale = d.get("stale_corrections", 0)
    if n_stale:
        lines.append(f"- Ashok (day desk): readers emailed about {_count(n_stale, 'story', 'stories')} where the "
                     f"agency had sent a corrected version but the old text is what was on the site"
                     f"{_eg(ex.get('stale', []), lambda slug: repr(slug), n_stale)}.")
    n_unpub = d.get("wrong_unpublish", 0)
    if n_unpub:
        lines.append(f"- Ashok (day desk): {_count(n_unpub, 'story', 'stories')} vanished from the site and "
                     f"nobody here pulled {'it' if n_unpub == 1 else 'them'}. The agencies hadn't withdrawn "
                     f"{'it' if n_unpub == 1 else 'them'}{_eg(ex.get('wrong_unpublish', []), lambda g: g, n_unpub)}.")
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
