"""The Calderbrook minor works model: the working-day calendar, the deemed-approval deadline, which
applications the scheme lets a technician approve, and the officers' queues that turn a triage into
decision dates. Shared by traffic.py, grader.py, trial.py and the tests."""

from __future__ import annotations

from datetime import date, timedelta

BANK_HOLIDAYS = {date(2026, 12, 25), date(2026, 12, 28), date(2027, 1, 1), date(2026, 8, 31)}
AREA_LIMIT_M2 = 40.0
HEIGHT_LIMIT_M = 4.0
SQFT_PER_M2 = 10.7639
MINOR_WORKS = {"single_storey_rear_extension", "side_extension", "porch", "garage_conversion", "outbuilding",
               "loft_dormer", "shopfront", "fascia_sign"}
ROUTES = ("auto_issue", "fast_track", "officer", "conservation")
FAST_TRACK_WD = 2            # the technician's check: decided two working days after validation
AMEND_WD = 4                 # a technician who finds the drawings wrong asks for amended plans (decided
                             # by the deadline at the latest)
APPEAL_DAYS = 40             # an appeal ties up a case officer for weeks: counted as 40 applicant working days
SKELETON = {date(2026, 12, 24), date(2026, 12, 29), date(2026, 12, 30), date(2026, 12, 31)}
SKELETON_SHARE = 0.25        # the Christmas rota: a quarter of the officers in, the clock still running
DUE_WD = 5                   # the officers' list: cases due within the next week
SCREEN_WD = 2                # conservation screens its new cases within two days and sends back what is
                             # in no area (to the technicians if small, else to the officers)
HORIZON_DAYS = 200           # a case no list ever reaches is still open this long after go-live
REFERRAL_WD = 1              # a case passed between queues joins the other queue the next working day


def day(text) -> date | None:
    """An ISO date (or the date part of a timestamp), else None."""
    if isinstance(text, date):
        return text
    try:
        return date.fromisoformat(str(text)[:10])
    except (TypeError, ValueError):
        return None


def is_working(d: date) -> bool:
    return d.weekday() < 5 and d not in BANK_HOLIDAYS


def add_wd(d: date, n: int) -> date:
    """The nth working day after d (weekends and bank holidays do not count)."""
    while n > 0:
        d += timedelta(days=1)
        n -= is_working(d)
    return d


def wd_between(a: date, b: date) -> int:
    """Working days after a up to and including b (0 when b <= a)."""
    n, d = 0, a
    while d < b:
        d += timedelta(days=1)
        n += is_working(d)
    return n


def period_wd(app: dict, params: dict) -> int:
    """The statutory period: householder minor works received on or after the amendment date get the
    amended period; everything else has the scheme's original fifteen working days."""
    amend = day(params.get("amend_from"))
    if app["applicant_type"] == "householder" and amend and day(app["received_on"]) >= amend:
        return int(params["hh_days"])
    return int(params["base_days"])


def deadline(app: dict, params: dict) -> date:
    """Deemed approved if no decision is issued by the end of this working day (day 0 = receipt)."""
    return add_wd(day(app["received_on"]), period_wd(app, params))


def heritage(app: dict, params: dict) -> bool:
    """Inside a conservation area by the council's designation (never the applicant's own tick)."""
    streets = {s.lower() for area in conservation_areas(params) for s in area["streets"]}
    return app["street"].lower() in streets


def conservation_areas(params: dict) -> list[dict]:
    return list(params["areas"]) + ([params["new_area"]] if params.get("new_area") else [])


def eligible(truth: dict) -> bool:
    """What the scheme lets a technician approve: listed work type, at most 40 m2 and 4 m, and the
    neighbour acknowledgement given (heritage is checked separately)."""
    return (truth["work_type"] in MINOR_WORKS and truth["area_m2"] <= AREA_LIMIT_M2
            and truth["height_m"] <= HEIGHT_LIMIT_M and truth["consent"])


class Queue:
    """An officer queue worked to the triage's decide-by dates: each working day the officers take the
    cases due within DUE_WD working days, earliest first, up to their capacity (a quarter of it on the
    Christmas rota); spare capacity goes to cases with no date, oldest first, and then to other work."""

    def __init__(self, capacity: int):
        self.capacity, self.waiting = capacity, []

    def add(self, entry: date, key: tuple, case: str):
        self.waiting.append((entry, key, case))

    def take(self, today: date) -> list[str]:
        cap = max(1, round(self.capacity * SKELETON_SHARE)) if today in SKELETON else self.capacity
        horizon = add_wd(today, DUE_WD)
        ready = [(k, c) for e, k, c in self.waiting if e <= today]
        due = sorted(x for x in ready if x[0][0] <= horizon)
        undated = sorted(x for x in ready if x[0][0] == date.max)
        taken = {c for _k, c in (due + undated)[:cap]}
        self.waiting = [w for w in self.waiting if w[2] not in taken]
        return [c for _k, c in (due + undated)[:cap]]


def simulate(apps: list[dict], truths: dict, routes: dict, params: dict, first: date) -> dict:
    """Decision date and outcome per application. ``routes[app_id] = (route, decide_by or None)``;
    an application without a valid route waits in the officer queue with no date, as PermitBase does."""
    officer, cons = Queue(int(params["officer_capacity"])), Queue(int(params["conservation_capacity"]))
    out = {}
    for a in apps:
        aid, t = a["app_id"], truths[a["app_id"]]
        route, by = routes.get(aid, ("officer", None))
        key = (by or date.max, day(a["validated_on"]), aid)
        start = max(day(a["validated_on"]), first)
        res = {"route": route, "decide_by": by, "heritage": heritage(a, params), "eligible": eligible(t), "appeal": False,
               "unconsulted": False, "decided": None, "key": key}
        if route in ("auto_issue", "fast_track"):
            if res["heritage"]:
                res["unconsulted"] = True          # approved without the conservation officer
                res["decided"] = start if route == "auto_issue" else add_wd(start, FAST_TRACK_WD)
            elif route == "auto_issue":
                res["decided"] = start
                res["appeal"] = not res["eligible"] or t["plans_issue"]
            elif not res["eligible"]:
                officer.add(add_wd(start, FAST_TRACK_WD), key, aid)
            else:
                res["decided"] = add_wd(start, FAST_TRACK_WD + (AMEND_WD if t["plans_issue"] else 0))
                res["decided"] = min(res["decided"], max(add_wd(start, FAST_TRACK_WD), deadline(a, params)))
        elif route == "conservation" and not res["heritage"]:   # screened out: not in any area
            if res["eligible"] and not t["plans_issue"]:
                res["decided"] = add_wd(start, SCREEN_WD + FAST_TRACK_WD)
            else:
                officer.add(add_wd(start, SCREEN_WD), key, aid)
        elif route == "conservation":
            cons.add(start, key, aid)
        else:
            officer.add(start, key, aid)
        out[aid] = res
    today, last = first, first + timedelta(days=HORIZON_DAYS)
    while (officer.waiting or cons.waiting) and today <= last:
        if is_working(today):
            for aid in officer.take(today):
                if out[aid]["heritage"]:               # the officer consults conservation first
                    cons.add(add_wd(today, REFERRAL_WD), out[aid]["key"], aid)
                else:
                    out[aid]["decided"] = today
            for aid in cons.take(today):
                if out[aid]["heritage"]:
                    out[aid]["decided"] = today
                else:                                   # came from the officers: in an area by now
                    out[aid]["decided"] = today
        today += timedelta(days=1)
    for a in apps:
        r = out[a["app_id"]]
        r["deadline"] = deadline(a, params)
        if r["decided"] is None:                      # never reached the top of a list: it lapsed
            r["decided"] = max(last, r["deadline"]) + timedelta(days=1)
        r["notice"] = r["decide_by"] is not None and r["decide_by"] < r["deadline"] and r["decided"] > r["decide_by"]
        r["deemed"] = r["decided"] > r["deadline"] or r["notice"]
        stop = min(r["deadline"], r["decide_by"]) if r["notice"] else r["deadline"]
        r["days"] = wd_between(day(a["received_on"]), min(r["decided"], stop))
    return out


def kpi(results: dict) -> float:
    """Applicant working days from receipt to decision (a deemed case stops at its deadline), plus
    APPEAL_DAYS for every appeal."""
    return float(sum(r["days"] for r in results.values()) + APPEAL_DAYS * sum(r["appeal"] for r in results.values()))
