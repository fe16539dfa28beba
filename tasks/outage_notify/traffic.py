"""Traffic for outage_notify: the November history in the workspace, held-out and shadow OMS events.

Seeds live in separate namespaces ("dev:", "heldout:", "shadow:"); event ids are disjoint too
(dev EV-55xxxxx, shadow EV-57xxxxx, held-out EV-58xxxxx). The GIS extract is the same for all
three (customers(world_seed)). Nothing here reads the clock or the global RNG.
"""

from __future__ import annotations

import csv
import io
import json
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

from fdegym_env.tasklib.timeutil import parse_iso

from . import on_net

TZ = "-08:00"
DEV_START = datetime(2026, 11, 2)        # Monday; four weeks of history
HELD_OUT_START = datetime(2026, 12, 7)   # the two weeks after hand-over
SHADOW_START = datetime(2026, 12, 3)
PARENT = {"02": "01", "03": "01", "04": "02", "05": "04", "07": "04"}   # fuse/recloser -> device upstream
KIND_W = [("01", 0.12), ("02", 0.14), ("03", 0.2), ("04", 0.14), ("05", 0.2), ("07", 0.2)]


def fmt(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S") + TZ


def parse(ts: str) -> datetime:
    """Local wall-clock time of a feed timestamp (naive; the feed is all -08:00)."""
    return parse_iso(ts[:19])


def device_of(feeder: str, suf: str) -> str:
    for s, _p, _k, pat in on_net.SHAPE:
        if s == suf:
            return pat.format(n=feeder.split("-")[1])
    raise KeyError(suf)


def _lockouts(rng: random.Random, params: dict, start: datetime, days: int, n: int, forced: list) -> list[dict]:
    """Lockout incidents: (time, feeder, section suffix); some escalate to the device upstream."""
    esc = float(params.get("escalation_share", 0.3))
    night_share = float(params.get("night_share", 0.3))
    held_open = {t.split(":")[1] for t in params.get("transfers") or []}
    picks = [f for f in forced if device_of(f[1], f[2]) not in held_open]
    while len(picks) < n:
        suf = rng.choices([k for k, _ in KIND_W], [w for _, w in KIND_W])[0]
        feeder = rng.choice(on_net.FEEDERS)
        if device_of(feeder, suf) not in held_open:
            picks.append((None, feeder, suf))
    out = []
    for when, feeder, suf in picks:
        if when is None:
            day = rng.randrange(days)
            hour = rng.choice([22, 23, 0, 1, 2, 3, 4, 5, 6]) if rng.random() < night_share else rng.randrange(7, 22)
            when = start + timedelta(days=day, hours=hour, minutes=rng.randrange(60), seconds=rng.randrange(60))
        out.append({"t": when, "feeder": feeder, "suf": suf,
                    "escalate": suf in PARENT and rng.random() < esc, "esc_min": rng.randint(6, 24),
                    "restore_min": rng.randint(38, 210), "src": rng.choice(["SCADA", "SCADA", "AMI", "TCC"])
                    if suf in ("03", "05", "07") else "SCADA"})
    return out


def events(rng: random.Random, params: dict, start: datetime, days: int, n: int, first_ev: int,
           first_inc: int, forced: list = (), switching: list = ()) -> list[dict]:
    """OMS event rows, oldest first. ``switching``: (time, device, state) SCADA operations."""
    rows = []
    held_open = {t.split(":")[1] for t in params.get("transfers") or []}
    for k, lo in enumerate(sorted(_lockouts(rng, params, start, days, n, list(forced)), key=lambda x: x["t"])):
        inc = f"OMS-26-{first_inc + k:05d}"
        dev = device_of(lo["feeder"], lo["suf"])
        rows.append({"ts": lo["t"], "incident": inc, "type": "LOCKOUT", "device": dev, "source": lo["src"],
                     "feeder": lo["feeder"]})
        last = lo["t"]
        if lo["escalate"]:
            last = lo["t"] + timedelta(minutes=lo["esc_min"], seconds=rng.randrange(60))
            up = device_of(lo["feeder"], PARENT[lo["suf"]])
            rows.append({"ts": last, "incident": inc, "type": "LOCKOUT",
                         "device": up if up not in held_open else device_of(lo["feeder"], "01"), "source": "SCADA",
                         "feeder": lo["feeder"]})
        if lo["suf"] in ("02", "04") and rng.random() < 0.5:
            rows.append({"ts": lo["t"] - timedelta(minutes=rng.randint(1, 3)), "incident": "", "type": "MOMENTARY",
                         "device": dev, "source": "SCADA", "feeder": lo["feeder"]})
        rows.append({"ts": last + timedelta(minutes=lo["restore_min"]), "incident": inc, "type": "RESTORE",
                     "device": rows[-1]["device"] if rows[-1]["type"] == "LOCKOUT" else dev, "source": "SCADA",
                     "feeder": lo["feeder"]})
    for when, dev, state in switching:
        feeder = next((d["feeder"] for d in on_net.devices() if d["id"] == dev), "")
        rows.append({"ts": when, "incident": "", "type": "SWITCH", "device": dev, "state": state, "source": "SCADA",
                     "feeder": feeder})
    for _ in range(max(2, n // 5)):                     # reclose-and-hold momentaries on their own
        f = rng.choice(on_net.FEEDERS)
        ts = start + timedelta(days=rng.randrange(days), hours=rng.randrange(24), minutes=rng.randrange(60))
        suf = rng.choice(["02", "04"])
        if device_of(f, suf) in held_open:              # held open by a standing transfer: it cannot trip
            suf = "02" if suf == "04" else "04"
        rows.append({"ts": ts, "incident": "", "type": "MOMENTARY", "device": device_of(f, suf),
                     "source": "SCADA", "feeder": f})
    rows.sort(key=lambda r: r["ts"])
    out = []
    for i, r in enumerate(rows):
        ev = {"event_id": f"EV-{first_ev + i * 3 + rng.randrange(3)}", "incident": r["incident"], "ts": fmt(r["ts"]),
              "type": r["type"], "device": r["device"], "source": r["source"], "feeder": r["feeder"]}
        if "state" in r:
            ev["state"] = r["state"]
        out.append(ev)
    return out


def _scada_transfer(params: dict, start: datetime, back: datetime) -> list:
    """The telemetered transfer of the industrial-park tail (MBK-3102 onto ORC-1201 via T-103)."""
    if not params.get("scada_transfer", True):
        return []
    return [(start, "T-103", "closed"), (start + timedelta(seconds=40), "SW-3102-06", "open"),
            (back, "SW-3102-06", "closed"), (back + timedelta(seconds=35), "T-103", "open")]


def held_out(params: dict, seed: int) -> dict:
    """Two weeks of OMS events after hand-over, one batch per week."""
    rng = random.Random(f"heldout:{seed}:{int(params.get('world_seed', 0))}")
    n = int(params.get("lockouts_per_week", 22))
    sw_on = HELD_OUT_START + timedelta(days=5, hours=9, minutes=12)
    sw_off = HELD_OUT_START + timedelta(days=8, hours=15, minutes=40)
    switching = _scada_transfer(params, sw_on, sw_off)
    weeks = []
    for w in range(2):
        w0 = HELD_OUT_START + timedelta(days=7 * w)
        forced = []
        for f in on_net.FEEDERS:                       # every feeder loses its trunk at least once a week
            for suf in rng.sample(["01", "02", "04"], 1):
                forced.append((w0 + timedelta(days=rng.randrange(7), hours=rng.randrange(24), minutes=rng.randrange(60)),
                               f, suf))
        for f in ("ORC-1201", "MBK-3102"):             # and the SCADA-transferred tail sees some
            lo = max(sw_on, w0) + timedelta(hours=2)
            hi = min(sw_off, w0 + timedelta(days=7)) - timedelta(hours=2)
            if hi > lo:
                forced.append((lo + (hi - lo) * rng.random(), f, rng.choice(["01", "02", "04"])))
        sw = [s for s in switching if w0 <= s[0] < w0 + timedelta(days=7)]
        weeks.append(events(rng, params, w0, 7, n, 5800000 + 20000 * w, 8100 + 400 * w, forced, sw))
    return {"weeks": weeks}


def shadow(params: dict, day: int) -> dict:
    """One trial day of live OMS events, mirrored into a shadow ONS (no texts go out)."""
    rng = random.Random(f"shadow:{day}:{int(params.get('world_seed', 0))}")
    d0 = SHADOW_START + timedelta(days=day)
    forced = [(d0 + timedelta(hours=rng.randrange(24), minutes=rng.randrange(60)), f, rng.choice(["01", "02", "04"]))
              for f in on_net.FEEDERS]
    return {"weeks": [events(rng, params, d0, 1, 9, 5700000 + 300 * day, 7900 + 20 * day, forced)],
            "day": d0.strftime("%a %d %b")}


# ----------------------------------------------------------------------------- the dev workspace

def _csv(rows: list[dict], cols: list[str]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def dev(params: dict, out: Path) -> None:
    """Write the GIS extract into system/ and November's history into data/ and logs/."""
    seed = int(params.get("world_seed", 0))
    custs = on_net.customers(seed, params)
    gx = out / "system" / "ons" / "gis_extract"
    gx.mkdir(parents=True, exist_ok=True)
    (gx / "devices.csv").write_text(_csv(on_net.devices(), ["id", "kind", "up", "down", "normal", "scada", "feeder"]),
                                    encoding="utf-8")
    (gx / "customers.csv").write_text(_csv(custs, ["account", "premise", "section", "transformer", "feeder", "phone",
                                                   "phone_type", "med_code", "kind"]), encoding="utf-8")
    rng = random.Random(f"dev:{seed}")
    storm = datetime(2026, 11, 19, 16, 5)
    switching = _scada_transfer(params, storm, storm + timedelta(hours=29, minutes=18))
    forced = []
    for f in on_net.FEEDERS:
        for suf in ("01", "02", "04"):
            forced.append((DEV_START + timedelta(days=rng.randrange(2, 28), hours=rng.randrange(24),
                                                 minutes=rng.randrange(60)), f, suf))
    forced += [(storm + timedelta(hours=h), f, s) for h, f, s in
               [(1.2, "ORC-1201", "02"), (3.5, "MBK-3102", "01"), (6.1, "ORC-1201", "04"), (9.8, "SLV-2102", "03")]]
    evs = events(rng, params, DEV_START, 28, 80, 5500000, 6900, forced, switching)
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "data" / "oms_events_2026-11.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in evs), encoding="utf-8")
    from . import on_history  # texture writer, dev only

    on_history.write(out, params, custs, evs, rng)


if __name__ == "__main__":  # quick look: python3 traffic.py
    ho = held_out({}, 7301)
    sys.stdout.write(f"{[len(w) for w in ho['weeks']]} events\n")
