"""Re-accommodation after a cancellation: OCC's IRROPS console calls ``reaccommodate`` with the
day's cancellation plan as soon as a flight is cancelled (and again when a plan is revised).

Each passenger on a cancelled flight gets one decision:
  {"pax_id": ..., "action": "rebook", "segments": [flight keys from the plan's schedule]}
      the tool re-protects the passenger itself; Amadeus gets the new segments and the passenger an SMS
  {"pax_id": ..., "action": "desk", "reason": "..."}
      the passenger goes to the Customer Recovery desk queue (airport desk + call centre)

History: v1 (2023) did local passengers only. The connecting path (auto_scope "all") was written
for the 2024 pilot and parked after the pilot - see CHANGELOG.
"""

from __future__ import annotations

import json
from pathlib import Path

from .timeutil import local_date, minutes

RULES_PATH = Path(__file__).with_name("rules.json")


def load_rules(path: Path = RULES_PATH) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _index(schedule: list[dict]) -> dict[str, list[dict]]:
    by_route: dict[str, list[dict]] = {}
    for f in schedule:
        by_route.setdefault(f["from"] + "-" + f["to"], []).append(f)
    for flights in by_route.values():
        flights.sort(key=lambda f: minutes(f["std"]))
    return by_route


def _next_flight(by_route, frm, to, not_before, seats, same_day=None):
    for f in by_route.get(frm + "-" + to, []):
        if f["status"] != "OK" or minutes(f["std"]) < not_before or seats.get(f["key"], 0) < 1:
            continue
        if same_day and local_date(f["std"]) != same_day:
            return None
        return f
    return None


def reaccommodate(plan: dict) -> dict:
    rules = load_rules()
    by_route = _index(plan["schedule"])
    seats = {f["key"]: int(f.get("avail") or 0) for f in plan["schedule"]}
    cancelled = {c["key"]: c for c in plan["cancelled"]}
    decisions = []
    for pax in plan["passengers"]:
        cnl = cancelled[pax["disrupted"]]
        segs = pax["segments"]
        i = next(k for k, s in enumerate(segs) if s["key"] == pax["disrupted"])
        onward = segs[i + 1:]
        if rules.get("desk_if_any_ssr", True) and pax.get("ssr"):
            decisions.append({"pax_id": pax["pax_id"], "action": "desk", "reason": "SSR on booking"})
            continue
        if onward and rules.get("auto_scope", "local") != "all":
            decisions.append({"pax_id": pax["pax_id"], "action": "desk", "reason": "connecting passenger"})
            continue
        not_before = minutes(cnl["notice"]) + int(rules.get("min_lead_minutes", 45))
        same_day = local_date(cnl["std"]) if rules.get("same_day_only", True) else None
        first = _next_flight(by_route, cnl["from"], cnl["to"], not_before, seats, same_day)
        if first is None:
            decisions.append({"pax_id": pax["pax_id"], "action": "desk", "reason": "no seat on a same-day flight"})
            continue
        new = [first]
        if onward:
            # 2024 pilot: keep the onward flight if the new arrival still makes it, else the next one
            nxt = onward[0]
            ready = minutes(first["sta"]) + int(rules.get("mct_minutes", 40))
            if ready > minutes(nxt["std"]):
                alt = _next_flight(by_route, nxt["from"], nxt["to"], ready, seats, same_day)
                if alt is None:
                    decisions.append({"pax_id": pax["pax_id"], "action": "desk", "reason": "no onward seat"})
                    continue
                new.append(alt)
            else:
                new.append(nxt)
        for f in new:
            if f["key"] not in {s["key"] for s in segs}:
                seats[f["key"]] -= 1
        decisions.append({"pax_id": pax["pax_id"], "action": "rebook", "segments": [f["key"] for f in new]})
    return {"decisions": decisions}


if __name__ == "__main__":  # python3 -m reaccom.engine ../data/plans/IRR-20260112-CDG.json
    import sys
    out = reaccommodate(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
    acts = [d["action"] for d in out["decisions"]]
    print(f"{len(acts)} passengers: {acts.count('rebook')} rebooked, {acts.count('desk')} to the desk")
