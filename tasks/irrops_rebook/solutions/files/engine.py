"""Re-accommodation after a cancellation: OCC's IRROPS console calls ``reaccommodate`` with the
day's cancellation plan as soon as a flight is cancelled (and again when a plan is revised).

Each passenger on a cancelled flight gets one decision:
  {"pax_id": ..., "action": "rebook", "segments": [flight keys from the plan's schedule]}
  {"pax_id": ..., "action": "desk", "reason": "..."}

v2: the whole remaining journey is re-protected, not just the cancelled leg. Every connection at
the hub respects the Dublin MCT for its terminal pair (rules.json "mct", filed by the station);
unaccompanied minors (and the SSRs in "desk_ssr") always go to the desk; an EU261 passenger whose
re-protection means a night away goes to the desk, which issues the hotel; a booking travels
together; the same city's other airport counts when it is earlier (EU261 Art 8(3), transfer on us).
"""

from __future__ import annotations

import json
from pathlib import Path

from .timeutil import local_date, minutes

RULES_PATH = Path(__file__).with_name("rules.json")


def load_rules(path: Path = RULES_PATH) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def connection_minutes(rules: dict, arr: dict, dep: dict, assisted: bool = False) -> int:
    """MCT at the hub between an arriving and a departing flight (terminal pair, US preclearance),
    plus the assistance handover for passengers with a PRM SSR."""
    table = rules["mct"]
    a = arr.get("arr_terminal") or "T2"
    extra = int(rules.get("prm_extra_minutes", 0)) if assisted else 0
    if dep.get("region") == "US":
        return int(table["US-from-" + a]) + extra
    return int(table[f"{a}-{dep.get('dep_terminal') or 'T2'}"]) + extra


def _index(schedule: list[dict]) -> dict[str, list[dict]]:
    by_from: dict[str, list[dict]] = {}
    for f in schedule:
        f["_dep"], f["_arr"] = minutes(f["std"]), minutes(f["sta"])
        by_from.setdefault(f["from"], []).append(f)
    for flights in by_from.values():
        flights.sort(key=lambda f: f["_dep"])
    return by_from


def best_itinerary(rules, by_from, origin, final, not_before, seats, need, held, assisted=False):
    """Earliest arrival at ``final`` (or a same-city airport, 30 min handicap for the transfer)
    in one leg or two via the hub, with ``need`` seats on every leg the booking does not hold."""
    hub = rules.get("hub", "DUB")
    targets = {final, *rules.get("co_terminals", {}).get(final, [])}

    def ok(f):
        return f["status"] == "OK" and (f["key"] in held or seats.get(f["key"], 0) >= need)

    def rank(c):
        return (c[-1]["_arr"] + (30 if c[-1]["to"] != final else 0), len(c))
    best = None
    for f in by_from.get(origin, []):
        if f["_dep"] < not_before or not ok(f):
            continue
        if best and f["_dep"] > rank(best)[0]:
            break
        if f["to"] in targets:
            best = min([best, [f]], key=rank) if best else [f]
        elif f["to"] == hub:
            for g in by_from.get(hub, []):
                if g["to"] in targets and ok(g) and g["_dep"] >= f["_arr"] + connection_minutes(rules, f, g, assisted):
                    best = min([best, [f, g]], key=rank) if best else [f, g]
                    break
    return best


def reaccommodate(plan: dict) -> dict:
    rules = load_rules()
    by_from = _index(plan["schedule"])
    # avail is sale availability against AU (it includes the overbooking allowance): protect against
    # the seats that physically exist, or the gate offloads what we rebooked
    seats = {f["key"]: max(0, min(int(f.get("avail") or 0), int(f["cap"]) - int(f["booked"])))
             if rules.get("physical_seats", True) and "cap" in f else int(f.get("avail") or 0) for f in plan["schedule"]}
    cancelled = {c["key"]: c for c in plan["cancelled"]}
    desk_ssr = tuple(rules.get("desk_ssr", ["UMNR"]))
    exempt = set(rules.get("eu261_exempt_origins", []))
    together = rules.get("keep_party_together", True)
    prm = set(rules.get("prm_ssr", []))
    groups: dict[tuple, list[dict]] = {}
    for pax in plan["passengers"]:
        k = (pax["pnr"], pax["disrupted"]) if together else (pax["pax_id"],)
        groups.setdefault(k, []).append(pax)
    decisions = {}
    for party in groups.values():
        lead = party[0]
        cnl = cancelled[lead["disrupted"]]
        minors = [p for p in party if any(s.startswith(desk_ssr) for s in p.get("ssr", []))]
        for p in minors:
            decisions[p["pax_id"]] = {"pax_id": p["pax_id"], "action": "desk", "reason": "UMNR/YP handover"}
        party = [p for p in party if p not in minors]
        if not party:
            continue
        segs = lead["segments"]
        i = next(k for k, s in enumerate(segs) if s["key"] == lead["disrupted"])
        held = {s["key"] for s in segs[i + 1:]}
        not_before = minutes(cnl["notice"]) + int(rules.get("min_lead_minutes", 45))
        assisted = any(s[:4] in prm for p in party for s in p.get("ssr", []))
        new = best_itinerary(rules, by_from, segs[i]["from"], segs[-1]["to"], not_before, seats, len(party), held,
                             assisted)
        reason = None
        if new is None:
            reason = "no re-protection in the plan window"
        elif cnl["from"] not in exempt and any(local_date(f["std"]) > local_date(cnl["std"]) for f in new):
            reason = "overnight - EU261 care (hotel)"
        for p in party:
            if reason:
                decisions[p["pax_id"]] = {"pax_id": p["pax_id"], "action": "desk", "reason": reason}
            else:
                decisions[p["pax_id"]] = {"pax_id": p["pax_id"], "action": "rebook", "segments": [f["key"] for f in new]}
        if not reason:
            for f in new:
                if f["key"] not in held:
                    seats[f["key"]] -= len(party)
    order = {"UMNR/YP handover": 0, "overnight - EU261 care (hotel)": 1}
    out = [decisions[p["pax_id"]] for p in plan["passengers"]]
    out.sort(key=lambda d: order.get(d.get("reason"), 2))
    return {"decisions": out}


if __name__ == "__main__":  # python3 -m reaccom.engine ../data/plans/IRR-20260112-CDG.json
    import sys
    res = reaccommodate(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
    acts = [d["action"] for d in res["decisions"]]
    print(f"{len(acts)} passengers: {acts.count('rebook')} rebooked, {acts.count('desk')} to the desk")
