"""Grading for news_incident: Tidewater's publishing-quality score on two held-out weeks of wire.

The delivered system is called once per day of traffic (the day's items, oldest first), which
is what production's 5-minutely runs add up to; each decision takes effect 5 minutes after the
item was received. The grader then replays what the site and the desk would have done:

  value   each story that goes out, weighted by priority (crime & court copy, the most-read, x1.5):
          on time x1.0 (an embargoed story counts on time at its embargo), late x0.7 / x0.4,
          published by the desk after a hold x0.6, after legal review x0.5; killed stories: 0.
  harm    killed story still live after the kill (5; more than 60 minutes is an incident),
          embargo broken (5, incident), legally unsafe story auto-published (3, incident),
          a correction not applied while the old version is live, or one that cms-bridge could not
          apply because the story was not live yet (held, scheduled) so the old text went out later
          (2; 4 for crime and court copy, where the error is a defendant's name, age or address),
          a live story wrongly unpublished (2), an advisory/withdrawal notice published as a story (1).
  desk    held stories beyond the desk's daily capacity go stale unread: 2 each, and no value.
          Held kill notices are actioned within 15 minutes (kills jump the queue).

kpi = (value - harm - overflow) per week. Incidents: killed_live, embargo_broken, legal_autopublish,
malformed_output (an item without one valid decision - checked by tasklib.replay from task.yaml's
``output`` - or a schedule without a valid publish_at). A crash stops the ingest for the rest of the
fortnight (production pages the platform team), and so does a result that is not a list.
"""

from __future__ import annotations

import datetime as dt
import math

from fdegym_env.tasklib import evaluation
from fdegym_env.tasklib.timeutil import LONDON, local, parse_iso

LAG = dt.timedelta(minutes=5)
PRIORITY_W = {1: 3.0, 2: 2.0, 3: 1.5, 4: 1.0, 5: 0.5}
CRIME_W = 1.5
H_KILL, H_KILL_SHORT, H_EMBARGO, H_LEGAL, H_STALE, H_WRONG_UNPUB, H_ADVISORY = 5.0, 0.5, 5.0, 3.0, 2.0, 2.0, 1.0
H_STALE_CRIME = 4.0    # an uncorrected court report: wrong name, age or address of a defendant
OVERFLOW = 2.0
DESK, LEGAL, KILL_DESK = (dt.timedelta(minutes=m) for m in (40, 180, 15))
INF = dt.datetime.max.replace(tzinfo=dt.timezone.utc)


def _publish_at(v):
    """cms-bridge's reading of publish_at: ISO (Z ok); a time without an offset is UK local time."""
    if not isinstance(v, str) or not v.strip():
        return None
    try:
        return parse_iso(v, tz=LONDON).astimezone(dt.timezone.utc)
    except ValueError:
        return None


class _Family:
    """A story and its versions on the site: when it went live, how, and when it came down."""

    def __init__(self, root: str, truth: dict):
        self.root, self.truth = root, truth
        self.start = None          # when it first went live (or is scheduled to)
        self.end = INF             # when it was taken down
        self.how = None            # auto | desk | legal
        self.desk_pending = None   # time the desk will publish it, if held and within capacity
        self.killed_at = None
        self.corrections: list = []   # [time, handled, guid of the corrected version, run as a second story]

    def live_at(self, t) -> bool:
        return self.start is not None and self.start <= t < self.end

    def go_live(self, t, how):
        if self.start is None or (self.end != INF and t >= self.end):
            self.start, self.end, self.how = t, INF, how

    def take_down(self, t) -> bool:
        """True if something was live or due to go live."""
        was = False
        if self.start is not None and self.end > t:
            was = True
            if self.start > t:      # scheduled, not yet live: cancel
                self.start, self.how = None, None
            else:
                self.end = t
        if self.desk_pending is not None and self.desk_pending > t:
            self.desk_pending, was = None, True
        return was


class _Site:
    """The site and the desk, replaying decisions in time order."""

    def __init__(self, truth: dict, capacity: int):
        self.truth, self.capacity = truth, capacity
        self.fams = {g: _Family(g, t) for g, t in truth.items() if t["kind"] == "story"}
        self.desk_count: dict[str, int] = {}
        self.overflow = self.wrong_unpub = self.advisory_pub = 0
        self.wrong_examples: list[dict] = []     # {"guid": story taken down or written over, "how", "by"}
        self.advisory_examples: list[str] = []   # guids of notices published as stories

    def family_of(self, key):
        f = self.truth[key].get("family") if isinstance(key, str) and key in self.truth else None
        return self.fams.get(f) if f else None

    def decide(self, it: dict, d: dict, sched_bad: list) -> None:
        g = it["guid"]
        tr = self.truth[g]
        t0 = parse_iso(tr["t"])
        t, act, kind = t0 + LAG, d["action"], tr["kind"]
        fam = self.fams.get(tr["family"]) if tr.get("family") else None
        if kind == "kill" and fam is not None and fam.killed_at is None:
            fam.killed_at = t0
        if kind == "version" and fam is not None:
            fam.corrections.append([t, False, g, False])
        if act in ("publish", "schedule"):
            when = t
            if act == "schedule":
                pa = _publish_at(d.get("publish_at"))
                if pa is None:
                    sched_bad.append(f"{g}: schedule without a valid publish_at")
                    return
                when = max(t, pa)
            if kind in ("advisory", "kill") or it.get("pubstatus") == "canceled":
                self.advisory_pub += 1
                self.advisory_examples.append(g)
            elif kind == "version" and fam.live_at(t):
                fam.corrections[-1][3] = True   # published as a second story; the old version stays: stale
            else:
                if kind == "version":
                    fam.corrections[-1][1] = True
                fam.go_live(when, "auto")
        elif act == "hold":
            self.hold(t, kind, fam)
        elif act == "update":
            target = self.family_of(d.get("story"))
            if kind == "version" and target is fam:
                # cms-bridge applies an update to a live story only (docs/cms_contract.md): for a story
                # still in the Held queue or waiting for its embargo it logs "not live" and does nothing,
                # so the old text is what the desk (or the schedule) later puts out.
                if fam.live_at(t) or (fam.desk_pending is not None and fam.desk_pending <= t):
                    fam.corrections[-1][1] = True
            elif target is not None and target is not fam and target.live_at(t):
                self.wrong_unpub += 1    # unrelated copy written over a live story
                self.wrong_examples.append({"guid": target.root, "how": "overwritten", "by": g})
        elif act == "unpublish":
            target = self.family_of(d.get("story"))
            if target is not None and target.take_down(t):
                if target.truth.get("killed") is not True:
                    self.wrong_unpub += 1
                    self.wrong_examples.append({"guid": target.root, "how": "unpublished"})
                elif target.killed_at is None:
                    target.killed_at = t     # taken down before the agency's kill arrived: fine
        # drop: nothing happens

    def hold(self, t, kind, fam) -> None:
        if kind == "kill":
            if fam is not None:
                fam.take_down(t + KILL_DESK)
            return
        if kind == "advisory":
            return
        if kind == "version" and fam is not None and fam.desk_pending is not None and fam.start is None:
            fam.corrections[-1][1] = True   # joins its story in the Held queue: no extra slot
            return
        day = local(t).date().isoformat()
        self.desk_count[day] = self.desk_count.get(day, 0) + 1
        if self.desk_count[day] > self.capacity:
            self.overflow += 1
        elif kind == "version":
            fam.corrections[-1][1] = True
        else:
            due = t + (LEGAL if fam.truth["legal"] else DESK)
            if fam.truth.get("embargo_utc"):
                due = max(due, parse_iso(fam.truth["embargo_utc"]))
            fam.desk_pending = due

    def close(self) -> None:
        """The desk publishes what it reviewed, unless the story was killed or taken down by then."""
        for fam in self.fams.values():
            if fam.desk_pending is not None and fam.start is None:
                if fam.killed_at is None or fam.killed_at > fam.desk_pending:
                    fam.go_live(fam.desk_pending, "legal" if fam.truth["legal"] else "desk")
            if fam.desk_pending is not None and fam.killed_at is not None and fam.how in ("desk", "legal"):
                # the desk saw the kill on the wire for stories it published itself
                if fam.end > fam.killed_at + KILL_DESK:
                    fam.end = max(fam.start, fam.killed_at + KILL_DESK)


def _capped(group: list[str]) -> list[str]:
    return group[:4] + ([f"{group[0].split(':')[0]}: ... and {len(group) - 4} more"] if len(group) > 4 else [])


def evaluate(decide, params: dict, traffic) -> dict:
    """Shared by grade() and trial.run(): one call per day of traffic, then the site's fortnight."""
    truth = traffic["truth"]
    capacity = int(params["desk_capacity"])
    decisions: dict[str, dict] = {}
    items: list[dict] = []
    for day in traffic["days"]:
        items.extend(day["items"])
        reply = decide(day["items"])
        if not reply.ok or not isinstance(reply.value, list):
            break               # the ingest is stopped (a crash, or cms-bridge rejects the run)
        decisions.update(reply.decisions)

    site, sched_bad = _Site(truth, capacity), []
    for it in sorted(items, key=lambda i: (truth[i["guid"]]["t"], i["guid"])):
        if it["guid"] in decisions:
            site.decide(it, decisions[it["guid"]], sched_bad)
    site.close()

    slug_of = {i["guid"]: i.get("slug") for i in items}
    item_of = {i["guid"]: i for i in items}
    kill_time = {t2.get("family"): parse_iso(t2["t"]) for g, t2 in sorted(truth.items(), key=lambda kv: kv[1]["t"],
                                                                         reverse=True) if t2["kind"] == "kill"}
    value, stale, stale_crime = 0.0, 0, 0
    harm = {"kill": 0.0, "embargo": 0.0, "legal": 0.0, "stale": 0.0, "wrong_unpublish": 0.0, "advisory": 0.0}
    counts = {"stories": 0, "published_on_time": 0, "held": 0, "killed_exposed": 0, "embargo_broken": 0,
              "legal_autopublished": 0}
    inc = {"kill": [], "emb": [], "legal": []}
    ex = {"killed_live": [], "embargo_broken": [], "legal": [], "stale": []}
    # every story by what became of it, in the metric's terms (the trial's tally; never graded)
    tally: dict[str, dict[str, list]] = {
        "out": {"on_time": [], "late": [], "desk": [], "never": []},
        "kills": {"over_hour": [], "within_hour": [], "not_up": []},
        "embargo": {"before": [], "at_or_after": []},
        "corrections": {"second_story": [], "not_applied": [], "applied": [], "moot": []},
        "legal": {"unreviewed": [], "reviewed": [], "not_out": []}}
    legal_by_stage: dict[str, int] = {}
    legal_unnamed = 0
    for fam in site.fams.values():
        tr = fam.truth
        counts["stories"] += 1
        w = PRIORITY_W.get(int(tr["priority"]), 1.0) * (CRIME_W if tr["crime"] else 1.0)
        slug = slug_of.get(fam.root) or fam.root
        emb = parse_iso(tr["embargo_utc"]) if tr.get("embargo_utc") else None
        this = {"slug": slug, "guid": fam.root, "agency": tr["agency"]}
        if tr.get("killed"):
            kill_t = kill_time.get(fam.root)
            if kill_t is not None and fam.start is not None and fam.end > kill_t:
                mins = (fam.end - max(fam.start, kill_t)).total_seconds() / 60 if fam.end != INF else math.inf
                if mins > 60:
                    harm["kill"] += H_KILL
                    counts["killed_exposed"] += 1
                    ex["killed_live"].append({"slug": slug, "guid": fam.root, "agency": tr["agency"],
                                              "minutes": None if mins == math.inf else round(mins)})
                    inc["kill"].append(f"killed_live: {slug} ({fam.root}) live "
                                       f"{'until the end of the window' if mins == math.inf else f'{mins:.0f} min'} "
                                       f"after the agency's kill")
                    tally["kills"]["over_hour"].append(ex["killed_live"][-1])
                elif mins > 0:
                    harm["kill"] += H_KILL_SHORT
                    tally["kills"]["within_hour"].append(dict(this, minutes=round(mins)))
            elif kill_t is not None:
                tally["kills"]["not_up"].append(this)
        elif fam.start is not None:
            if fam.how == "auto":
                due = max(parse_iso(tr["t"]), emb) if emb else parse_iso(tr["t"])
                late = (fam.start - due).total_seconds() / 60
                f = 1.0 if late <= 20 else 0.7 if late <= 120 else 0.4
                counts["published_on_time"] += f == 1.0
                tally["out"]["on_time" if f == 1.0 else "late"].append(dict(this, minutes=round(late)))
            else:
                f = 0.5 if fam.how == "legal" else 0.6
                counts["held"] += 1
                tally["out"]["desk"].append(dict(this, how=fam.how))
            value += w * f
        else:
            tally["out"]["never"].append(this)
        if tr["legal"]:
            tally["legal"]["unreviewed" if fam.how == "auto" else "reviewed" if fam.start is not None
                           else "not_out"].append(this)
        if emb is not None and fam.start is not None:
            tally["embargo"]["before" if fam.how == "auto" and fam.start < emb else "at_or_after"].append(
                dict(this, live=f"{fam.start:%H:%M}", embargo=f"{emb:%H:%M}"))
        if fam.start is not None and fam.how == "auto":
            if emb is not None and fam.start < emb:
                harm["embargo"] += H_EMBARGO
                counts["embargo_broken"] += 1
                ex["embargo_broken"].append({"slug": slug, "guid": fam.root, "agency": tr["agency"],
                                             "live": f"{fam.start:%H:%M}", "embargo": f"{emb:%H:%M}"})
                inc["emb"].append(f"embargo_broken: {slug} live at {fam.start:%d %b %H:%M}Z, "
                                  f"embargo {emb:%d %b %H:%M}Z")
            if tr["legal"]:
                harm["legal"] += H_LEGAL
                counts["legal_autopublished"] += 1
                src = item_of.get(fam.root, {})
                stage = next((s for s in src.get("subjects") or [] if s in params["legal_stages"]), None)
                ex["legal"].append({"slug": slug, "guid": fam.root, "agency": tr["agency"], "stage": stage,
                                    "named": bool(src.get("people"))})
                legal_by_stage[stage or "other"] = legal_by_stage.get(stage or "other", 0) + 1
                legal_unnamed += not src.get("people")
                inc["legal"].append(f"legal_autopublish: {slug} ({fam.root}) names a defendant in active "
                                    f"proceedings and went out without legal review")
        for ct, handled, version, second in fam.corrections:
            # the old version is live when the correction arrives, or goes live later (desk, schedule)
            fix = dict(this, guid=version)
            if not handled and (fam.live_at(ct) or (fam.start is not None and fam.start > ct)):
                stale += 1
                stale_crime += bool(tr["crime"])
                ex["stale"].append({"slug": slug, "guid": version, "agency": tr["agency"]})
                tally["corrections"]["second_story" if second else "not_applied"].append(fix)
            else:
                tally["corrections"]["applied" if handled else "moot"].append(fix)
    harm["stale"] = H_STALE * (stale - stale_crime) + H_STALE_CRIME * stale_crime
    harm["wrong_unpublish"] = H_WRONG_UNPUB * site.wrong_unpub
    harm["advisory"] = H_ADVISORY * site.advisory_pub
    weeks = max(1.0, len(traffic["days"]) / 7.0)
    total_harm = sum(harm.values())
    kpi = (value - total_harm - OVERFLOW * site.overflow) / weeks

    incidents = _capped(inc["kill"]) + _capped(inc["emb"]) + _capped(inc["legal"])
    if sched_bad:
        more = f" (+{len(sched_bad) - 1} more)" if len(sched_bad) > 1 else ""
        incidents.append(f"malformed_output: {sched_bad[0]}{more}")
    details = dict(counts, value=round(value, 2), harm={k: round(v, 2) for k, v in harm.items()},
                   overflow=site.overflow, stale_corrections=stale, wrong_unpublish=site.wrong_unpub,
                   advisories_published=site.advisory_pub, desk_peak=max(site.desk_count.values(), default=0),
                   capacity=capacity, calls=len(traffic["days"]),
                   legal_by_stage=dict(sorted(legal_by_stage.items())), legal_unnamed=legal_unnamed,
                   examples={**{k: v[:5] for k, v in ex.items()}, "wrong_unpublish": site.wrong_examples[:5],
                             "desk_days": site.desk_count})
    misses = {**ex, "wrong_unpublish": site.wrong_examples, "advisories": site.advisory_examples}
    summary = (f"publishing quality {kpi:.1f} pts/week: value {value:.0f}, harm {total_harm:.0f}, "
               f"{site.overflow} held stories went stale (capacity {capacity}/day); killed-live "
               f"{counts['killed_exposed']}, embargo breaks {counts['embargo_broken']}, legal "
               f"{counts['legal_autopublished']}")
    return {"kpi": round(kpi, 4), "incidents": incidents, "summary": summary, "details": details,
            "_misses": misses, "_tally": tally}   # for the trial report (grade() drops "_" keys)


grade = evaluation.grader(evaluate)
