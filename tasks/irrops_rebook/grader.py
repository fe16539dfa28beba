"""Grader for irrops_rebook: replay two held-out disruption days through the delivered tool and price
every passenger on the cancelled flights (EUR, minimise): 0.50 per delay minute at the destination,
EU261 compensation, meals and hotels where EU261 covers the flight, 30 per desk referral, 45 per
co-terminal transfer, 250 per passenger split from their party, 100 per offload (no seat left),
150 per assisted passenger given a connection OCS cannot make. The desk works referrals by
cancellation, in the order given, desk_rate an hour, while seats keep selling; it re-protects each
booking on the best itinerary left (real MCT, co-terminals, party together, hotel). Incidents: an
UMNR auto-rebooked, a connection under the MCT, an EU261 passenger auto-rebooked onto a night away
(sim.night_away: a first flight on a later local date, or a new hub connection across midnight),
malformed output (a passenger without a rebook/desk decision: tasklib.replay against task.yaml's
``output``; an unknown or repeated passenger or an itinerary that cannot be flown: here, each class
named with its count and first passengers). Decisions
are applied in the order returned (seats go first come, first served). One entry-point call per day."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import sim

UNKNOWN, REPEATED = "for a passenger not on the plan", "for a passenger already decided"
NOT_IN_SCHEDULE, NOT_OPERATING = "rebooked on a flight not in the schedule", "rebooked on a flight that is not operating"
WRONG_ORIGIN = "rebooked from another airport than the cancelled flight's"
SHORT = "rebooked to end short of or away from the destination city"
TOO_SOON = "rebooked on a first flight leaving under 30 min after the notice"
CHAIN = "rebooked on legs that do not chain airport to airport"


def unflyable(p: dict, segs, legs: list, notice: int) -> tuple[str, str] | None:
    """Why Amadeus rejects a rebooking (the class and the passenger's example), or None."""
    pid, orig, final = p["pax_id"], p["segments"][0]["from"], p["segments"][-1]["to"]
    if None in legs:
        return NOT_IN_SCHEDULE, f"{pid} {segs[legs.index(None)] if isinstance(segs, list) and segs else segs!r}"
    if any(f["status"] != "OK" for f in legs):
        f = next(f for f in legs if f["status"] != "OK")
        return NOT_OPERATING, f"{pid} {f['key']} {f['status']}"
    if legs[0]["from"] != orig:
        return WRONG_ORIGIN, f"{pid} from {legs[0]['from']} (not {orig})"
    if sim.city(legs[-1]["to"]) != sim.city(final):
        return SHORT, f"{pid} ends at {legs[-1]['to']} (booked to {final})"
    if legs[0]["_dep"] < notice + 30:
        return TOO_SOON, f"{pid} {legs[0]['flight']} {legs[0]['std'][11:16]}"
    a, b = next(((a, b) for a, b in zip(legs, legs[1:]) if a["to"] != b["from"]), (None, None))
    if a:
        return CHAIN, f"{pid} {a['key']} to {a['to']} then {b['key']} from {b['from']}"
    return None


def rejected_text(rejected: list[tuple[str, str]]) -> str:
    """Each class of rejected decision with its count and the first passengers, in order of first sight."""
    by: dict[str, list[str]] = {}
    for why, example in rejected:
        by.setdefault(why, []).append(example)
    return "; ".join(f"{len(ex)} {why} ({', '.join(ex[:4])}{', ...' if len(ex) > 4 else ''})" for why, ex in by.items())


def replay(params: dict, plan: dict, value, ok: bool = True) -> dict:
    """Apply one day's decisions: {"out": {pax_id: (legs|None, desk, handled_at, party)}, ...}."""
    sched = [dict(f) for f in plan["schedule"]]
    by, key = sim.index(sched), {f["key"]: f for f in sched}
    seats = {f["key"]: max(0, f["cap"] - f["booked"]) for f in sched}     # seats that physically exist
    notice = {c["key"]: sim.to_min(c["notice"]) for c in plan["cancelled"]}
    pax = {p["pax_id"]: p for p in plan["passengers"]}
    decs = value.get("decisions") if ok and isinstance(value, dict) else None
    r = {"out": {}, "key": key, "pax": pax, "incidents": [], "malformed": 0, "rejected": [],
         "offloaded": 0, "misconnects": 0, "umnr_auto": 0, "prm_missed": 0, "why": {}, "reason": {}}
    seen, queue = set(), []

    def reject(why: str, example: str) -> None:
        r["malformed"] += 1
        r["rejected"].append((why, example))

    def conn(a, b):
        return sim.mct(params, a["arr_terminal"], b["dep_terminal"], b["region"])
    for d in decs if isinstance(decs, list) else []:
        p = pax.get(d.get("pax_id")) if isinstance(d, dict) and isinstance(d.get("pax_id"), str) else None
        if p is None or p["pax_id"] in seen:
            pid = d.get("pax_id") if isinstance(d, dict) else d
            reject(REPEATED if p else UNKNOWN, str(pid)[:40])
            continue
        seen.add(p["pax_id"])
        if d.get("action") != "rebook":          # anything but rebook/desk is tasklib.replay's malformed output
            r["why"][p["pax_id"]] = "referred"
            if isinstance(d.get("reason"), str):
                r["reason"][p["pax_id"]] = d["reason"]      # on the agent's screen (the trial report quotes it)
            queue.append(p)
            continue
        segs = d.get("segments")
        legs = [key.get(k) if isinstance(k, str) else None for k in segs] if isinstance(segs, list) and segs else [None]
        bad = unflyable(p, segs, legs, notice[p["disrupted"]])
        if bad:
            reject(*bad)
            r["why"][p["pax_id"]] = "rejected"
            queue.append(p)
            continue
        for a, b in zip(legs, legs[1:]):
            if b["_dep"] - a["_arr"] < conn(a, b):
                r["misconnects"] += 1
                r["incidents"].append(f"misconnect: {p['pax_id']} {a['flight']} -> {b['flight']} at DUB, "
                                      f"{b['_dep'] - a['_arr']} min < MCT {conn(a, b)}")
        if any(s[:4] in sim.PRM_SSR for s in p["ssr"]) and \
                any(b["_dep"] - a["_arr"] < conn(a, b) + sim.PRM_EXTRA_MIN for a, b in zip(legs, legs[1:])):
            r["prm_missed"] += 1          # legal connection, but the assistance handover needs longer
            r["why"][p["pax_id"]] = "prm_missed"
            queue.append(p)
            continue
        if any(s.startswith("UMNR") or (params.get("ypta_as_umnr") and s.startswith("YPTA")) for s in p["ssr"]):
            r["umnr_auto"] += 1
            r["incidents"].append(f"umnr_auto_rebooked: {p['pax_id']} ({p['ssr'][0]}) rebooked with no desk handover")
        held = {s["key"] for s in p["segments"]}
        need = [f for f in legs if f["key"] not in held]
        if any(seats[f["key"]] < 1 for f in need):
            r["offloaded"] += 1
            r["why"][p["pax_id"]] = "offloaded"
            queue.append(p)
            continue
        for f in need:
            seats[f["key"]] -= 1
        r["out"][p["pax_id"]] = (legs, False, None, 1)
    missing = [p for pid, p in pax.items() if pid not in seen]   # counted by tasklib.replay
    r["why"].update((p["pax_id"], "missing") for p in missing)
    # a party split across flights (or part auto, part desk) will not travel apart: they all turn up at the desk
    groups: dict = {}
    for q in plan["passengers"]:
        o = r["out"].get(q["pax_id"])
        groups.setdefault(q["pnr"], set()).add(tuple(f["key"] for f in o[0]) if o else None)
    r["split"] = {q["pax_id"] for q in plan["passengers"] if len(groups[q["pnr"]]) > 1}
    for q in plan["passengers"]:
        if q["pax_id"] in r["split"] and q["pax_id"] in r["out"]:
            del r["out"][q["pax_id"]]
            r["why"][q["pax_id"]] = "split"
            queue.append(q)
    cursor, done, parties, t0 = -10**9, set(), {}, min(notice.values())
    queue = sorted(queue + missing, key=lambda q: notice[q["disrupted"]])   # by cancellation, then as given
    for q in queue:
        parties.setdefault(q["pnr"], []).append(q)
    for p in queue:
        if p["pax_id"] in done:
            continue
        party = [q for q in parties[p["pnr"]] if q["pax_id"] not in done]
        t = max(cursor, notice[p["disrupted"]] + 20)
        cursor = t + 60.0 * len(party) / float(params["desk_rate"])
        held = {s["key"] for s in p["segments"]}
        # seats keep selling while the booking waits in the queue (close-in demand, other disruptions)
        left = sim.SeatsLeft(seats, key, t, t0)
        legs = sim.search(by, p["segments"][0]["from"], p["segments"][-1]["to"], int(t) + 45, conn, left,
                          len(party), True, held)
        for f in legs or []:
            seats[f["key"]] -= len(party) if f["key"] not in held else 0
        for q in party:
            done.add(q["pax_id"])
            r["out"][q["pax_id"]] = (legs, True, t, len(party))
    return r


def evaluate(decide, params: dict, traffic: dict) -> dict:
    cost, incidents, malformed, rejected, rows = 0.0, [], 0, [], []
    st = {k: 0 for k in ("pax", "auto", "desk", "offloaded", "split", "coterm", "delay_min", "comp", "hotel",
                         "misconnects", "umnr_auto", "stranded", "prm_missed")}
    for plan in traffic["plans"]:
        reply = decide(plan)
        r = replay(params, plan, reply.value, reply.ok)
        incidents += r["incidents"]
        malformed += r["malformed"]
        rejected += r["rejected"]
        for k in ("offloaded", "misconnects", "umnr_auto", "prm_missed"):
            st[k] += r[k]
        cost += sim.OFFLOAD_EUR * r["offloaded"] + sim.PRM_MISSED_EUR * r["prm_missed"]
        for pid, (legs, desk, _t, _n) in r["out"].items():
            p, c0 = r["pax"][pid], r["key"][r["pax"][pid]["disrupted"]]
            eu = c0["from"] not in params["eu261_exempt"]
            booked = sim.to_min(p["segments"][-1]["sta"])
            delay = max(0, (legs[-1]["_arr"] if legs else booked + sim.STRANDED_MIN) - booked)
            night = sim.night_away(legs, c0, {s["key"] for s in p["segments"]})
            comp = sim.compensation(p["segments"][0]["from"], p["segments"][-1]["to"], delay) if eu else 0.0
            coterm = bool(legs) and legs[-1]["to"] != p["segments"][-1]["to"]
            if eu and night and not desk:
                st["stranded"] += 1
                incidents.append(f"stranded_overnight: {pid} auto-rebooked "
                                 f"{' > '.join(f['flight'] + ' ' + f['std'][:16] for f in legs)} after "
                                 f"{c0['flight']} {c0['std'][:10]} was cancelled: a night away with no hotel "
                                 "(EU261 Art 9)")
            cost += (sim.DELAY_EUR_PER_MIN * delay + comp + sim.MEAL_EUR * (eu and delay >= 120)
                     + sim.HOTEL_EUR * (eu and night and desk) + sim.DESK_EUR * desk + sim.COTERM_EUR * coterm
                     + sim.SPLIT_EUR * (pid in r["split"]))
            # what the people watching the day see of this passenger (the trial report only)
            rows.append({"pax_id": pid, "pnr": p["pnr"], "ssr": p["ssr"], "desk": desk, "why": r["why"].get(pid),
                         "split": pid in r["split"], "hotel": bool(eu and night and desk), "coterm": coterm,
                         "connecting": len(p["segments"]) > 1, "delay": delay, "found": bool(legs),
                         "night": night, "reason": r["reason"].get(pid)})
            for k, n in (("desk" if desk else "auto", 1), ("pax", 1), ("delay_min", delay), ("comp", comp),
                         ("hotel", eu and night and desk), ("coterm", coterm), ("split", pid in r["split"])):
                st[k] += n
    if malformed:
        incidents.append(f"malformed_output: {malformed} decision(s) Amadeus would reject: {rejected_text(rejected)}")
    summary = f"EUR {cost:,.0f} for {st['pax']} passengers: {st['auto']} auto-rebooked, {st['desk']} via the desk"
    return {"kpi": round(cost, 2), "incidents": incidents, "summary": summary, "details": st, "_pax": rows}


grade = evaluation.grader(evaluate)
