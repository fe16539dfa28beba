"""Shared model of the Brackenridge Foods service desk (grader side only, never in a workspace).

* ``tickets(...)``: synthetic tickets with production texture; each comes as (visible, truth).
  ``visible`` is what the intake hands the triage router; ``truth`` is what really happened on the
  floor: what kind of fault it was, how many people it stopped, which team can actually fix it and
  whether it justified paging the on-call (P1).
* ``resolve(...)``: how long a ticket took, given where the router put it. Queues work their own
  calendars; P1 pages the owning team's on-call (30 min) but only when the router sets it at
  creation: a reassigned P1 does not page anybody, it just lands in the next queue. A ticket in the
  wrong queue waits for that queue, costs a look (30 min), and is reassigned; the receiving team
  re-triages it and it joins their queue at P3 (the desk's handover rule).
  Capacity is finite: each queue answers only so many P2s (and its on-call so many pages) a day;
  past that, urgent tickets wait like P3s. Inflating priorities therefore buys nothing.
* ``kpi``: lost user-hours plus 10 hours for every wasted page (P1 to a team that cannot fix it, or
  for a fault that did not justify it). Lost user-hours = users x share of their work stopped x
  hours until fixed, capped: a dead handheld stops a picker completely but only for the rest of the
  shift (8 h); a slow laptop costs a fifth of someone's time, for up to a working week.

Deterministic: every random draw comes from a ``random.Random`` seeded by the caller.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

QUEUES = ("service_desk", "network", "apps", "field_ops", "vendor_korvex")
PRIORITIES = ("P1", "P2", "P3", "P4")
# queue -> (working weekdays, opens, closes), local time (Europe/London, GMT in Feb/Mar)
CAL = {
    "service_desk": ({0, 1, 2, 3, 4}, 8, 18),
    "network": ({0, 1, 2, 3, 4}, 8, 18),
    "apps": ({0, 1, 2, 3, 4}, 9, 17),
    "field_ops": ({0, 1, 2, 3, 4, 5}, 6, 22),       # Depot IT works days + back shift, Mon-Sat
    "vendor_korvex": ({0, 1, 2, 3, 4, 5}, 7, 20),   # Korvex managed service, extended hours
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
SCANNER_WORDS = ("rt7", "scanner", "handheld", "scan gun")

SITES = {"CRB": "Carrbridge DC", "HLN": "Hollins Lane DC", "WMR": "Westmoor DC", "HO": "Brackenridge House"}
DEPOTS = ("CRB", "HLN", "WMR")
FIRST = ["aileen", "callum", "dev", "eilidh", "fraser", "gosia", "hamish", "iwona", "jamie", "kerry", "lewis",
         "mairi", "niall", "oksana", "paddy", "rhona", "sandeep", "tam", "una", "vytautas", "wendy", "yusuf"]
LAST = ["mcallister", "boyd", "kowalczyk", "reid", "ahmed", "fraser", "nowak", "campbell", "petrauskas", "shaw",
        "mackenzie", "dunn", "okafor", "grant", "lindsay", "baird", "hughes", "singh"]
VIPS = ["g.ostler", "f.brackenridge"]


# ------------------------------------------------------------------------------------------------
# calendar arithmetic
def _next_open(t: datetime, cal) -> datetime:
    days, open_h, close_h = cal
    for _ in range(16):
        day_open = t.replace(hour=open_h, minute=0, second=0, microsecond=0)
        day_close = t.replace(hour=close_h, minute=0, second=0, microsecond=0)
        if t.weekday() in days and t < day_close:
            return max(t, day_open)
        t = (t + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    raise RuntimeError("calendar never opens")


def add_business_hours(t: datetime, hours: float, queue: str) -> datetime:
    cal = CAL[queue]
    left = hours
    t = _next_open(t, cal)
    while True:
        close = t.replace(hour=cal[2], minute=0, second=0, microsecond=0)
        avail = (close - t).total_seconds() / 3600.0
        if left <= avail + 1e-9:
            return t + timedelta(hours=left)
        left -= avail
        t = _next_open(close + timedelta(minutes=1), cal)


def _take(load: dict | None, key: tuple, cap: int) -> bool:
    """Count one arrival against a per-day capacity; False once the day is full."""
    if load is None:
        return True
    load[key] = load.get(key, 0) + 1
    return load[key] <= cap


def _pickup(t: datetime, queue: str, prio: str, paged: bool, load: dict | None = None) -> datetime:
    day = t.date().isoformat()
    if prio == "P1" and paged and queue in ONCALL and _take(load, (queue, day, "P1"), CAP_P1[queue]):
        return t + timedelta(minutes=30)
    p = "P2" if prio == "P1" else prio
    if p == "P2" and not _take(load, (queue, day, "P2"), CAP_P2[queue]):
        p = "P3"
    table = VENDOR_RESPONSE if queue == "vendor_korvex" else RESPONSE
    return add_business_hours(t, table[p], queue)


def resolve(opened: datetime, queue: str, prio: str, truth: dict, load: dict | None = None) -> tuple[float, bool]:
    """(hours until fixed, wasted page?) for one ticket routed to (queue, prio). ``load`` holds the
    per-day capacity counters of one replay (tickets must be resolved in the order they were opened)."""
    owner = truth["owner"]
    t = _pickup(opened, queue, prio, True, load)
    wasted = prio == "P1" and (queue != owner or not truth["p1_ok"] or queue not in ONCALL)
    if queue != owner:
        t = t + timedelta(minutes=30)                  # the wrong team looks, then reassigns
        t = _pickup(t, owner, "P3", False, load)       # handed over at P3; nobody is paged
    t = t + timedelta(hours=WORK_H[truth["kind"]])
    return (t - opened).total_seconds() / 3600.0, wasted


def parse_ts(s: str) -> datetime:
    """Local wall-clock time of an ISO timestamp (offset dropped: the site's clock is what counts)."""
    return datetime.fromisoformat(s).replace(tzinfo=None)


# ------------------------------------------------------------------------------------------------
# ticket generation
def _person(rng: random.Random, site: str) -> str:
    return f"{rng.choice(FIRST)[0]}.{rng.choice(LAST)}" + ("" if site == "HO" else f".{site.lower()}")


def _typo(rng: random.Random, s: str) -> str:
    if rng.random() < 0.25 and len(s) > 12:
        i = rng.randrange(3, len(s) - 3)
        s = s[:i] + s[i + 1] + s[i] + s[i + 2:]
    if rng.random() < 0.3:
        s = s.lower()
    return s


SCANNER_TXT_KW = [
    ("RT7 wont log in", "Handheld at {bay} says profile missing after reboot, tried twice. {shift}"),
    ("scanner not logging on", "RT7 {serial} stuck on the enrolment screen. {shift}"),
    ("Scan gun keeps kicking me out", "scan gun logs me out of Stockwise every few mins, lost my pick {shift}"),
    ("RT7 enrolment failed", "Device shows 'Enrolment failed 0x2F' - whole cage of handhelds did it after the update. {shift}"),
    ("handheld asking for password", "RT7 asking for a device password nobody knows. {shift}"),
    ("scanners wont connect", "3 of the RT7s wont connect since this morning, rest are fine. {shift}"),
    ("Scanner frozen on login", "scanner frozen on the login screen, battery fine {shift}"),
    ("RT7 certificate error", "RT7 {serial} certificate expired message, cant get on the wifi. {shift}"),
]
SCANNER_TXT_VAGUE = [
    ("device wont log on", "says profile missing. {shift}"),
    ("cant log in", "enrolment failed 0x2F on my device {shift}"),
    ("keeps logging me out", "kicks me out of stockwise every few minutes {shift}"),
    ("password?", "asking for a password I dont have {shift}"),
    ("no wifi on device", "cert error then no wifi. {shift}"),
    ("frozen", "stuck on sign in screen, rebooted x2 {shift}"),
    ("not working", "{shift}"),
    ("gun dead", "wont get past the login, tried swapping battery"),
]
SHIFT_NOTES_DAY = ["", "", "On days.", "pick line 2", "using a spare for now", "team leader aware"]
SHIFT_NOTES_NIGHT = ["nights, pick line stood down", "night shift - no spares in the cage", "on nights, 4 pickers waiting",
                     "nightshift, cant pick chilled", "", "nights"]

OTHER = {
    # kind: (owner, p1_ok, sites, weight, [(subject, body)], channels)
    "password": ("service_desk", False, "any", 26, [
        ("Locked out", "Locked out of my account after password change, need reset pls"),
        ("password expired", "Password expired and the reset link doesnt work"),
        ("MFA new phone", "Got a new phone, authenticator not set up, cant log in"),
        ("Stockwise login", "can't log in to Stockwise, says account locked"),
    ], ("email", "portal", "phone")),
    "email": ("service_desk", False, "any", 16, [
        ("Outlook not syncing", "Outlook stuck on 'updating folder' since yesterday"),
        ("shared mailbox", "Can I get access to the transport@ shared mailbox please"),
        ("Teams calls dropping", "Teams calls dropping after 5 mins on the laptop"),
    ], ("email", "portal")),
    "labels": ("field_ops", False, "depot", 9, [
        ("Label printer jam", "Zebra on despatch 4 jamming every 10 labels"),
        ("labels printing blank", "despatch labels coming out blank on bay 7"),
    ], ("phone", "email")),
    "wms": ("apps", False, "depot", 8, [
        ("Pick list not dropping", "Stockwise pick lists not dropping for wave 3"),
        ("replen tasks missing", "WMS replen tasks missing for chilled, team leader asking"),
    ], ("phone", "portal")),
    "network": ("network", False, "any", 7, [
        ("VPN keeps dropping", "VPN drops every hour when working from home"),
        ("office wifi slow", "Wifi in the 2nd floor meeting room really slow"),
    ], ("portal", "email")),
    "mfp": ("service_desk", False, "ho", 4, [
        ("scanner on copier", "The scanner on the 2nd floor copier wont scan to email"),
        ("scan to email broken", "MFP scan to email not arriving"),
    ], ("portal",)),
    "starter": ("service_desk", False, "any", 6, [
        ("New starter Monday", "New starter in finance on Monday, needs laptop + accounts"),
        ("Leaver - disable account", "Leaver on Friday, please disable accounts"),
    ], ("portal",)),
    "laptop": ("service_desk", False, "any", 9, [
        ("laptop very slow", "Laptop takes 10 min to boot since the update"),
        ("Excel crashing", "Excel crashes when I open the weekly margin file"),
        ("docking station", "2nd screen not detected on the dock"),
    ], ("portal", "email", "phone")),
}
OUTAGE_TXT = [
    ("Whole depot down", "No network across the whole depot, all scanners and tills offline"),
    ("site down - {site}", "Site down, nothing connects, BT router lights red"),
    ("OUTAGE goods in", "Outage - goods in and despatch both down for everyone"),
]
CATS = {"password": "Account/Password", "email": "Email/Teams", "labels": "Printer/Label", "wms": "Other",
        "network": "Other", "mfp": "Other", "starter": "Other", "laptop": "Other"}


def _when(rng: random.Random, day0: datetime, days: int, depot: bool, night: bool) -> datetime:
    for _ in range(100):
        d = day0 + timedelta(days=rng.randrange(days))
        wd = d.weekday()
        if night:
            hour = rng.choice([22, 23, 0, 1, 2, 3, 4, 5])
            if wd == 6 and hour >= 22:      # no Sunday night shift start
                continue
        elif depot:
            if wd == 6:
                continue
            hour = rng.randrange(6, 22)
        else:
            if wd >= 5:
                continue
            hour = rng.randrange(7, 18)
        return d.replace(hour=hour, minute=rng.randrange(60), second=rng.randrange(60))
    return day0.replace(hour=10)


def tickets(rng: random.Random, params: dict, day0: datetime, days: int, id_start: int,
            n_scanner: int, n_other: int, n_outage: int) -> list[tuple[dict, dict]]:
    """Tickets opened in [day0, day0+days), sorted by time. Returns [(visible, truth)]."""
    kiosk = params["match_on"] == "category"
    kw_share = float(params["kw_share"])
    night_share = float(params["night_share"])
    out = []
    for _ in range(n_scanner):
        site = rng.choice(DEPOTS)
        night = rng.random() < night_share
        when = _when(rng, day0, days, True, night)
        if rng.random() < kw_share:
            subj, body = rng.choice(SCANNER_TXT_KW)
        else:
            subj, body = rng.choice(SCANNER_TXT_VAGUE)
        body = body.format(bay=f"bay {rng.randrange(1, 30)}", serial=f"KX7-{rng.randrange(10000, 99999)}",
                           shift=rng.choice(SHIFT_NOTES_NIGHT if night else SHIFT_NOTES_DAY)).strip()
        users = rng.choice([1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6])
        vis = {"channel": "kiosk" if kiosk else rng.choice(["phone", "phone", "email"]),
               "category": "Device/Handheld" if kiosk else "",
               "site": site, "requester": f"kiosk-{site.lower()}-0{rng.randrange(1, 4)}" if kiosk else _person(rng, site),
               "subject": _typo(rng, subj), "body": body, "opened": when}
        truth = {"kind": "scanner", "users": users, "owner": params["owner_queue"],
                 "p1_ok": params["scanner_priority"] == "P1"}
        out.append((vis, truth))
    kinds = list(OTHER)
    weights = [OTHER[k][3] for k in kinds]
    for _ in range(n_other):
        kind = rng.choices(kinds, weights)[0]
        owner, p1_ok, where, _w, texts, channels = OTHER[kind]
        if where == "depot":
            site = rng.choice(DEPOTS)
        elif where == "ho":
            site = "HO"
        else:
            site = rng.choice(["HO", "HO", "HO"] + list(DEPOTS))
        when = _when(rng, day0, days, site != "HO", False)
        subj, body = rng.choice(texts)
        channel = rng.choice(channels)
        req = _person(rng, site)
        if site == "HO" and rng.random() < 0.04:
            req = rng.choice(VIPS)
        category = CATS[kind] if channel in ("portal", "kiosk") else ""
        if kiosk and site != "HO" and kind in ("password", "labels") and rng.random() < 0.5:
            channel, category, req = "kiosk", CATS[kind], f"kiosk-{site.lower()}-0{rng.randrange(1, 4)}"
        if category and rng.random() < 0.15:
            category = "Other"                      # users pick the wrong box
        vis = {"channel": channel, "category": category, "site": site, "requester": req,
               "subject": _typo(rng, subj), "body": body, "opened": when}
        users = rng.choice([2, 3, 4]) if kind in ("labels", "wms") else 1
        out.append((vis, {"kind": kind, "users": users, "owner": owner, "p1_ok": p1_ok}))
    for _ in range(n_outage):
        site = rng.choice(DEPOTS)
        when = _when(rng, day0, days, True, rng.random() < 0.3)
        subj, body = rng.choice(OUTAGE_TXT)
        vis = {"channel": "phone", "category": "", "site": site, "requester": _person(rng, site),
               "subject": subj.format(site=site), "body": body, "opened": when}
        out.append((vis, {"kind": "outage", "users": rng.randrange(15, 41), "owner": "network", "p1_ok": True}))
    out.sort(key=lambda vt: vt[0]["opened"])
    last = id_start                                # other intake (HR, facilities) shares the counter
    for vis, _t in out:
        last += rng.choice([1, 1, 2, 3, 5])
        vis["id"] = f"INC{last:07d}"
        vis["opened"] = vis["opened"].strftime("%Y-%m-%dT%H:%M:%S") + "+00:00"
    return [({k: vis[k] for k in ("id", "opened", "channel", "site", "requester", "category", "subject", "body")},
             truth) for vis, truth in out]


def loss_of(vis: dict, truth: dict, queue: str, prio: str, load: dict | None = None) -> tuple[float, bool, float]:
    """(lost user-hours, wasted page?, hours to fix) for one routed ticket."""
    hours, wasted = resolve(parse_ts(vis["opened"]), queue, prio, truth, load)
    rate, cap = IMPACT[truth["kind"]]
    return truth["users"] * rate * min(cap, hours), wasted, hours
