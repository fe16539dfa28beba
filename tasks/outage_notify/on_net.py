"""The Sierra Foothill Power network model shared by traffic, grader, trial and solutions.

Six 12 kV feeders, each the same radial shape (sections 01..07 behind a breaker, two reclosers,
three fuses and a sectionalising switch ahead of the tail), joined tail to tail by normally-open
ties. Customers are drawn per section from a seed. ``as_operated`` walks the network from every
substation breaker over closed devices and gives each section the devices on its path, so the
customers out after a lockout are the ones whose path holds the device that opened.

Named so it never collides with another task's helper module in ``sys.modules``.
"""

from __future__ import annotations

import random
from collections import deque
from datetime import datetime

FEEDERS = ["ORC-1201", "ORC-1202", "SLV-2101", "SLV-2102", "MBK-3101", "MBK-3102"]
SUBSTATION = {"ORC": "Orchard", "SLV": "Silverton", "MBK": "Millbrook"}

# section shape: (suffix, parent suffix, device kind, device id pattern)
SHAPE = [("01", None, "breaker", "CB-{n}"), ("02", "01", "recloser", "R-{n}A"),
         ("03", "01", "fuse", "F-{n}-03"), ("04", "02", "recloser", "R-{n}B"),
         ("05", "04", "fuse", "F-{n}-05"), ("06", "04", "switch", "SW-{n}-06"),
         ("07", "06", "fuse", "F-{n}-07")]

# normally-open ties between tail sections (tie, section a, section b, SCADA-telemetered)
TIES = [("T-101", "SLV2101-06", "ORC1202-06", False), ("T-102", "MBK3101-06", "SLV2102-06", False),
        ("T-103", "MBK3102-06", "ORC1201-06", True), ("T-104", "ORC1201-04", "MBK3102-04", False)]

STREETS = {
    "ORC1201": [["Orchard Ln", "Gold Flat Rd"], ["Ridge Rd", "Zion St"], ["Cement Hill Rd"], ["Nevada St", "Bost Ave"],
                ["Mill St"], ["Loma Rica Dr", "Airport Rd"], ["Brunswick Industrial Ct"]],
    "ORC1202": [["Idaho Maryland Rd"], ["Sutton Way", "Dorsey Dr"], ["Whispering Pines Ln"], ["Squirrel Creek Rd"],
                ["Rough and Ready Hwy"], ["Hidden Valley Rd"], ["Newtown Rd"]],
    "SLV2101": [["Silverton Rd"], ["Lower Colfax Rd"], ["Quail Ridge Ct"], ["Greenhorn Rd", "Clear Creek Rd"],
                ["Banner Lava Cap Rd"], ["Birch Hollow Rd", "Manzanita Way"], ["Old Tunnel Rd"]],
    "SLV2102": [["Hwy 174"], ["Chicago Park Rd"], ["Rattlesnake Rd"], ["Peardale Rd"], ["Buckeye Rd"],
                ["Lake Arthur Rd", "Dog Bar Rd"], ["Cedar Ridge Dr"]],
    "MBK3101": [["Millbrook Rd"], ["Alta Sierra Dr"], ["Norlene Way"], ["Magnolia Rd"], ["Wolf Creek Rd"],
                ["Lime Kiln Rd", "Crestview Dr"], ["Ponderosa Pines Dr"]],
    "MBK3102": [["Bennett St"], ["Whiting St"], ["Berryhill Dr"], ["McCourtney Rd"], ["Kidder Ct"],
                ["Litton Business Park"], ["Railroad Ave Ind Park"]],
}


def fid(feeder: str) -> str:
    """'ORC-1201' -> 'ORC1201'."""
    return feeder.replace("-", "")


def devices() -> list[dict]:
    """Every device: id, kind, up (upstream section or substation source), down, normal state, scada."""
    out = []
    for f in FEEDERS:
        code, num = fid(f), f.split("-")[1]
        for suf, parent, kind, pat in SHAPE:
            up = f"SRC:{f}" if parent is None else f"{code}-{parent}"
            out.append({"id": pat.format(n=num), "kind": kind, "up": up, "down": f"{code}-{suf}",
                        "normal": "closed", "scada": "Y" if kind in ("breaker", "recloser") or (
                            kind == "switch" and code == "MBK3102") else "N", "feeder": f})
    for tie, a, b, scada in TIES:
        out.append({"id": tie, "kind": "tie", "up": a, "down": b, "normal": "open", "scada": "Y" if scada else "N",
                    "feeder": ""})
    return out


def sections() -> list[str]:
    return [f"{fid(f)}-{suf}" for f in FEEDERS for suf, *_ in SHAPE]


def as_operated(state: dict[str, str]) -> dict[str, dict]:
    """Walk from every breaker over closed devices. ``state`` maps device id -> 'open'|'closed' for
    devices not in their normal state. Returns section -> {feeder, path: [device ids]}; a section
    reached by no closed path is absent (dead)."""
    devs = devices()
    closed = {d["id"]: state.get(d["id"], d["normal"]) == "closed" for d in devs}
    adj: dict[str, list[tuple[str, str]]] = {}
    for d in devs:
        if closed[d["id"]]:
            adj.setdefault(d["up"], []).append((d["id"], d["down"]))
            adj.setdefault(d["down"], []).append((d["id"], d["up"]))
    out: dict[str, dict] = {}
    for f in FEEDERS:
        q = deque([(f"SRC:{f}", [])])
        seen = {f"SRC:{f}"}
        while q:
            node, path = q.popleft()
            for dev, nxt in adj.get(node, []):
                if nxt in seen or nxt.startswith("SRC:"):
                    continue
                seen.add(nxt)
                out[nxt] = {"feeder": f, "path": path + [dev]}
                q.append((nxt, path + [dev]))
    return out


def transfer_state(transfers: list[str]) -> dict[str, str]:
    """Device positions for standing transfers written 'T-101:R-2101B': the tie closed and the
    named device opened, so everything between them is carried on the feeder across the tie."""
    st: dict[str, str] = {}
    for tr in transfers:
        tie, opened = tr.split(":")
        st[tie] = "closed"
        st[opened] = "open"
    return st


def customers(seed: int, params: dict) -> list[dict]:
    """The GIS service-point extract (normal state): account, premise, section, feeder, phone,
    phone type, medical code. Seeded; LS customers are kept off the SCADA tail (industrial park)."""
    rng = random.Random(f"customers:{seed}")
    ls_share, mb_share = float(params.get("ls_share", 0.014)), float(params.get("mb_share", 0.05))
    ll_share = float(params.get("landline_share", 0.09))
    out = []
    acct = 3100417
    for f in FEEDERS:
        code = fid(f)
        ls_left = 3                                     # certified LS are few per feeder (forced ones aside)
        for i, (suf, *_rest) in enumerate(SHAPE):
            sec = f"{code}-{suf}"
            industrial = code == "MBK3102" and suf in ("06", "07")
            n = rng.randint(18, 30) if industrial else rng.randint(28, 52)
            if sec == "SLV2101-06":
                n = 46
            for k in range(n):
                acct += rng.randint(3, 41)
                street = rng.choice(STREETS[code][i])
                med = ""
                if not industrial:
                    r = rng.random()
                    med = "LS" if r < ls_share and ls_left > 0 else ("MB" if r < ls_share + mb_share else "")
                    ls_left -= med == "LS"
                if sec in ("SLV2101-06", "MBK3101-05", "SLV2102-05") and k in (5, 17):
                    med = "LS"                          # e.g. Birch Hollow Rd: certified LS, oxygen
                ptype = "landline" if rng.random() < (ll_share * (1.6 if med else 1.0)) else "mobile"
                out.append({"account": str(acct), "premise": f"{rng.randint(10, 21999)} {street}",
                            "section": sec, "transformer": f"TX-{code[-4:]}-{suf}{rng.randint(1, 9)}",
                            "feeder": f, "phone": f"530-{rng.randint(200, 989)}-{rng.randint(0, 9999):04d}",
                            "phone_type": ptype, "med_code": med,
                            "kind": "C&I" if industrial else rng.choice(["RES"] * 9 + ["SMB"])})
    return out


def transfer_began(params: dict, transfer: str) -> datetime:
    """When the control room switched a standing transfer in (``transfer_since``, local time; a
    transfer without a date has been in since before any traffic)."""
    when = (params.get("transfer_since") or {}).get(transfer)
    return datetime.fromisoformat(when) if when else datetime.min


def replay(evs: list[dict], params: dict, custs: list[dict]):
    """Yield (event, affected customers as operated at that moment) for every LOCKOUT, following
    the standing transfers of the variant (each from the time it was switched in) and the SCADA
    switch operations in the feed."""
    pending = sorted((transfer_began(params, t), t) for t in params.get("transfers") or [])
    state: dict[str, str] = {}
    topo = as_operated(state)
    by_sec: dict[str, list[dict]] = {}
    for c in custs:
        by_sec.setdefault(c["section"], []).append(c)
    for ev in evs:
        now = datetime.fromisoformat(ev["ts"][:19])
        if pending and pending[0][0] <= now:
            while pending and pending[0][0] <= now:
                state.update(transfer_state([pending.pop(0)[1]]))
            topo = as_operated(state)
        if ev["type"] == "SWITCH":
            state[ev["device"]] = ev["state"]
            topo = as_operated(state)
        elif ev["type"] == "LOCKOUT":
            secs = [s for s, v in topo.items() if ev["device"] in v["path"]]
            yield ev, [c for s in secs for c in by_sec.get(s, [])]


def gis_affected(device: str, custs: list[dict]) -> list[dict]:
    """What the GIS (normal state) says is behind a device."""
    topo = as_operated({})
    secs = {s for s, v in topo.items() if device in v["path"]}
    return [c for c in custs if c["section"] in secs]


def as_found_plan(events: list[dict], custs: list[dict]) -> list[dict]:
    """What ONS as found (v1.4, world/system/ons) plans for a batch: every LOCKOUT traced on the
    GIS normal state, an agent call for every LS and MB customer behind it in account order, then a
    text to everyone behind it. The trial prices the day with it for comparison."""
    out = []
    for ev in events:
        if ev.get("type") != "LOCKOUT":
            continue
        hit = gis_affected(ev["device"], custs)
        calls = sorted((c for c in hit if c["med_code"] in ("LS", "MB")), key=lambda c: int(c["account"]))
        out += [{"event_id": ev["event_id"], "account": c["account"], "channel": "agent"} for c in calls]
        out += [{"event_id": ev["event_id"], "account": c["account"], "channel": "sms"} for c in hit]
    return out


def is_night(hour: int, params: dict) -> bool:
    return hour >= int(params.get("night_from", 22)) or hour < int(params.get("night_to", 7))


class CallQueue:
    """The outbound team: ``agents_day`` agents 07-22, ``agents_night`` overnight, ``call_min`` a call."""

    def __init__(self, params: dict):
        self.p = params
        self.free = [None] * max(int(params.get("agents_day", 4)), 1)
        self.call_min = int(params.get("call_min", 5))

    def start(self, ready):
        from datetime import timedelta

        best = None
        for i, f in enumerate(self.free):
            t = ready if f is None or f < ready else f
            for _ in range(40):                          # roll past hours this agent is not on shift
                on = i < int(self.p.get("agents_night", 2)) if is_night(t.hour, self.p) else i < int(self.p.get("agents_day", 4))
                if on:
                    break
                t = (t + timedelta(hours=1)).replace(minute=0, second=0)
            if best is None or t < best[0]:
                best = (t, i)
        t, i = best
        self.free[i] = t + timedelta(minutes=self.call_min)
        return t
