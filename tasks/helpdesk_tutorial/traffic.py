"""Traffic for helpdesk_tutorial: the dev log in the workspace, held-out and shadow tickets.

Seeds are strings in separate namespaces ("dev:", "heldout:", "shadow:"), so the three streams
never share draws; ticket numbers are disjoint too (dev INC00418xx.., shadow INC00424xx.. on,
SHADOW_IDS_PER_DAY a trial day, held-out INC00431xx..). Nothing here reads the clock or the global RNG.
"""

from __future__ import annotations

import importlib.util
import random
from datetime import datetime, timedelta
from pathlib import Path

from . import sim, tickets

_HERE = Path(__file__).resolve().parent

DEV_START = datetime(2026, 2, 16)        # Monday; one week of history
HELD_OUT_START = datetime(2026, 3, 9)    # the two weeks after hand-over
SHADOW_START = datetime(2026, 3, 2)      # trial days: the day of the first morning onward, Sundays off
SHADOW_IDS_PER_DAY = 150                 # a trial day's ticket numbers: at most 29 tickets x 5 steps each
L1 = ["p.nair", "k.dunn", "s.ahmed", "j.reid"]
FIXERS = {"service_desk": L1, "field_ops": ["t.wierzbicki", "r.mackenzie", "o.petrauskas"],
          "network": ["n.grant", "h.okafor"], "apps": ["a.lindsay", "d.shaw"], "vendor_korvex": ["korvex.desk"]}


def _counts(params: dict, days: int) -> tuple[int, int, int]:
    weeks = days / 7.0
    return (round(int(params["scanners_per_week"]) * weeks), round(int(params["others_per_week"]) * weeks),
            max(1, round(int(params["outages_per_week"]) * weeks)))


def _world_router(build: Path):
    path = build / "system" / "triage" / "router.py"
    spec = importlib.util.spec_from_file_location("_bf_world_router", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, mod.load_config(build / "system" / "config.json")


def _fmt(t: datetime, tz: str = "+00:00") -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S") + tz


def dev(params: dict, out: Path) -> None:
    """Write logs/triage.log: one week of intake as the current config routed it, with the ITSM
    audit trail (reassignments, resolutions). History predates any March change of ownership, so
    reassigned handheld tickets end up with the depot field team here."""
    seed = int(params.get("world_seed", 0))
    rng = random.Random(f"dev:{seed}")
    n_s, n_o, n_out = _counts(params, 7)
    hist = dict(params, owner_queue="field_ops")
    tix = tickets.tickets(rng, hist, DEV_START, 7, 41803, n_s, n_o, n_out)
    router, cfg = _world_router(out)
    events: list[tuple[datetime, str]] = []
    load: dict = {}
    for vis, truth in tix:
        d = router.route(vis, cfg)
        t0 = sim.parse_ts(vis["opened"])
        cat = vis["category"]
        subj = vis["subject"].replace('"', "'")
        body = " / ".join(x.strip() for x in vis["body"].replace('"', "'").splitlines() if x.strip())
        body = body if len(body) <= 110 else body[:107] + "..."
        events.append((t0, f"{_fmt(t0)} INFO  triage.router  {vis['id']} ch={vis['channel']} site={vis['site']} "
                           f"cat=\"{cat}\" rule={d['rule']} -> {d['queue']}/{d['priority']} subj=\"{subj}\""
                           f" body=\"{body}\""))
        if d["priority"] == "P1":
            events.append((t0 + timedelta(seconds=20), f"{_fmt(t0 + timedelta(seconds=20))} INFO  pager          "
                           f"{vis['id']} paged on-call {d['queue']}"))
        hours, _wasted = sim.resolve(t0, d["queue"], d["priority"], truth, load)
        t_fix = t0 + timedelta(hours=hours, seconds=rng.randrange(0, 900))
        if d["queue"] != truth["owner"]:
            t_look = sim._pickup(t0, d["queue"], d["priority"], True) + timedelta(minutes=30)
            who = rng.choice(FIXERS[d["queue"]])
            t_look += timedelta(minutes=rng.randrange(0, 50), seconds=rng.randrange(60))
            notes = (rng.choice(["L1 no MDM console access", "handheld - not ours", "RT7 - depot IT pls",   # both drawn
                                 "cant see device in MDM", "scanner, reassigning"]),
                     rng.choice(["wrong queue", "reassign", "not ours"]))
            note = notes[0] if truth["kind"] == "scanner" else notes[1]
            events.append((t_look, f"{_fmt(t_look)} INFO  itsm.audit     {vis['id']} reassigned "
                                   f"{d['queue']} -> {truth['owner']} by {who} note=\"{note}\""))
        fixer = rng.choice(FIXERS[truth["owner"]])
        lost = sim.lost_hours(truth, hours)
        events.append((t_fix, f"{_fmt(t_fix)} INFO  itsm.audit     {vis['id']} resolved by {truth['owner']} "
                              f"({fixer}) elapsed={hours:.1f}h users_affected={truth['users']}"
                              + (f" lost_user_h={lost:.1f}" if truth["users"] > 1 else "")))
    # operational noise, as the real log has it
    noise = [
        (datetime(2026, 2, 16, 6, 0, 2), "2026-02-16T06:00:02+00:00 INFO  itsm-intake    started (config schema 3, 8 rules, 1 disabled)"),
        (datetime(2026, 2, 17, 3, 10, 0), "2026-02-17T03:10:00+00:00 WARN  itsm-intake    kiosk connector timeout (kiosk-hln-02), retrying"),
        (datetime(2026, 2, 18, 12, 0, 0), "2026-02-18T13:00:41+01:00 INFO  korvex.rma     RMA-55821 3x RT7 received Rotterdam, battery swell"),
        (datetime(2026, 2, 19, 14, 2, 11), "2026-02-19T14:02:11+00:00 ERROR itsm-intake    mail connector: Traceback (most recent call last): ... ssl.SSLEOFError: EOF occurred in violation of protocol (_ssl.c:2426)"),
        (datetime(2026, 2, 19, 14, 7, 0), "2026-02-19T14:07:00+00:00 INFO  itsm-intake    mail connector recovered, 4 messages replayed"),
        (datetime(2026, 2, 20, 17, 30, 0), "2026-02-20T17:30:00+00:00 INFO  itsm.audit     weekly: 61% first response in SLA (HO 78%, depots 44%)"),
        (datetime(2026, 2, 21, 9, 15, 0), "2026-02-21T09:15:07+00:00 WARN  triage.router  INC00419?? ch=email site= cat=\"\" subj=\"RE: RE: FW: \" <- empty body, routed default"),
        (datetime(2026, 2, 22, 23, 59, 59), "2026-02-22T23:59:59+00:00 INFO  itsm-intake    log rotated"),
    ]
    events.extend(noise)
    events.sort(key=lambda e: e[0])
    lines = [e[1] for e in events if e[0] < DEV_START + timedelta(days=7)]
    (out / "logs").mkdir(parents=True, exist_ok=True)
    (out / "logs" / "triage.log").write_text("\n".join(lines) + "\n", encoding="utf-8")


def held_out(params: dict, seed: int) -> dict:
    """Two weeks of tickets after hand-over, one batch per week; truth stays grader-side."""
    rng = random.Random(f"heldout:{seed}:{int(params.get('world_seed', 0))}")
    n_s, n_o, n_out = _counts(params, 7)
    weeks, truth = [], {}
    last = 43107
    for w in range(2):
        tix = tickets.tickets(rng, params, HELD_OUT_START + timedelta(days=7 * w), 7, last, n_s, n_o, n_out)
        weeks.append([v for v, _t in tix])
        truth.update({v["id"]: t for v, t in tix})
        last = int(tix[-1][0]["id"][3:]) + 1
    return {"weeks": weeks, "truth": truth}


def shadow_date(day: int) -> datetime:
    """Trial day ``day`` (1, 2, ...): Monday 2 March, then each working day after it. A trial takes a
    day of customer time, so trials run back to back from the first morning each mirror a day that
    began before the trial was run and has ended when its report arrives."""
    d0 = SHADOW_START
    for _ in range(max(0, int(day) - 1)):
        d0 += timedelta(days=2 if d0.weekday() == 5 else 1)
    return d0


def shadow(params: dict, day: int) -> dict:
    """One trial day of live intake, mirrored (:func:`shadow_date`); a day's volume varies a little."""
    rng = random.Random(f"shadow:{day}:{int(params.get('world_seed', 0))}")
    d0 = shadow_date(day)
    n_s = max(3, round(int(params["scanners_per_week"]) / 5) + rng.choice([-1, 0, 0, 1, 2]))
    n_o = rng.randint(15, 21)
    first = 42400 + SHADOW_IDS_PER_DAY * (d0 - SHADOW_START).days
    tix = tickets.tickets(rng, params, d0, 1, first, n_s, n_o, 0)
    return {"weeks": [[v for v, _t in tix]], "truth": {v["id"]: t for v, t in tix}, "day": d0.strftime("%a %d %b")}

