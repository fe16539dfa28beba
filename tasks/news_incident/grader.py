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
          a live story wrongly
          unpublished (2), an advisory/withdrawal notice published as a story (1).
  desk    held stories beyond the desk's daily capacity go stale unread: 2 each, and no value.
          Held kill notices are actioned within 15 minutes (kills jump the queue).

kpi = (value - harm - overflow) per week. Incidents: killed_live, embargo_broken, legal_autopublish,
malformed_output (a batch without exactly one valid decision per item).
"""

from __future__ import annotations

import datetime as dt
import math

ENTRY = ("wire_ingest.pipeline", "process_batch")
ACTIONS = {"publish", "schedule", "hold", "update", "unpublish", "drop"}
LAG = dt.timedelta(minutes=5)
PRIORITY_W = {1: 3.0, 2: 2.0, 3: 1.5, 4: 1.0, 5: 0.5}
CRIME_W = 1.5
H_KILL, H_KILL_SHORT, H_EMBARGO, H_LEGAL, H_STALE, H_WRONG_UNPUB, H_ADVISORY = 5.0, 0.5, 5.0, 3.0, 2.0, 2.0, 1.0
H_STALE_CRIME = 4.0    # an uncorrected court report: wrong name, age or address of a defendant
OVERFLOW = 2.0
DESK_MIN, LEGAL_MIN, KILL_DESK_MIN = 40, 180, 15
INF = dt.datetime.max.replace(tzinfo=dt.timezone.utc)
BST = dt.timezone(dt.timedelta(hours=1))


def _t(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s)


def _parse_when(v):
    if not isinstance(v, str) or not v.strip():
        return None
    s = v.strip()
    if s.endswith("Z"):
        s = s[:-1] + "+00:00"
    try:
        t = dt.datetime.fromisoformat(s)
    except ValueError:
        return None
    if t.tzinfo is None:       # the CMS reads a time without an offset as UK local time
        t = t.replace(tzinfo=BST)
    return t.astimezone(dt.timezone.utc)


class _Family:
    def __init__(self, root: str, truth: dict):
        self.root = root
        self.truth = truth
        self.start = None          # when it first went live (or is scheduled to)
        self.end = INF             # when it was taken down
        self.how = None            # auto | desk | legal
        self.desk_pending = None   # time the desk will publish it, if held and within capacity
        self.killed_at = None
        self.corrections: list = []   # (time, handled: bool)

    def live_at(self, t) -> bool:
        return self.start is not None and self.start <= t < self.end

    def go_live(self, t, how):
        if self.start is None or (self.end != INF and t >= self.end):
            self.start, self.end, self.how = t, INF, how

    def take_down(self, t) -> bool:
        """Returns True if something was live or due to go live."""
        was = False
        if self.start is not None and self.end > t:
            was = True
            if self.start > t:      # scheduled, not yet live: cancel
                self.start, self.how = None, None
            else:
                self.end = t
        if self.desk_pending is not None and self.desk_pending > t:
            self.desk_pending = None
            was = True
        return was


def grade(deploy, params: dict, traffic) -> dict:
    truth = traffic["truth"]
    capacity = int(params["desk_capacity"])
    incidents: list[str] = []
    malformed: list[str] = []
    decisions: dict[str, dict] = {}
    items: list[dict] = []
    for day in traffic["days"]:
        batch = day["items"]
        items.extend(batch)
        res = deploy.call(*ENTRY, batch, timeout_s=10)
        if not res.ok:
            # the framework records entry_point_failed (an incident); production would page the
            # platform team and stop the ingest, so the rest of the fortnight is not replayed
            break
        val = res.value
        if not isinstance(val, list):
            malformed.append(f"{day['date']}: result is {type(val).__name__}, not a list of decisions")
            break               # cms-bridge rejects the run; the ingest is stopped
        want = {it["guid"] for it in batch}
        got = {}
        for d in val:
            if not isinstance(d, dict) or d.get("guid") not in want or d.get("action") not in ACTIONS:
                malformed.append(f"{day['date']}: invalid decision {str(d)[:80]}")
                break
            got.setdefault(d["guid"], d)
        missing = want - set(got)
        if missing:
            malformed.append(f"{day['date']}: {len(missing)} of {len(want)} items without a decision")
        decisions.update(got)

    fams: dict[str, _Family] = {}
    for g, t in truth.items():
        if t["kind"] == "story":
            fams[g] = _Family(g, t)
    member = {g: t.get("family") for g, t in truth.items()}
    harm = {"kill": 0.0, "embargo": 0.0, "legal": 0.0, "stale": 0.0, "wrong_unpublish": 0.0, "advisory": 0.0}
    desk_count: dict[str, int] = {}
    overflow = 0
    stale = 0
    stale_crime = 0
    wrong_unpub = 0
    advisory_pub = 0
    examples = {"stale": [], "wrong_unpublish": []}

    def family_of(key):
        f = member.get(key) if isinstance(key, str) else None
        return fams.get(f) if f else None

    for it in sorted(items, key=lambda i: (truth[i["guid"]]["t"], i["guid"])):
        g = it["guid"]
        tr = truth[g]
        t = _t(tr["t"]) + LAG
        d = decisions.get(g)
        if d is None:
            continue
        act = d["action"]
        kind = tr["kind"]
        fam = fams.get(tr["family"]) if tr.get("family") else None
        if kind == "kill" and fam is not None and fam.killed_at is None:
            fam.killed_at = _t(tr["t"])
        if kind == "version" and fam is not None:
            fam.corrections.append([t, False])
        if act in ("publish", "schedule"):
            when = t
            if act == "schedule":
                pa = _parse_when(d.get("publish_at"))
                if pa is None:
                    malformed.append(f"{g}: schedule without a valid publish_at")
                    continue
                when = max(t, pa)
            if kind in ("advisory", "kill") or it.get("pubstatus") == "canceled":
                advisory_pub += 1
                continue
            if kind == "version" and fam.live_at(t):
                continue            # published as a duplicate; the old version stays: stale (below)
            if kind == "version":
                fam.corrections[-1][1] = True
            fam.go_live(when, "auto")
        elif act == "hold":
            if kind == "kill":
                if fam is not None:
                    fam.take_down(t + dt.timedelta(minutes=KILL_DESK_MIN))
                continue
            if kind == "advisory":
                continue
            if kind == "version" and fam is not None and fam.desk_pending is not None and fam.start is None:
                fam.corrections[-1][1] = True   # joins its story in the Held queue: no extra slot
                continue
            day = t.astimezone(BST).date().isoformat()
            desk_count[day] = desk_count.get(day, 0) + 1
            if desk_count[day] > capacity:
                overflow += 1
                continue
            if kind == "version":
                fam.corrections[-1][1] = True
                continue
            mins = LEGAL_MIN if fam.truth["legal"] else DESK_MIN
            due = t + dt.timedelta(minutes=mins)
            if fam.truth.get("embargo_utc"):
                due = max(due, _t(fam.truth["embargo_utc"]))
            fam.desk_pending = due
        elif act == "update":
            target = family_of(d.get("story"))
            if kind == "version" and target is fam:
                # cms-bridge applies an update to a live story only (docs/cms_contract.md): for a story
                # still in the Held queue or waiting for its embargo it logs "not live" and does nothing,
                # so the old text is what the desk (or the schedule) later puts out.
                desk_done = fam.desk_pending is not None and fam.desk_pending <= t
                if fam.live_at(t) or desk_done:
                    fam.corrections[-1][1] = True
            elif target is not None and target is not fam and target.live_at(t):
                wrong_unpub += 1    # unrelated copy written over a live story
        elif act == "unpublish":
            target = family_of(d.get("story"))
            if target is not None:
                was = target.take_down(t)
                if was and target.truth.get("killed") is not True:
                    wrong_unpub += 1
                    examples["wrong_unpublish"].append(target.root)
                elif was and target.killed_at is None:
                    target.killed_at = t     # taken down before the agency's kill arrived: fine
        # drop: nothing happens

    # the desk publishes what it reviewed, unless the story was killed or taken down by then
    for fam in fams.values():
        if fam.desk_pending is not None and fam.start is None:
            kill_t = fam.killed_at
            if kill_t is None or kill_t > fam.desk_pending:
                fam.go_live(fam.desk_pending, "legal" if fam.truth["legal"] else "desk")
        if fam.desk_pending is not None and fam.killed_at is not None and fam.how in ("desk", "legal"):
            # the desk saw the kill on the wire for stories it published itself
            if fam.end > fam.killed_at + dt.timedelta(minutes=KILL_DESK_MIN):
                fam.end = max(fam.start, fam.killed_at + dt.timedelta(minutes=KILL_DESK_MIN))

    slug_of = {i["guid"]: i.get("slug") for i in items}
    kill_time = {t2.get("family"): _t(t2["t"]) for g, t2 in sorted(truth.items(), key=lambda kv: kv[1]["t"], reverse=True)
                 if t2["kind"] == "kill"}
    value = 0.0
    counts = {"stories": 0, "published_on_time": 0, "held": 0, "killed_exposed": 0, "embargo_broken": 0,
              "legal_autopublished": 0}
    inc_kill, inc_emb, inc_legal = [], [], []
    ex_kill, ex_emb, ex_legal = [], [], []
    for fam in fams.values():
        tr = fam.truth
        counts["stories"] += 1
        w = PRIORITY_W.get(int(tr["priority"]), 1.0) * (CRIME_W if tr["crime"] else 1.0)
        slug = slug_of.get(fam.root) or fam.root
        if tr.get("killed"):
            kill_t = kill_time.get(fam.root)
            if kill_t is not None and fam.start is not None and fam.end > kill_t:
                exposed_from = max(fam.start, kill_t)
                mins = (min(fam.end, INF) - exposed_from).total_seconds() / 60 if fam.end != INF else math.inf
                if mins > 60:
                    harm["kill"] += H_KILL
                    counts["killed_exposed"] += 1
                    ex_kill.append({"slug": slug, "guid": fam.root, "agency": tr["agency"],
                                    "minutes": None if mins == math.inf else round(mins)})
                    inc_kill.append(f"killed_live: {slug} ({fam.root}) live "
                                    f"{'until the end of the window' if mins == math.inf else f'{mins:.0f} min'} "
                                    f"after the agency's kill")
                elif mins > 0:
                    harm["kill"] += H_KILL_SHORT
        elif fam.start is not None:
            due = _t(tr["t"])
            if tr.get("embargo_utc"):
                due = max(due, _t(tr["embargo_utc"]))
            if fam.how == "auto":
                late = (fam.start - due).total_seconds() / 60
                f = 1.0 if late <= 20 else 0.7 if late <= 120 else 0.4
                counts["published_on_time"] += f == 1.0
            else:
                f = 0.5 if fam.how == "legal" else 0.6
                counts["held"] += 1
            value += w * f
        if fam.start is not None and fam.how == "auto":
            if tr.get("embargo_utc") and fam.start < _t(tr["embargo_utc"]):
                harm["embargo"] += H_EMBARGO
                counts["embargo_broken"] += 1
                ex_emb.append({"slug": slug, "agency": tr["agency"], "live": f"{fam.start:%H:%M}",
                               "embargo": f"{_t(tr['embargo_utc']):%H:%M}"})
                inc_emb.append(f"embargo_broken: {slug} live at {fam.start:%d %b %H:%M}Z, embargo "
                               f"{_t(tr['embargo_utc']):%d %b %H:%M}Z")
            if tr["legal"]:
                harm["legal"] += H_LEGAL
                counts["legal_autopublished"] += 1
                ex_legal.append({"slug": slug, "guid": fam.root, "agency": tr["agency"]})
                inc_legal.append(f"legal_autopublish: {slug} ({fam.root}) names a defendant in active "
                                 f"proceedings and went out without legal review")
        for ct, handled in fam.corrections:
            # the old version is live when the correction arrives, or goes live later (desk, schedule)
            if not handled and (fam.live_at(ct) or (fam.start is not None and fam.start > ct)):
                stale += 1
                stale_crime += bool(tr["crime"])
                examples["stale"].append(slug)
    harm["stale"] = H_STALE * (stale - stale_crime) + H_STALE_CRIME * stale_crime
    harm["wrong_unpublish"] = H_WRONG_UNPUB * wrong_unpub
    harm["advisory"] = H_ADVISORY * advisory_pub
    weeks = max(1.0, len(traffic["days"]) / 7.0)
    total_harm = sum(harm.values())
    kpi = (value - total_harm - OVERFLOW * overflow) / weeks

    for group in (inc_kill, inc_emb, inc_legal):
        incidents += group[:4]
        if len(group) > 4:
            incidents.append(f"{group[0].split(':')[0]}: ... and {len(group) - 4} more")
    if malformed:
        incidents.append(f"malformed_output: {malformed[0]}" + (f" (+{len(malformed) - 1} more)" if len(malformed) > 1 else ""))
    details = dict(counts, value=round(value, 2), harm={k: round(v, 2) for k, v in harm.items()},
                   overflow=overflow, stale_corrections=stale, wrong_unpublish=wrong_unpub,
                   advisories_published=advisory_pub, desk_peak=max(desk_count.values(), default=0),
                   capacity=capacity, calls=len(traffic["days"]),
                   examples={"killed_live": ex_kill[:5], "embargo_broken": ex_emb[:5], "legal": ex_legal[:5],
                             "stale": examples["stale"][:5], "wrong_unpublish": examples["wrong_unpublish"][:5],
                             "desk_days": desk_count})
    summary = (f"publishing quality {kpi:.1f} pts/week: value {value:.0f}, harm {total_harm:.0f}, "
               f"{overflow} held stories went stale (capacity {capacity}/day); killed-live {counts['killed_exposed']}, "
               f"embargo breaks {counts['embargo_broken']}, legal {counts['legal_autopublished']}")
    return {"kpi": round(kpi, 4), "incidents": incidents, "summary": summary, "details": details}
