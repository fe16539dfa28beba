"""Model of the Brackenridge Foods service desk (grader side only, never in a workspace); the
tickets it replays come from tickets.py.

* ``resolve(...)``: how long a ticket took, given where the router put it. Queues work their own
  calendars; P1 pages the owning team's on-call (30 min) but only when the router sets it at
  creation: a reassigned P1 does not page anybody, it just lands in the next queue. A ticket in the
  wrong queue waits for that queue, costs a look (30 min), and is reassigned; the receiving team
  re-triages it and it joins their queue at P3 (the desk's handover rule).
  Capacity is finite: each queue answers only so many P2s (and its on-call so many pages) a day;
  past that, urgent tickets wait like P3s. A P2 is for somebody on the floor who cannot work
  (``P2_OK``), P4 for joiners/leavers: the analyst who picks up a ticket raised above what its kind
  earns re-triages it down, so it keeps its place in the lower queue, but a raised P2 has used one of
  the day's expedite slots and the real P2s after it wait like P3s. Inflating priorities therefore
  buys nothing.
* ``kpi``: lost user-hours plus 10 hours for every wasted page (P1 to a team that cannot fix it, or
  for a fault that did not justify it). Lost user-hours = users x share of their work stopped x
  hours until fixed, capped: a dead handheld stops a picker completely but only for the rest of the
  shift (8 h); a slow laptop costs a fifth of someone's time, for up to a working week.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache

from fdegym_env.tasklib.timeutil import Calendar, parse_iso

# queue -> (working weekdays, opens, closes), local time (Europe/London, GMT in Feb/Mar)
CAL = {
    "service_desk": Calendar({0, 1, 2, 3, 4}, 8, 18),
    "network": Calendar({0, 1, 2, 3, 4}, 8, 18),
    "apps": Calendar({0, 1, 2, 3, 4}, 9, 17),
    "field_ops": Calendar({0, 1, 2, 3, 4, 5}, 6, 22),       # Depot IT works days + back shift, Mon-Sat
    "vendor_korvex": Calendar({0, 1, 2, 3, 4, 5}, 7, 20),   # Korvex managed service, extended hours
}
# per queue and day: how many P1/P2 arrivals get urgent handling before the rest wait like P3s
CAP_P2 = {"service_desk": 8, "network": 8, "apps": 10, "field_ops": 7, "vendor_korvex": 7}
CAP_P1 = {"service_desk": 3, "network": 4, "apps": 2, "field_ops": 6, "vendor_korvex": 0}
# business hours until somebody in the queue picks the ticket up
RESPONSE = {"P2": 2.0, "P3": 8.0, "P4": 20.0}
VENDOR_RESPONSE = {"P2": 3.0, "P3": 12.0, "P4": 30.0}    # Korvex managed-service schedule
ONCALL = {"service_desk", "network", "apps", "field_ops"}  # Korvex has no out-of-hours cover
WORK_H = {"scanner": 0.75, "password": 0.25, "email": 0.5, "labels": 1.0, "wms": 1.0, "network": 1.0,
          "outage": 1.5, "mfp": 0.5, "starter": 1.0, "laptop": 1.5}
CAP_H = 8.0
# kind -> (share of the users' work stopped while it is open, cap on the hours that count)
IMPACT = {"scanner": (1.0, 8.0), "outage": (1.0, 8.0), "password": (0.5, 24.0), "labels": (0.5, 16.0),
          "wms": (0.5, 16.0), "email": (0.2, 40.0), "laptop": (0.2, 40.0), "mfp": (0.1, 40.0),
          "network": (0.2, 40.0), "starter": (0.1, 40.0)}
PAGE_COST_H = 10.0
# kinds where somebody on the floor cannot work: what the desk's P2 is for (handbook, priorities)
P2_OK = frozenset({"scanner", "outage", "labels", "wms"})
RANK = {"P1": 1, "P2": 2, "P3": 3, "P4": 4}


def earned(kind: str) -> str:
    """The most urgent priority short of a page that the desk's priority table gives this kind."""
    return "P2" if kind in P2_OK else "P4" if kind == "starter" else "P3"


@lru_cache(maxsize=1 << 15)   # pure: every grading replays the same opening times (speed)
def add_business_hours(t: datetime, hours: float, queue: str) -> datetime:
    return CAL[queue].add_hours(t, hours)


def _take(load: dict | None, key: tuple, cap: int) -> bool:
    """Count one arrival against a per-day capacity; False once the day is full."""
    if load is None:
        return True
    load[key] = load.get(key, 0) + 1
    return load[key] <= cap


def _pickup(t: datetime, queue: str, prio: str, paged: bool, load: dict | None = None,
            deserves: str = "P1") -> datetime:
    day = t.date().isoformat()
    if prio == "P1" and paged and queue in ONCALL and _take(load, (queue, day, "P1"), CAP_P1[queue]):
        return t + timedelta(minutes=30)
    p = "P2" if prio == "P1" else prio
    if p == "P2" and not _take(load, (queue, day, "P2"), CAP_P2[queue]):
        p = "P3"
    if RANK[p] < RANK[deserves]:                       # raised above its kind: re-triaged on pickup
        p = deserves
    table = VENDOR_RESPONSE if queue == "vendor_korvex" else RESPONSE
    return add_business_hours(t, table[p], queue)


def resolve(opened: datetime, queue: str, prio: str, truth: dict, load: dict | None = None) -> tuple[float, bool]:
    """(hours until fixed, wasted page?) for one ticket routed to (queue, prio). ``load`` holds the
    per-day capacity counters of one replay (tickets must be resolved in the order they were opened)."""
    owner = truth["owner"]
    t = _pickup(opened, queue, prio, True, load, earned(truth["kind"]))
    wasted = prio == "P1" and (queue != owner or not truth["p1_ok"] or queue not in ONCALL)
    if queue != owner:
        t = t + timedelta(minutes=30)                  # the wrong team looks, then reassigns
        t = _pickup(t, owner, "P3", False, load)       # handed over at P3; nobody is paged
    t = t + timedelta(hours=WORK_H[truth["kind"]])
    return (t - opened).total_seconds() / 3600.0, wasted


@lru_cache(maxsize=1 << 14)
def parse_ts(s: str) -> datetime:
    """Local wall-clock time of an ISO timestamp (offset dropped: the site's clock is what counts)."""
    return parse_iso(s).replace(tzinfo=None)


def loss_of(vis: dict, truth: dict, queue: str, prio: str, load: dict | None = None) -> tuple[float, bool, float]:
    """(lost user-hours, wasted page?, hours to fix) for one routed ticket."""
    hours, wasted = resolve(parse_ts(vis["opened"]), queue, prio, truth, load)
    return lost_hours(truth, hours), wasted, hours


def lost_hours(truth: dict, hours: float) -> float:
    """Users x share of their work stopped x hours open, capped per kind of fault."""
    rate, cap = IMPACT[truth["kind"]]
    return truth["users"] * rate * min(cap, hours)
