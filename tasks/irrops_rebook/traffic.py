"""Traffic for irrops_rebook: dev history in the workspace, held-out and shadow disruption days.

Seeds live in separate namespaces ("dev:", "heldout:", "shadow:") and the days do not overlap
(dev: January and February 2026, shadow: from 3 March, held-out: 10 and 12 March), so no plan,
passenger id or PNR of the held-out traffic is ever in a workspace. No clock, no global RNG.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import random
from pathlib import Path

import grader  # noqa: E402  (siblings: the task folder is on sys.path while the core loads this module)
import sim

DEV_DAYS = [("2026-01-12", [("CDG", 0), ("CDG", 1), ("EDI", 1)], "IRR-20260112-CDG"),
            ("2026-01-27", [("AMS", 0), ("JFK", 0), ("MAN", 2), ("LGW", 2)], "IRR-20260127-WX"),
            ("2026-02-16", [("FRA", 0), ("LHR", 1), ("BOS", 1), ("MAD", 1)], "IRR-20260216-FRA")]
HELD_OUT_DAYS = [("2026-03-10", [("CDG", 0), ("MAN", 0), ("AMS", 1), ("BCN", 0), ("JFK", 0), ("GLA", 0)]),
                 ("2026-03-12", [("EDI", 0), ("LHR", 1), ("FRA", 0), ("BOS", 0), ("MAD", 1), ("BHX", 0)])]
SHADOW_PICKS = [[("LHR", 0), ("BHX", 0)], [("AMS", 0), ("GLA", 1)], [("CDG", 1), ("JFK", 1)]]
AGENTS = ["MZ", "KOD", "SFL", "PB", "JMcG", "RT", "AN"]


def _shares(params: dict) -> dict:
    return {"connect": 0.55, "coterm": float(params["coterm_share"]), "umnr": 0.03, "ypta": 0.03}


def held_out(params: dict, seed: int) -> dict:
    rng = random.Random(f"heldout:{seed}:{int(params.get('world_seed', 0))}:{params.get('traffic_salt', 0)}")
    plans = []
    for n, (day, picks) in enumerate(HELD_OUT_DAYS):
        plans.append(sim.plan(rng, params, day, picks, f"IRR-{day.replace('-', '')}-H{n}", float(params["tight"]),
                              _shares(params), 60001 + 5000 * n))
    return {"plans": plans}


def shadow(params: dict, day: int) -> dict:
    rng = random.Random(f"shadow:{day}:{int(params.get('world_seed', 0))}")
    d = f"2026-03-{3 + day:02d}"
    picks = SHADOW_PICKS[day % len(SHADOW_PICKS)]
    return {"plans": [sim.plan(rng, params, d, picks, f"IRR-{d.replace('-', '')}-S", float(params["tight"]),
                               _shares(params), 40001 + 1000 * day)], "day": d}


def _world_engine(build: Path):
    """The reaccom package as found in the workspace being built (what produced the history)."""
    import sys
    pkg_dir = build / "system" / "reaccom"
    name = "_irrops_world_reaccom"
    for m in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[m]
    spec = importlib.util.spec_from_file_location(name, pkg_dir / "__init__.py", submodule_search_locations=[str(pkg_dir)])
    pkg = importlib.util.module_from_spec(spec)
    sys.modules[name] = pkg
    spec.loader.exec_module(pkg)
    return importlib.import_module(name + ".engine")


def _note(rng: random.Random, p: dict, legs, booked_final: str, party: int, overnight: bool, eu: bool) -> str:
    bits = []
    if any(s.startswith("UMNR") for s in p["ssr"]):
        bits.append(rng.choice(["UM - handed to GS escort, guardian at dest re-notified, form amended",
                                "UMNR: rebooked + called the collecting adult, new flt on the UM form",
                                "unaccomp minor - escorted to T2 lounge, ground staff handover done"]))
    if legs and legs[-1]["to"] != booked_final:
        alt = legs[-1]["to"]
        bits.append(rng.choice([f"{booked_final} full til late, put on {alt} instead, ground transfer on us (Art 8(3))",
                                f"re-routed to {alt} (same city) - taxi/coach voucher issued",
                                f"{alt} not {booked_final} - pax fine with it, transfer costs covered per care policy"]))
    if party > 1:
        bits.append(rng.choice([f"kept party of {party} together, earlier flt only had {max(1, party - 2)} seat(s)",
                                f"family of {party} - waited for a flt with {party} seats rather than split",
                                f"PNR x{party} travelling together, did NOT split"]))
    if overnight and eu:
        bits.append(rng.choice(["hotel voucher Clayton DUB + dinner", "overnight - hotel + meal vouchers, transport",
                                "hotel (Radisson Blu arpt) + 2 meal vouchers", "o/n accom booked, EU261 leaflet handed"]))
    elif overnight:
        bits.append(rng.choice(["NA operated - pax referred to NorthAtlantic BOS handling for hotel",
                                "o/n in the US, NorthAtlantic care desk looks after accom (their AOC)"]))
    if not bits:
        bits.append(rng.choice(["rebooked", "rbkd next avail", "reprotected, SMS sent", "done - pax happy enough",
                                "rebkd, meal voucher", "pax rang call centre, rebooked", "re-protected onward too",
                                "queue 2h+ by the time we got to him", "pax already left desk - rebkd by phone"]))
    return "; ".join(bits)


def dev(params: dict, out: Path) -> None:
    """data/plans/*.json (three past cancellation plans, as the console sent them), logs/reaccom.log
    (what the tool decided), data/desk_log.csv (what the recovery desk did with the referrals)."""
    rng = random.Random(f"dev:{int(params.get('world_seed', 0))}")
    hist = dict(params)
    eng = _world_engine(out)
    (out / "data" / "plans").mkdir(parents=True, exist_ok=True)
    (out / "logs").mkdir(parents=True, exist_ok=True)
    log_lines, desk_rows = [], []
    for n, (day, picks, pid) in enumerate(DEV_DAYS):
        plan = sim.plan(rng, hist, day, picks, pid, float(params["tight"]), _shares(params), 10001 + 4000 * n)
        (out / "data" / "plans" / f"{pid}.json").write_text(json.dumps(plan, indent=1) + "\n", encoding="utf-8")
        res = eng.reaccommodate(json.loads(json.dumps(plan)))
        got = {d["pax_id"]: d for d in res["decisions"]}
        log_lines.append(f"{plan['issued_at']} INFO  reaccom  plan {pid} received: {len(plan['cancelled'])} cancelled, "
                         f"{len(plan['passengers'])} pax (rules v1.4 scope=local)")
        for c in plan["cancelled"]:
            mine = [p for p in plan["passengers"] if p["disrupted"] == c["key"]]
            reb = sum(1 for p in mine if got[p["pax_id"]]["action"] == "rebook")
            log_lines.append(f"{c['notice']} INFO  reaccom  {c['flight']} {c['from']}-{c['to']} {c['std'][:10]} CNL: "
                             f"{reb}/{len(mine)} auto-rebooked, {len(mine) - reb} to desk")
            for p in mine[:: max(1, len(mine) // 9)]:
                d = got[p["pax_id"]]
                tail = ",".join(d.get("segments", [])) if d["action"] == "rebook" else d.get("reason", "")
                log_lines.append(f"{c['notice']} DEBUG reaccom    {p['pax_id']} {p['pnr']} "
                                 f"{'>'.join(s['to'] for s in p['segments'])} ssr={'|'.join(p['ssr']) or '-'} "
                                 f"-> {d['action']} {tail}")
        # what the desk did: the grader's desk model on the tool's referrals
        ev = grader.desk_outcomes(hist, plan, res)
        for row in ev:
            p, legs, t, party, night, eu = row
            if rng.random() < 0.35 and not (legs and (legs[-1]["to"] != p["segments"][-1]["to"] or party > 1)) \
                    and not any(s.startswith("UMNR") for s in p["ssr"]):
                continue
            desk_rows.append([sim.local(int(t), "DUB")[:16].replace("T", " "), rng.choice(AGENTS), p["pnr"],
                              p["name"], p["segments"][0]["flight"].replace(" ", ""),
                              " ".join(f["flight"].replace(" ", "") + "/" + f["std"][8:10] for f in legs or []) or "-",
                              _note(rng, p, legs, p["segments"][-1]["to"], party, night, eu)])
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["handled_at", "agent", "pnr", "pax", "orig_flt", "new_itin", "notes"])
    w.writerows(sorted(desk_rows))
    (out / "data" / "desk_log.csv").write_text(buf.getvalue(), encoding="utf-8")
    (out / "logs" / "reaccom.log").write_text("\n".join(sorted(log_lines)) + "\n", encoding="utf-8")
