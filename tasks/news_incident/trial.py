"""One trial day: the current system/ runs in shadow on a day of wire traffic, and the people who
would have noticed say what they saw. Evidence, never the answer key."""

from __future__ import annotations

import datetime as dt

from fdegym_env.tasklib import evaluation

from . import grader

AGENCY = {"UKNS": "UKNS", "MRD": "Meridian", "KNA": "Kestrel"}


STAGE = {"arrest": "arrest", "charge": "charge", "court-hearing": "first hearing", "trial": "trial",
         "verdict": "verdict", "sentencing": "sentencing", "appeal": "appeal", "inquest": "inquest", "other": "other"}

SHOWN = 3       # examples named per kind of miss; the rest are counted


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _named(misses: list, show) -> str:
    """Every miss of one kind by its wire ID: ': a; b; c' or, past SHOWN, ': a; b; c (3 of 11 shown)'."""
    if not misses:
        return ""
    shown = "; ".join(show(m) for m in misses[:SHOWN])
    return ": " + shown + (f" ({SHOWN} of {len(misses)} shown)" if len(misses) > SHOWN else "")


def _agency(m: dict) -> str:
    return AGENCY.get(m["agency"], m["agency"])


def _killed(k: dict) -> str:
    how = "still up at the end of the day" if k["minutes"] is None else f"up {k['minutes']} minutes after the kill"
    return f"{_agency(k)} withdrew '{k['slug']}' ({k['guid']}), {how}"


def _embargo(e: dict) -> str:
    return f"{_agency(e)} '{e['slug']}' ({e['guid']}) live at {e['live']} UTC, embargo {e['embargo']} UTC"


def _legal(g: dict) -> str:
    return f"{_agency(g)} '{g['slug']}' ({g['guid']}), {'names the defendant' if g.get('named') else 'nobody named'}"


def _stale(s: dict) -> str:
    return f"{_agency(s)} '{s['slug']}' (correction {s['guid']})"


def _first(outcomes: dict, *names: str):
    """(name, first entry) of the first of ``names`` whose group has one; (None, None) when all are empty."""
    return next(((n, outcomes[n][0]) for n in names if outcomes[n]), (None, None))


def _eg(label: str | None, text: str | None) -> str:
    """An example, named by the count it belongs to, so it is never read as one of a count of 0."""
    return f" (one {label}: {text})" if label and text else ""


def _tally(t: dict, d: dict) -> list[str]:
    """The day in the score's own terms (docs/metrics.md): how many stories went each way, with one example
    each - one that went right where there is one (the people below name what went wrong), a late one first."""
    n = {k: {o: len(v) for o, v in outcomes.items()} for k, outcomes in t.items()}

    def name(e: dict) -> str:
        return f"{_agency(e)} '{e['slug']}' ({e['guid']})"

    out, k, m, c, g = n["out"], n["kills"], n["embargo"], n["corrections"], n["legal"]
    held = sum(d.get("examples", {}).get("desk_days", {}).values())
    which, e = _first(t["out"], "late", "on_time")
    stories = (f"  stories: {out['on_time']} out on time, {out['late']} out late, {out['desk']} out from the Held "
               f"queue, {out['never']} never out"
               + _eg({"late": "out late", "on_time": "out on time"}.get(which),
                     e and f"{name(e)} out {max(0, e['minutes'])} min after it arrived or its embargo lifted"))
    which, e = _first(t["kills"], "within_hour", "not_up")
    if e:
        kill = f"{name(e)}, " + (f"down {e['minutes']} min after the kill" if "minutes" in e else
                                 "not up when the kill came")
    else:
        which, kill = ("over_hour", _killed(t["kills"]["over_hour"][0])) if t["kills"]["over_hour"] else (None, None)
    kills = (f"  kills: {_count(sum(k.values()), 'story', 'stories')} withdrawn by their agency: {k['over_hour']} "
             f"still up more than an hour after the kill, {k['within_hour']} taken down within the hour, "
             f"{k['not_up']} not up when the kill came"
             + _eg({"over_hour": "still up", "within_hour": "taken down", "not_up": "not up"}.get(which or ""), kill))
    which, e = _first(t["embargo"], "at_or_after", "before")
    embargoes = (f"  embargoes: {_count(sum(m.values()), 'embargoed story', 'embargoed stories')} out: "
                 f"{m['before']} before the embargo lifted, {m['at_or_after']} at or after it"
                 + _eg({"before": "out before", "at_or_after": "out at or after"}.get(which or ""), e and _embargo(e)))
    which, e = _first(t["corrections"], "applied", "second_story", "not_applied", "moot")
    fixes = (f"  corrections: {_count(sum(c.values()), 'corrected version', 'corrected versions')}: "
             f"{c['applied']} applied to their story, {c['second_story']} run as a second story beside the old one, "
             f"{c['not_applied']} not applied while the old text was out, {c['moot']} for a story that was not out"
             + _eg({"applied": "applied", "second_story": "run as a second story", "not_applied": "not applied",
                    "moot": "for a story not out"}.get(which or ""), e and _stale(e)))
    which, e = _first(t["legal"], "reviewed", "unreviewed")    # never one nobody saw
    legal = (f"  legal: {_count(g['reviewed'], 'court or crime story', 'court or crime stories')} out after legal "
             f"review, {g['unreviewed']} out without it"
             + _eg({"reviewed": "reviewed", "unreviewed": "out without review"}.get(which or ""), e and name(e)))
    which, e = _first(t["out"], "desk")
    queue = (f"  Held queue: {_count(held, 'story', 'stories')} held, {d.get('overflow', 0)} of them stale unread"
             + _eg(which and "from the queue", e and name(e)))
    other = (f"  other: {d.get('advisories_published', 0)} agency notices published as stories, "
             f"{d.get('wrong_unpublish', 0)} live stories taken down or written over with no kill from the agency")
    return ["The day in the publishing-quality terms (docs/metrics.md):", stories, kills, embargoes, fixes, legal,
            queue, other]


def run(deploy, params: dict, day: int, traffic) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    d, misses = out["details"], out["_misses"]
    items = {it["guid"]: it for day_ in traffic["days"] for it in day_["items"]}

    def story(guid: str) -> str:
        it = items.get(guid, {})
        return f"{AGENCY.get(it.get('agency'), it.get('agency', ''))} '{it.get('slug', guid)}' ({guid})".lstrip()

    def overwrite(w: dict) -> str:
        return f"{story(w['by'])} over '{items.get(w['guid'], {}).get('slug', w['guid'])}'"

    date = dt.date.fromisoformat(traffic["days"][0]["date"]) if traffic["days"] else None
    lines = [f"Shadow run{f', {date:%a %d %b}' if date else ''}: a day of live wire ({d.get('stories', 0)} agency "
             f"stories) through the current ingest, nothing published."]
    lines += _tally(out["_tally"], d)
    told = len(lines)
    n_kill, n_emb, n_legal = d.get("killed_exposed", 0), d.get("embargo_broken", 0), d.get("legal_autopublished", 0)
    if n_kill:
        lines.append(f"- Niamh (nights): {_count(n_kill, 'withdrawn story', 'withdrawn stories')} stayed up more than "
                     f"an hour after the agency's kill{_named(misses['killed_live'], _killed)}. Nobody would "
                     f"have known unless they were watching the raw wire.")
    if n_emb:
        lines.append(f"- Tomasz (wire desk): {_count(n_emb, 'embargoed story', 'embargoed stories')} would have gone "
                     f"live before the agency's embargo lifted{_named(misses['embargo_broken'], _embargo)}.")
    if n_legal:
        by_stage: dict[str, list] = {}
        for g in misses["legal"]:
            by_stage.setdefault(g.get("stage") or "other", []).append(g)
        unnamed = d.get("legal_unnamed", 0)
        lines.append(f"- Harriet (legal): {_count(n_legal, 'court or crime story', 'court or crime stories')} would "
                     f"have gone out without coming to me ("
                     + ", ".join(f"{len(gs)} {STAGE.get(s, s)}" for s, gs in sorted(by_stage.items()))
                     + (f"; {unnamed} of them {'names' if unnamed == 1 else 'name'} nobody" if unnamed else "")
                     + f"). I'd have wanted to see {'that one' if n_legal == 1 else 'every one of them'} first.")
        for s, gs in sorted(by_stage.items()):
            lines.append(f"    {STAGE.get(s, s)}{_named(gs, _legal)}")
    n_stale = d.get("stale_corrections", 0)
    if n_stale:
        lines.append(f"- Ashok (day desk): readers emailed about {_count(n_stale, 'story', 'stories')} where the "
                     f"agency had sent a corrected version but the old text is what was on the site"
                     f"{_named(misses['stale'], _stale)}.")
    wrong = misses["wrong_unpublish"]
    gone = [w["guid"] for w in wrong if w["how"] == "unpublished"]
    over = [w for w in wrong if w["how"] == "overwritten"]
    if gone:
        lines.append(f"- Ashok (day desk): {_count(len(gone), 'story', 'stories')} vanished from the site and "
                     f"nobody here pulled {'it' if len(gone) == 1 else 'them'}. The agencies hadn't withdrawn "
                     f"{'it' if len(gone) == 1 else 'them'}{_named(gone, story)}.")
    if over:
        lines.append(f"- Ashok (day desk): {_count(len(over), 'update', 'updates')} went over a live "
                     f"story {'it does' if len(over) == 1 else 'they do'} not belong to"
                     f"{_named(over, overwrite)}.")
    held = max(d.get("examples", {}).get("desk_days", {}).values(), default=0)
    cap = int(params["desk_capacity"])
    if held > cap:
        lines.append(f"- Kofi (nights): the Held queue got {held} stories; we'd have cleared about {cap}. "
                     f"The rest would have been binned stale in the morning.")
    elif held:
        lines.append(f"- Kofi (nights): {held} held stories in the queue; manageable.")
    if d.get("advisories_published"):
        lines.append(f"- Ashok: {_count(d['advisories_published'], 'agency notice', 'agency notices')} went up on "
                     f"the site as if {'it were a story' if d['advisories_published'] == 1 else 'they were stories'}"
                     f"{_named(misses['advisories'], story)}.")
    if len(lines) == told:
        lines.append("- Quiet day. Nothing came back to the desk, legal or the wire desk.")
    if any(i.startswith("malformed_output") for i in out["incidents"]):
        lines.append("- Platform team: cms-bridge rejected the ingest's output for that run (not one decision per item).")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [],
            "stats": {k: d.get(k) for k in ("stories", "published_on_time", "held", "killed_exposed",
                                            "embargo_broken", "legal_autopublished", "overflow")},
            "extra_cost": 0.0}
