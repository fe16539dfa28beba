"""Grader for irrops_rebook: replay held-out disruption days through the delivered re-accommodation
tool and price what happens to every passenger on the cancelled flights.

kpi (EUR, minimise) = 0.50 per passenger delay minute at the final destination
  + EU261 compensation (re-route arriving >= 2 h late) + meals (>= 2 h) + hotels (overnight), where
    EU261 covers the cancelled flight
  + 30 per passenger sent to the recovery desk + 45 per co-terminal ground transfer
  + 120 per passenger whose booking was split across flights + 100 per passenger the tool put on a
    flight with no seat left (offloaded at the gate, then the desk).
The desk works referrals in the order given, desk_rate passengers an hour from the cancellation
notice, and re-protects each booking on the best itinerary left by then (real MCT, co-terminals,
parties kept together, hotels issued).
Incidents: an unaccompanied minor auto-rebooked; a rebooked connection under the Dublin MCT
(misconnect); an EU261 passenger auto-rebooked overnight with no hotel; malformed output.
One entry-point call per disruption day.
"""

from __future__ import annotations

import sim


def _minor(p: dict, params: dict) -> bool:
    return any(s.startswith("UMNR") or (params.get("ypta_as_umnr") and s.startswith("YPTA")) for s in p["ssr"])


def replay(params: dict, plan: dict, value, ok: bool = True) -> dict:
    """Apply one day's decisions: {"out": {pax_id: (legs|None, desk, handled_at, party)}, ...}."""
    sched = [dict(f) for f in plan["schedule"]]
    by, key = sim.index(sched), {f["key"]: f for f in sched}
    seats = {f["key"]: max(0, f["cap"] - f["booked"]) for f in sched}     # seats that physically exist
    notice = {c["key"]: sim.to_min(c["notice"]) for c in plan["cancelled"]}
    pax = {p["pax_id"]: p for p in plan["passengers"]}
    decs = value.get("decisions") if ok and isinstance(value, dict) else None
    r = {"out": {}, "key": key, "pax": pax, "incidents": [], "malformed": int(ok and not isinstance(decs, list)),
         "offloaded": 0, "misconnects": 0, "umnr_auto": 0, "prm_missed": 0}
    seen, queue = set(), []

    def conn(a, b):
        return sim.mct(params, a["arr_terminal"], b["dep_terminal"], b["region"])
    for d in decs if isinstance(decs, list) else []:
        p = pax.get(d.get("pax_id")) if isinstance(d, dict) else None
        if p is None or p["pax_id"] in seen:
            r["malformed"] += 1
            continue
        seen.add(p["pax_id"])
        if d.get("action") != "rebook":
            r["malformed"] += d.get("action") != "desk"
            queue.append(p)
            continue
        legs = [key.get(k) for k in d["segments"]] if isinstance(d.get("segments"), list) and d["segments"] else [None]
        orig, final = p["segments"][0]["from"], p["segments"][-1]["to"]
        if None in legs or any(f["status"] != "OK" for f in legs) or legs[0]["from"] != orig \
                or sim.city(legs[-1]["to"]) != sim.city(final) or legs[0]["_dep"] < notice[p["disrupted"]] + 30 \
                or any(a["to"] != b["from"] for a, b in zip(legs, legs[1:])):
            r["malformed"] += 1
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
            queue.append(p)
            continue
        if _minor(p, params):
            r["umnr_auto"] += 1
            r["incidents"].append(f"umnr_auto_rebooked: {p['pax_id']} ({p['ssr'][0]}) rebooked with no desk handover")
        held = {s["key"] for s in p["segments"]}
        need = [f for f in legs if f["key"] not in held]
        if any(seats[f["key"]] < 1 for f in need):
            r["offloaded"] += 1
            queue.append(p)
            continue
        for f in need:
            seats[f["key"]] -= 1
        r["out"][p["pax_id"]] = (legs, False, None, 1)
    missing = [p for pid, p in pax.items() if pid not in seen]
    r["malformed"] += len(missing) if ok else 0
    # a party split across flights (or part auto, part desk) will not travel apart: they all turn up at the desk
    groups: dict = {}
    for q in plan["passengers"]:
        o = r["out"].get(q["pax_id"])
        groups.setdefault(q["pnr"], set()).add(tuple(f["key"] for f in o[0]) if o else None)
    r["split"] = {q["pax_id"] for q in plan["passengers"] if len(groups[q["pnr"]]) > 1}
    for q in plan["passengers"]:
        if q["pax_id"] in r["split"] and q["pax_id"] in r["out"]:
            del r["out"][q["pax_id"]]
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
        left = {k: n - int(sim.SELL_OFF * (key[k]["cap"] - key[k]["booked"]) * min(1.0, max(0.0, (t - t0) / max(1, key[k]["_dep"] - t0))))
                for k, n in seats.items()}
        legs = sim.search(by, p["segments"][0]["from"], p["segments"][-1]["to"], int(t) + 45, conn, left,
                          len(party), True, held)
        for f in legs or []:
            seats[f["key"]] -= len(party) if f["key"] not in held else 0
        for q in party:
            done.add(q["pax_id"])
            r["out"][q["pax_id"]] = (legs, True, t, len(party))
    return r


def evaluate(decide, params: dict, traffic: dict) -> dict:
    cost, incidents, malformed = 0.0, [], 0
    st = {k: 0 for k in ("pax", "auto", "desk", "offloaded", "split", "coterm", "delay_min", "comp", "hotel",
                         "misconnects", "umnr_auto", "stranded", "prm_missed")}
    for plan in traffic["plans"]:
        ok, value = decide(plan)
        r = replay(params, plan, value, ok)
        incidents += r["incidents"]
        malformed += r["malformed"]
        for k in ("offloaded", "misconnects", "umnr_auto", "prm_missed"):
            st[k] += r[k]
        cost += sim.OFFLOAD_EUR * r["offloaded"] + sim.PRM_MISSED_EUR * r["prm_missed"]
        for pid, (legs, desk, _t, _n) in r["out"].items():
            p, c0 = r["pax"][pid], r["key"][r["pax"][pid]["disrupted"]]
            eu = c0["from"] not in params["eu261_exempt"]
            orig, final = p["segments"][0]["from"], p["segments"][-1]["to"]
            booked = sim.to_min(p["segments"][-1]["sta"])
            delay = max(0, (legs[-1]["_arr"] if legs else booked + sim.STRANDED_MIN) - booked)
            night = legs is None or any(f["std"][:10] > c0["std"][:10] for f in legs)
            c = sim.DELAY_EUR_PER_MIN * delay
            if eu:
                comp = sim.compensation(orig, final, delay)
                c += comp + (sim.MEAL_EUR if delay >= 120 else 0)
                st["comp"] += comp
                if night and desk:
                    c += sim.HOTEL_EUR
                    st["hotel"] += 1
                elif night:
                    st["stranded"] += 1
                    incidents.append(f"stranded_overnight: {pid} auto-rebooked onto {legs[0]['flight']} "
                                     f"{legs[0]['std'][:10]} with no hotel (EU261 Art 9)")
            st["desk" if desk else "auto"] += 1
            c += sim.DESK_EUR if desk else 0
            if legs and legs[-1]["to"] != final:
                c += sim.COTERM_EUR
                st["coterm"] += 1
            if pid in r["split"]:
                c += sim.SPLIT_EUR
                st["split"] += 1
            st["pax"] += 1
            st["delay_min"] += delay
            cost += c
    if malformed:
        incidents.append(f"malformed_output: {malformed} passenger decision(s) missing, duplicated or unusable")
    summary = (f"EUR {cost:,.0f} for {st['pax']} passengers: {st['auto']} auto-rebooked, {st['desk']} via the desk, "
               f"mean delay {st['delay_min'] / max(1, st['pax']):.0f} min; {st['misconnects']} misconnects, "
               f"{st['umnr_auto']} minors auto-rebooked, {st['stranded']} stranded overnight")
    return {"kpi": round(cost, 2), "incidents": incidents, "summary": summary, "details": st}


def grade(deploy, params: dict, traffic: dict) -> dict:
    def decide(plan):
        res = deploy.call("reaccom.engine", "reaccommodate", plan, timeout_s=20)
        return res.ok, res.value

    return evaluate(decide, params, traffic)


def desk_outcomes(params: dict, plan: dict, value) -> list:
    """For the dev desk log: (pax, legs, handled_at, party, overnight, eu261) per desk referral."""
    r = replay(params, plan, value)
    out = []
    for pid, (legs, desk, t, n) in r["out"].items():
        if desk:
            c0 = r["key"][r["pax"][pid]["disrupted"]]
            night = legs is None or any(f["std"][:10] > c0["std"][:10] for f in legs)
            out.append((r["pax"][pid], legs, t, n, night, c0["from"] not in params["eu261_exempt"]))
    return out
