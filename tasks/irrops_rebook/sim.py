"""The Skellig Air network, the re-accommodation model and the cost of a disruption.

Shared by traffic.py (dev data, held-out and shadow plans), grader.py and trial.py. Everything is
deterministic: schedules and passengers come from ``random.Random`` seeded by the caller.

Times in plans are station-local ISO strings with their UTC offset ("2026-03-03T07:05+01:00"), the
offset from the station's time zone on that date (zoneinfo: New York is -04:00 from 8 March 2026,
Europe moves on 29 March); the model works in minutes since 2026-01-01T00:00Z.
"""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta, timezone

from fdegym_env.tasklib import timeutil

HUB = "DUB"
EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)
# code: (IANA time zone, lat, lon, city, region)
AIRPORTS = {
    "DUB": ("Europe/Dublin", 53.42, -6.27, "DUB", "EU"), "LHR": ("Europe/London", 51.47, -0.45, "LON", "UK"), "LGW": ("Europe/London", 51.15, -0.19, "LON", "UK"),
    "MAN": ("Europe/London", 53.35, -2.27, "MAN", "UK"), "EDI": ("Europe/London", 55.95, -3.36, "EDI", "UK"), "BHX": ("Europe/London", 52.45, -1.75, "BHX", "UK"),
    "GLA": ("Europe/London", 55.87, -4.43, "GLA", "UK"), "CDG": ("Europe/Paris", 49.01, 2.55, "PAR", "EU"), "ORY": ("Europe/Paris", 48.72, 2.38, "PAR", "EU"),
    "AMS": ("Europe/Amsterdam", 52.31, 4.76, "AMS", "EU"), "FRA": ("Europe/Berlin", 50.03, 8.56, "FRA", "EU"), "MAD": ("Europe/Madrid", 40.47, -3.56, "MAD", "EU"),
    "BCN": ("Europe/Madrid", 41.30, 2.08, "BCN", "EU"), "FCO": ("Europe/Rome", 41.80, 12.25, "ROM", "EU"), "BOS": ("America/New_York", 42.36, -71.01, "BOS", "US"),
    "JFK": ("America/New_York", 40.64, -73.78, "NYC", "US"),
}
REGIONAL = {"MAN", "EDI", "BHX", "GLA"}         # ATR72s, DUB Terminal 1
US = {"BOS", "JFK"}
BUSY = {"LHR", "CDG"}
# route: (block minutes out of DUB, block minutes into DUB, departures DUB->X, departures X->DUB) (local times)
ROUTES = {
    "LHR": (75, 75, ["06:30", "09:20", "12:40", "16:50", "20:45"], ["08:45", "11:30", "14:50", "19:00", "22:30"]),
    "LGW": (75, 75, ["07:10", "13:15", "17:40"], ["09:40", "15:45", "20:10"]),
    "MAN": (60, 60, ["07:00", "12:20", "17:10", "21:00"], ["08:30", "14:00", "19:00", "22:40"]),
    "EDI": (65, 65, ["07:20", "13:00", "18:00"], ["09:00", "14:50", "19:50"]),
    "BHX": (65, 65, ["09:30", "17:20"], ["11:20", "19:10"]),
    "GLA": (60, 60, ["08:40", "18:30"], ["10:30", "20:15"]),
    "CDG": (100, 105, ["06:45", "09:40", "13:20", "17:05"], ["08:10", "11:50", "15:40", "19:30"]),
    "ORY": (100, 105, ["08:50", "15:40", "20:30"], ["10:55", "17:50", "22:10"]),
    "AMS": (95, 95, ["06:40", "10:05", "17:15"], ["08:30", "12:40", "19:50"]),
    "FRA": (120, 120, ["09:55", "16:40"], ["12:55", "19:20"]),
    "MAD": (150, 155, ["10:20", "17:35"], ["13:30", "20:40"]),
    "BCN": (145, 150, ["09:05", "16:15"], ["12:30", "19:35"]),
    "FCO": (175, 180, ["09:45"], ["13:15"]),
    "BOS": (450, 390, ["11:05", "14:50", "17:30"], ["18:30", "21:40"]),
    "JFK": (480, 400, ["12:10", "14:20", "16:35"], ["18:00", "22:15"]),
}
CAP = {"320": 174, "321": 184, "AT7": 70}
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

# cost model (EUR)
DELAY_EUR_PER_MIN = 0.5
DESK_EUR = 30.0
MEAL_EUR = 15.0
HOTEL_EUR = 140.0
COTERM_EUR = 45.0
SPLIT_EUR = 250.0
OFFLOAD_EUR = 100.0
PRM_SSR = {"WCHR", "WCHS", "WCHC", "BLND", "DEAF", "DPNA"}
PRM_EXTRA_MIN = 15              # DUB assistance (OCS) handover on top of the MCT
PRM_MISSED_EUR = 150.0
OVERBOOK = 0.04                # mainline sells to 104% (AU); the ATRs do not overbook
SELL_OFF = 0.8                  # share of a flight's free seats sold between the plan and departure
STRANDED_MIN = 27 * 60          # nothing the desk can find inside the plan window: first flight two days on


def city(code: str) -> str:
    return AIRPORTS[code][3]


def terminal(code: str) -> str:
    return "T1" if code in REGIONAL else "T2"


def to_min(s: str) -> int:
    return int((datetime.fromisoformat(s) - EPOCH).total_seconds() // 60)


def local(minutes: int, code: str) -> str:
    """Minute ``minutes`` as the wall clock at ``code``, with that day's UTC offset (DST by zoneinfo)."""
    return timeutil.local(EPOCH + timedelta(minutes=minutes), AIRPORTS[code][0]).isoformat(timespec="minutes")


def wall_min(day: datetime, hhmm: str, code: str) -> int:
    """The minute a departure timetabled at local ``hhmm`` on ``day`` leaves ``code``."""
    hh, mm = map(int, hhmm.split(":"))
    t = datetime(day.year, day.month, day.day, hh, mm, tzinfo=timeutil.zone(AIRPORTS[code][0]))
    return int((t - EPOCH).total_seconds() // 60)


def night_away(legs: list[dict] | None, cancelled: dict, held: set) -> bool:
    """Whether a re-protection means a night the passenger was not going to spend away: nothing found,
    a first flight on a later local date than the cancelled one, or a new connection at the hub that
    waits across local midnight. A same-evening re-routing that keeps the booked next-morning onward
    flight (the transatlantic red-eye) is not a night away: that night was always on board."""
    if not legs:
        return True
    if legs[0]["std"][:10] > cancelled["std"][:10]:
        return True
    return any(b["key"] not in held and b["std"][:10] > a["sta"][:10] for a, b in zip(legs, legs[1:]))


def day_min(day: str) -> int:
    return to_min(day + "T00:00+00:00")


def km(a: str, b: str) -> float:
    la1, lo1, la2, lo2 = map(math.radians, (AIRPORTS[a][1], AIRPORTS[a][2], AIRPORTS[b][1], AIRPORTS[b][2]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 6371.0 * 2 * math.asin(math.sqrt(h))


def compensation(origin: str, final: str, delay: float) -> float:
    """EU261 Art 7 for a cancellation re-routed to arrive two hours or more late."""
    if delay < 120:
        return 0.0
    d = km(origin, final)
    if d <= 1500:
        return 250.0
    if d <= 3500:
        return 400.0
    return 300.0 if delay < 240 else 600.0


def mct(params: dict, arr_term: str, dep_term: str, dep_region: str) -> int:
    """The true Dublin MCT (minutes) for a connection arriving at arr_term onto a departure."""
    if dep_region == "US":
        return int(params["mct_us_t2"]) + (int(params["mct_us_t1_extra"]) if arr_term == "T1" else 0)
    if arr_term != dep_term:
        return int(params["mct_cross"])
    return int(params["mct_t1"]) if arr_term == "T1" else int(params["mct_t2"])


def flight_number(dest: str, out: bool, i: int) -> str:
    base = sorted(ROUTES).index(dest)
    if dest in REGIONAL:
        return f"SK {3100 + base * 10 + i * 2 + (0 if out else 1)}"
    if dest in US:
        return f"SK {100 + base * 4 + i * 2 + (0 if out else 1)}"
    return f"SK {400 + base * 10 + i * 2 + (0 if out else 1)}"


def schedule(rng: random.Random, day: str, days: int, tight: float) -> list[dict]:
    """Every Skellig flight for ``days`` days from ``day``; ``tight`` in 0..1 shrinks availability."""
    out = []
    d0 = datetime.fromisoformat(day + "T00:00+00:00")
    for k in range(days):
        d = d0 + timedelta(days=k)
        tag = f"{d.day:02d}{MONTHS[d.month - 1]}"
        for dest, (blk_o, blk_i, outs, ins) in sorted(ROUTES.items()):
            eq = "AT7" if dest in REGIONAL else ("321" if dest in US else "320")
            for direction, times, blk in (("out", outs, blk_o), ("in", ins, blk_i)):
                for i, hhmm in enumerate(times):
                    frm, to = (HUB, dest) if direction == "out" else (dest, HUB)
                    dep = wall_min(d, hhmm, frm)
                    arr = dep + blk
                    fn = flight_number(dest, direction == "out", i)
                    cap = CAP[eq]
                    busy = direction == "out" and dest in BUSY      # Heathrow and CDG run full
                    full = rng.random() < 0.04 + 0.08 * tight + (0.6 if busy else 0.0)
                    free = 0 if full else int(cap * rng.uniform(0.04 if busy else 0.12, (0.25 if busy else 0.62) - 0.3 * tight))
                    au = cap + (round(cap * OVERBOOK) if eq != "AT7" else 0)   # authorised capacity, sold against
                    out.append({"key": f"{fn.replace(' ', '')}/{tag}", "flight": fn, "from": frm, "to": to,
                                "std": local(dep, frm), "sta": local(arr, to),
                                "dep_terminal": terminal(dest) if frm == HUB else None,
                                "arr_terminal": terminal(dest) if to == HUB else None,
                                "equipment": eq, "status": "OK", "cap": cap, "au": au, "booked": cap - free,
                                "avail": au - (cap - free) if free else 0,
                                "region": AIRPORTS[to][4] if frm == HUB else AIRPORTS[frm][4]})
    return out


def index(sched: list[dict]) -> dict:
    by = {}
    for f in sched:
        f["_dep"], f["_arr"] = to_min(f["std"]), to_min(f["sta"])
        by.setdefault(f["from"], []).append(f)
    for v in by.values():
        v.sort(key=lambda f: f["_dep"])
    return by


def search(by_from: dict, origin: str, final: str, not_before: int, conn, seats: dict, need: int,
           coterm: bool, hold: set) -> list[dict] | None:
    """Earliest-arriving itinerary origin -> final (1 or 2 legs via the hub) with ``need`` seats on
    every leg not already held; ``conn(a, b)`` is the MCT between legs a and b."""
    targets = {c for c in AIRPORTS if city(c) == city(final)} if coterm else {final}
    best = None

    def ok(f):
        return f["status"] == "OK" and (f["key"] in hold or seats.get(f["key"], 0) >= need)

    for f in by_from.get(origin, []):
        if f["_dep"] < not_before or not ok(f):
            continue
        if best and f["_dep"] > best[0]:
            break
        if f["to"] in targets:
            cand = (f["_arr"], 1, f["to"] != final, [f])
            best = min(best, cand, key=lambda c: (c[0] + (30 if c[2] else 0), c[1])) if best else cand
        elif f["to"] == HUB:
            for g in by_from.get(HUB, []):
                if g["to"] in targets and g["_dep"] >= f["_arr"] + conn(f, g) and ok(g):
                    cand = (g["_arr"], 2, g["to"] != final, [f, g])
                    best = min(best, cand, key=lambda c: (c[0] + (30 if c[2] else 0), c[1])) if best else cand
                    break
    return best[3] if best else None


SURNAMES = ["MURPHY", "KELLY", "OSULLIVAN", "WALSH", "BYRNE", "RYAN", "OCONNOR", "DOYLE", "MCCARTHY", "GALLAGHER",
            "DUBOIS", "MARTIN", "BERNARD", "GARCIA", "FERNANDEZ", "ROSSI", "BIANCHI", "DEJONG", "MULLER", "SCHMIDT",
            "SMITH", "JONES", "TAYLOR", "BROWN", "WILSON", "NOWAK", "KOWALSKI", "NGUYEN", "PATEL", "OBRIEN",
            "FITZGERALD", "HEALY", "BRENNAN", "QUINN", "LYNCH", "COSTELLO", "DALY", "SULLIVAN", "CHEN", "LOPEZ"]
GIVEN = ["SEAN", "AOIFE", "CIARA", "LIAM", "EMMA", "JACK", "SOPHIE", "NIAMH", "CONOR", "MARIE", "PIERRE", "LUCIA",
         "MARCO", "ANNA", "JAN", "KATARZYNA", "DAVID", "SARAH", "JAMES", "GRACE", "OISIN", "ROISIN", "TOM", "ELLA"]
MALE = {"SEAN", "LIAM", "JACK", "CONOR", "PIERRE", "MARCO", "JAN", "DAVID", "JAMES", "OISIN", "TOM"}
MEALS = ["VGML", "KSML", "GFML", "MOML", "DBML", "CHML", "AVML"]
PNR_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
# where connecting passengers go, by the region they come from
ONWARD = {"US": ["LHR", "LHR", "LGW", "CDG", "ORY", "AMS", "FRA", "MAD", "BCN", "FCO", "MAN", "EDI", "BHX", "GLA"],
          "EU": ["BOS", "JFK", "BOS", "JFK", "LHR", "LGW", "MAN", "EDI", "GLA", "BHX", "LHR"],
          "UK": ["BOS", "JFK", "JFK", "CDG", "ORY", "AMS", "FRA", "MAD", "BCN", "FCO", "LHR"]}
# nobody connects in Dublin back to the city they came from: a London or Paris origin drawn as the
# onward city goes to the other one instead
OTHER_CITY = {"LHR": "CDG", "LGW": "ORY", "CDG": "LHR", "ORY": "LGW"}


def title_for(rng: random.Random, given: str, ptc: str, minor_alone: bool) -> str:
    """The name title as the PNR carries it, agreeing with the given name: MSTR/MISS for a child and
    for a young passenger travelling alone (YPTA, 12-15, booked on an adult fare), MR, MS, MRS or DR
    for an adult. One draw per passenger either way, so the rest of the traffic does not move."""
    male = given in MALE
    if ptc == "CHD":
        rng.random()
        return "MSTR" if male else "MISS"
    t = rng.choice(["MR", "MS", "MRS", "DR"])
    if minor_alone:
        return "MSTR" if male else "MISS"
    if male and t in ("MS", "MRS"):
        return "MR"
    return "MS" if not male and t == "MR" else t


def pnr_code(rng: random.Random) -> str:
    return "".join(rng.choice(PNR_CHARS) for _ in range(6))


def passengers(rng: random.Random, params: dict, by_from: dict, cnl: dict, start: int, shares: dict) -> list[dict]:
    """The passengers booked on cancelled flight ``cnl``: local to Dublin or connecting onward."""
    n = int(CAP[cnl["equipment"]] * rng.uniform(0.6, 0.85))
    region = AIRPORTS[cnl["from"]][4]
    out, pid = [], start
    conn = shares.get("connect", 0.55)
    while len(out) < n:
        r = rng.random()
        size = 1 if r < 0.45 else 2 if r < 0.68 else 3 if r < 0.8 else 4 if r < 0.94 else 5
        size = min(size, n - len(out))
        segs = [cnl]
        if rng.random() < conn:
            dest = rng.choice(ONWARD[region])
            if rng.random() < shares.get("coterm", 0.0):
                dest = rng.choice(["LHR", "CDG", "LHR", "CDG", "LGW", "ORY"])
            if city(dest) == city(cnl["from"]):
                dest = OTHER_CITY[dest]
            slack = rng.choice([0, 0, 5, 10, 20, 35, 50, 75])
            for g in by_from[HUB]:
                if g["to"] == dest and g["status"] == "OK" and \
                        g["_dep"] >= cnl["_arr"] + mct(params, cnl["arr_terminal"], g["dep_terminal"], g["region"]) + slack \
                        and g["std"][:10] == cnl["sta"][:10]:
                    segs = [cnl, g]
                    break
        surname = rng.choice(SURNAMES)
        pnr = pnr_code(rng)
        kind = "plain"
        if size == 1:
            r = rng.random()
            if r < shares.get("umnr", 0.03) and len(segs) == 2:
                kind = "umnr"
            elif r < shares.get("umnr", 0.03) + shares.get("ypta", 0.03):
                kind = "ypta"
        tier = rng.choice([None] * 8 + ["SILVER", "GOLD"])
        for k in range(size):
            ssr = []
            ptc = "ADT"
            if kind == "umnr":
                ptc, ssr = "CHD", [f"UMNR {rng.randint(6, 11):02d}"]
            elif kind == "ypta":
                ssr = [f"YPTA {rng.randint(12, 15)}"]
            elif size >= 3 and k >= 2:
                ptc = "CHD"
            if rng.random() < 0.07:
                ssr.append(rng.choice(MEALS))
            if rng.random() < float(shares.get("prm", 0.06)):
                ssr.append(rng.choice(["WCHR", "WCHR", "WCHR", "WCHS", "WCHC", "BLND", "DEAF", "DPNA"]))
            given = rng.choice(GIVEN)
            title = title_for(rng, given, ptc, kind == "ypta")
            out.append({"pax_id": f"P{pid:05d}", "pnr": pnr, "name": f"{surname}/{given} {title}", "ptc": ptc,
                        "ssr": ssr, "tier": tier if k == 0 else None,
                        "segments": [{k2: s[k2] for k2 in ("key", "flight", "from", "to", "std", "sta")} for s in segs],
                        "disrupted": cnl["key"]})
            pid += 1
    return out


def plan(rng: random.Random, params: dict, day: str, picks: list[tuple[str, int]], plan_id: str, tight: float,
         shares: dict, pid0: int) -> dict:
    """One disruption day: the cancelled inbound flights ``picks`` ((origin, index of the day's
    departure)), their passengers and the schedule for that day and the next."""
    sched = schedule(rng, day, 3, tight)
    by = index(sched)
    cancelled, pax = [], []
    for origin, i in picks:
        f = [x for x in by[origin] if x["to"] == HUB and x["std"][:10] == day][i]
        f["status"] = "CNL"
        f["avail"], f["booked"] = 0, f["cap"]
        notice = f["_dep"] - rng.choice([95, 120, 150, 190, 240])
        cancelled.append({"key": f["key"], "flight": f["flight"], "from": f["from"], "to": f["to"], "std": f["std"],
                          "sta": f["sta"], "notice": local(notice, HUB), "_notice": notice})
    for c in cancelled:
        f = next(x for x in sched if x["key"] == c["key"])
        pax += passengers(rng, params, by, f, pid0 + len(pax), shares)
    clean = [{k: v for k, v in f.items() if not k.startswith("_")} for f in sched]
    return {"plan_id": plan_id, "hub": HUB, "issued_at": min(c["notice"] for c in cancelled),
            "cancelled": [{k: v for k, v in c.items() if not k.startswith("_")} for c in cancelled],
            "passengers": pax, "schedule": clean}


class SeatsLeft:
    """Seats still free when the desk gets to a booking at minute t (the rest sold meanwhile)."""

    def __init__(self, seats, key, t, t0):
        self.seats, self.key, self.t, self.t0 = seats, key, t, t0

    def get(self, k, default=0):
        f = self.key[k]
        sold = min(1.0, max(0.0, (self.t - self.t0) / max(1, f["_dep"] - self.t0)))
        return self.seats.get(k, default) - int(SELL_OFF * (f["cap"] - f["booked"]) * sold)
