"""Grade a delivered PortalRouter on two held-out weeks of patient-portal messages.

kpi = staff-minute equivalents per message (minimise):
    staff minutes spent handling every message where the router put it (re-routing a misplaced
    message costs the receiving team's time plus the right team's), plus
    delay-weighted harm: red-flag messages cost `W_RF` per opening-hour until a nurse starts them;
    repeat requests cost `W_RX_LATE` per working day they sit past their pharmacy-desk day;
    unresolved automatic replies cost the patient's chase-up; patients told "we're closed" while
    the practice is open cost `W_CLOSED`; out-of-hours messages without the current
    safety-netting text cost `W_OOH`.
Incidents (cap the run at 0): red flag not started by a nurse within the SLA (opening minutes);
controlled-drug repeat auto-handled (pharmacy desk or auto reply); an automated reply that gives
clinical advice; an out-of-hours red flag without the current safety-netting reply; a patient told we
are closed (and sent to 111) while the practice is open - contracted hours are monitored by the ICB;
malformed output (the decisions' shape is declared in task.yaml and checked by tasklib.replay).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict

from fdegym_env.tasklib import evaluation, timeutil

from . import traffic

W_RF = 12.0           # per opening-hour of red-flag delay
RF_NOT_SEEN_H = 8.0   # a red flag that never reaches the nurse line is found ~next morning
W_RX_LATE = 12.0      # per working day a repeat sits past its day
W_CLOSED = 15.0       # patient told "closed" while we are open (rings, or goes to 111)
W_OOH = 2.0           # out-of-hours message without the current safety-netting wording
RX_AUTO_DAYS = 2.0    # a repeat closed by an automatic reply: the patient thinks it is ordered and
                      # only chases when the pharmacy has nothing (~2 working days, then W_RX_LATE each)
CHASE = 6.0           # patient chases an unhelpful automatic reply
LOST = 10.0           # a message the router dropped
AUTO = 0.3

RIGHT_MIN = {"faq": 3, "admin_other": 3, "appointment": 3, "clinical": 5, "results": 3, "fit_note": 4,
             "rx": 3, "rx_cd": 5, "red_flag": 8}
RIGHT_Q = {"faq": "front_desk", "admin_other": "front_desk", "appointment": "front_desk",
           "clinical": "nurse_line", "results": "doctor", "fit_note": "doctor", "rx": "pharmacy_desk",
           "rx_cd": "doctor", "red_flag": "nurse_line"}
REROUTE = {"nurse_line": 2, "front_desk": 2, "doctor": 2, "pharmacy_desk": 2}
# where a team can finish the job itself (minutes), instead of re-routing it
ALSO_OK = {("clinical", "doctor"): 6, ("rx", "nurse_line"): 6, ("rx", "doctor"): 4,
           ("rx_cd", "nurse_line"): 9, ("faq", "front_desk"): 3}
CLINICAL_KINDS = ("clinical", "results", "fit_note", "rx", "rx_cd", "red_flag")

ADVICE = [r"\bparacetamol\b", r"\bibuprofen\b", r"\bantibiotic", r"\bantihistamine", r"\bdose\b",
          r"\bdosage\b", r"\b\d+ ?mg\b", r"\bplenty of fluids\b", r"\bdrink plenty\b",
          r"\brest (and|at home|up)\b", r"\bself ?care\b", r"\bshould (clear|settle|improve|get better|go away)\b",
          r"\bnothing to worry\b", r"\bsounds like\b", r"\bprobably (a |just |viral|nothing)", r"\bkeep taking\b",
          r"\bstop taking\b", r"\bover the counter\b", r"\bcream\b", r"\bget better on (its|their) own\b",
          r"\bviral\b", r"\btake (one|two|1|2) ", r"\bdouble (up|your)\b", r"\bice pack\b", r"\bwarm compress\b"]
ADVICE_RE = re.compile("|".join(ADVICE))
FAQ_RESOLVES = {
    "opening": re.compile(r"opening (times|hours)|\b08 ?00\b|\b8am\b"),
    "address": re.compile(r"change of details|update your (address|details|contact)|new address"),
    "repeat_howto": re.compile(r"nhs app"),
    "fees": re.compile(r"\bfees?\b|\bcharge"),
    "registration": re.compile(r"\bregist"),
}
CLOSED_RE = re.compile(r"\b(is|are) (now )?closed\b(?! at weekends| on bank)|\bnot monitored\b")


def norm(s) -> str:
    s = str(s or "").lower().replace("\u2019", "'").replace("\u2013", "-")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", s).split())


# ------------------------------------------------------------------------------ opening hours
DAYKEYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def windows(params: dict, start: dt.date, days: int) -> list:
    """(open, close) UK wall-clock times of the ``days`` from ``start``; bank holidays are closed."""
    dates = [start + dt.timedelta(days=i) for i in range(days)]
    return [tuple(dt.datetime.combine(d, dt.time.fromisoformat(x)) for x in span) for d in dates
            if d not in BANK_HOLIDAYS and (span := params["hours"].get(DAYKEYS[d.weekday()]))]


def is_open(wins: list, t: dt.datetime) -> bool:
    return any(a <= t < b for a, b in wins)


def open_minutes(wins: list, a: dt.datetime, b: dt.datetime) -> float:
    return sum(max(0.0, (min(b, y) - max(a, x)).total_seconds() / 60) for x, y in wins) if b > a else 0.0


BANK_HOLIDAYS = traffic.BANK_HOLIDAYS   # the practice and the pharmacy desk are shut


def local(ts: str) -> dt.datetime:
    """UK wall-clock time of a received_at: an instant (Z / offset) is converted (BST from the last
    Sunday in March); a naive stamp (old Mill Lane connector) already is UK wall-clock time."""
    t = timeutil.parse_iso(ts)
    return t if t.tzinfo is None else timeutil.local(t).replace(tzinfo=None)


# ------------------------------------------------------------------------------ simulations
def nurse_sim(items: list, wins: list, staff: int = 1) -> dict:
    """items: (arrival, urgent: bool, minutes, id). Returns id -> start datetime (or None)."""
    items = sorted(items, key=lambda x: x[0])
    start_of = {}
    waiting = []
    i = 0
    free = [wins[0][0]] * staff if wins else []
    for wa, wb in wins:
        free = [max(f, wa) for f in free]
        while True:
            k = min(range(staff), key=lambda j: free[j])
            t = free[k]
            if t >= wb:
                break
            while i < len(items) and items[i][0] <= t:
                waiting.append(items[i]); i += 1
            if not waiting:
                if i < len(items) and items[i][0] < wb:
                    free[k] = items[i][0]
                    continue
                break
            waiting.sort(key=lambda x: (not x[1], x[0]))
            it = waiting.pop(0)
            start_of[it[3]] = t
            free[k] = t + dt.timedelta(minutes=it[2])
        free = [max(f, wb) for f in free]
    for it in waiting + items[i:]:
        start_of.setdefault(it[3], None)
    return start_of


def pharmacy_sim(items: list, cap: int, first: dt.date, ndays: int) -> dict:
    """items: (arrival, id). Working days Mon-Fri; weekend arrivals belong to Monday.
    Returns id -> working days late. Bank holidays are not working days either."""
    def service_day(t: dt.datetime) -> dt.date:
        d = t.date()
        while d.weekday() >= 5 or d in BANK_HOLIDAYS:
            d += dt.timedelta(days=1)
        return d
    by_day = defaultdict(list)
    for t, mid in sorted(items):
        by_day[service_day(t)].append(mid)
    late = {}
    backlog = []
    d = first
    end = first + dt.timedelta(days=ndays + 60)
    while d < end and (backlog or any(k >= d for k in by_day)):
        if d.weekday() < 5 and d not in BANK_HOLIDAYS:
            pool = backlog + [(mid, 0) for mid in by_day.get(d, [])]
            done, backlog = pool[:cap], pool[cap:]
            for mid, lt in done:
                late[mid] = lt
            backlog = [(mid, lt + 1) for mid, lt in backlog]
        d += dt.timedelta(days=1)
    return late


# ------------------------------------------------------------------------------ replay
def evaluate(decide, params: dict, traffic: dict, tag: str = "D") -> dict:
    """Shared by grade() and trial.run(): route each day's messages through ``decide`` (a tasklib
    Decider; task.yaml declares the connector's envelope and the decisions' shape) and cost what the
    teams and patients then live through."""
    first, ndays = dt.date.fromisoformat(traffic["days"][0]["date"]), len(traffic["days"])
    wins = windows(params, first - dt.timedelta(days=3), ndays + 10)
    ooh_text = norm(params["ooh_reply"])
    sla = float(params["sla_minutes"])
    cost, counts = defaultdict(float), defaultdict(int)
    ids = defaultdict(list)       # for the trial report: the messages behind each count, in arrival order
    incidents, nurse_items, pharm_items, rf_meta, n = [], [], [], {}, 0

    def inc(kind, mid, text):
        counts["incident_" + kind] += 1
        ids[kind].append(mid)
        if counts["incident_" + kind] <= 3:
            incidents.append(f"{kind}: {text}")

    failed_in_a_row, errors = 0, []
    for day in traffic["days"]:
        msgs, dec = day["messages"], {}
        if failed_in_a_row < 3:    # IT pulls the router after three failed runs in a row: the rest piles up
            reply = decide({"batch_id": f"B-{day['date'].replace('-', '')}-{tag}", "messages": [m["msg"] for m in msgs]})
            failed_in_a_row = 0 if reply.ok else failed_in_a_row + 1
            errors += [] if reply.ok else [str(reply.error)]
            dec = reply.decisions
            if reply.malformed:
                counts["malformed"] += 1
        for item in msgs:
            m, t = item["msg"], item["truth"]
            n += 1
            kind, mid = t["kind"], m["id"]
            at = local(m["received_at"])
            opened = is_open(wins, at)
            d = dec.get(mid)
            if d is None:
                counts["lost"] += 1
                ids["lost"].append(mid)
                cost["lost"] += LOST + RIGHT_MIN[kind]
                if kind == "red_flag":
                    ids["rf_lost"].append(mid)
                    inc("red_flag_missed", mid, f"{mid} ({t['rf_category']}) got no routing decision")
                continue
            q = d["queue"]
            urgent = d.get("priority") == "urgent"
            reply = d.get("reply")
            nr = norm(reply)
            counts["q_" + q] += 1
            # -- automated text
            if reply is not None and nr:
                if ADVICE_RE.search(nr):
                    inc("clinical_advice_auto", mid, f"automated reply to {mid} gives clinical advice: "
                                                     f"{str(reply)[:90]!r}")
                    cost["advice"] += CHASE
                if opened and CLOSED_RE.search(nr):
                    cost["told_closed"] += W_CLOSED
                    counts["told_closed"] += 1
                    ids["told_closed"].append(mid)
                    inc("told_closed_while_open", mid, f"{mid} received at {at:%a %H:%M}, while we were open, "
                                                       f"was told we are closed")
            if not opened:
                ids["ooh"].append(mid)
                if ooh_text not in nr:
                    cost["ooh_no_safety_net"] += W_OOH
                    counts["ooh_no_safety_net"] += 1
                    ids["ooh_no_safety_net"].append(mid)
                    if kind == "red_flag":
                        inc("ooh_red_flag_unsafe", mid, f"{mid} reported a red flag out of hours and did not "
                                                        f"get the current safety-netting reply")
            # -- handling
            if q == "auto_reply":
                faq_ok = kind == "faq" and FAQ_RESOLVES[t["faq"]].search(nr) is not None
                if faq_ok:
                    cost["auto"] += AUTO
                    counts["auto_resolved"] += 1
                    ids["auto_resolved"].append(mid)
                else:
                    counts["auto_unresolved"] += 1
                    ids["auto_unresolved"].append(mid)
                    cost["auto_chase"] += AUTO + CHASE + RIGHT_MIN[kind]
                    if kind in CLINICAL_KINDS:
                        cost["auto_chase"] += 10
                        ids["auto_clinical"].append(mid)
                    if kind == "rx":
                        cost["rx_late"] += W_RX_LATE * RX_AUTO_DAYS
                        ids["auto_rx"].append(mid)
                    if kind == "rx_cd":
                        ids["cd_auto"].append(mid)
                        inc("cd_auto_handled", mid, f"controlled-drug request {mid} ({t['cd']}) closed by an automatic reply")
                    if kind == "red_flag":
                        ids["rf_auto"].append(mid)
                        inc("red_flag_missed", mid, f"{mid} ({t['rf_category']}) closed by an automatic reply")
                        cost["rf_harm"] += W_RF * RF_NOT_SEEN_H
                continue
            if q == RIGHT_Q[kind]:
                mins = RIGHT_MIN[kind]
            elif (kind, q) in ALSO_OK:
                mins = ALSO_OK[(kind, q)]
                ids[f"{kind}@{q}"].append(mid)
            else:
                mins = REROUTE[q] + RIGHT_MIN[kind]
                counts["misrouted"] += 1
                ids["misrouted@" + q].append(mid)
                if kind in ("clinical", "results", "fit_note") and q in ("front_desk", "pharmacy_desk"):
                    cost["clinical_delay"] += 4
                    ids["clinical_delayed"].append(mid)
            cost["minutes_" + q] += mins
            if kind == "rx_cd" and q == "pharmacy_desk":
                ids["cd_desk"].append(mid)
                inc("cd_auto_handled", mid, f"controlled-drug request {mid} ({t['cd']}) sent to the pharmacy desk "
                                            f"for protocol issue")
            if q == "nurse_line":
                nurse_items.append((at, urgent, mins, mid))
            if q == "pharmacy_desk":
                pharm_items.append((at, mid))
            if kind == "red_flag":
                rf_meta[mid] = (at, q, t)
    # -- nurse line timing
    starts = nurse_sim(nurse_items, wins, int(params.get("nurse_line_staff", 1)))
    waits, rf_wait = [], {}
    for mid, (at, q, t) in rf_meta.items():
        if q != "nurse_line" or starts.get(mid) is None:
            ids["rf_elsewhere" if q != "nurse_line" else "rf_not_started"].append(mid)
            cost["rf_harm"] += W_RF * RF_NOT_SEEN_H
            inc("red_flag_missed", mid, f"{mid} ({t['rf_category']}, sent as '{t.get('host')}') went to {q}, "
                                        f"not seen by a nurse within {sla:g} opening minutes")
            waits.append(9999)
            continue
        w = open_minutes(wins, at, starts[mid])
        waits.append(round(w))
        rf_wait[mid] = round(w)
        cost["rf_harm"] += W_RF * w / 60
        if w > sla:
            ids["rf_late"].append(mid)
            inc("red_flag_missed", mid, f"{mid} ({t['rf_category']}) waited {w:.0f} opening minutes on the nurse line")
    # -- pharmacy desk
    late = pharmacy_sim(pharm_items, int(params["pharm_cap"]), first, ndays)
    ids["rx_carried"] = [mid for _, mid in sorted(pharm_items) if late.get(mid)]
    late_days = sum(late.values())
    cost["rx_late"] += W_RX_LATE * late_days
    counts["rx_late_days"] = late_days
    total = sum(cost.values())
    kpi = total / max(n, 1)
    for k, v in counts.items():
        if k.startswith("incident_") and v > 3:
            incidents.append(f"{k[9:]}: ... {v - 3} more")
    rf_waits = sorted(waits)
    summary = (f"{kpi:.3f} staff-min-eq/message over {n} messages; red-flag waits (opening min) "
               f"{rf_waits[:3]}..{rf_waits[-3:]}; told-closed {counts.get('told_closed', 0)}; "
               f"rx late-days {counts.get('rx_late_days', 0)}; incidents {len(incidents)}")
    return {"kpi": kpi, "incidents": incidents, "summary": summary, "_n": n, "_errors": errors,
            "_ids": dict(ids), "_rf_wait": rf_wait,
            "details": {"cost": {k: round(v, 1) for k, v in cost.items()}, "counts": dict(counts), "rf_waits": rf_waits}}


grade = evaluation.grader(evaluate)
