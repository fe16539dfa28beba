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

from . import grader, sim

DEV_DAYS = [("2026-01-12", [("CDG", 0), ("CDG", 1), ("EDI", 1)], "IRR-20260112-CDG"),
            ("2026-01-27", [("AMS", 0), ("JFK", 0), ("MAN", 2), ("LGW", 2)], "IRR-20260127-WX"),
            ("2026-02-16", [("FRA", 0), ("LHR", 1), ("BOS", 1), ("MAD", 1)], "IRR-20260216-FRA")]
HELD_OUT_DAYS = [("2026-03-10", [("CDG", 0), ("MAN", 0), ("AMS", 1), ("BCN", 0), ("JFK", 0), ("GLA", 0)]),
                 ("2026-03-12", [("EDI", 0), ("LHR", 1), ("FRA", 0), ("BOS", 0), ("MAD", 1), ("BHX", 0)])]
SHADOW_PICKS = [[("LHR", 0), ("BHX", 0)], [("AMS", 0), ("GLA", 1)], [("CDG", 1), ("JFK", 1)]]
UMNR_DEV = 0.08
ACMI_STATIONS = ("BOS", "JFK")   # flown by NorthAtlantic under the ACMI wet-lease (mail/FW_bos_wetlease.txt)
ACMI_ENDED = "2026-02-01"        # where the wet-lease ended (variant own_metal_us): on 31 January
AGENTS = ["MZ", "KOD", "SFL", "PB", "JMcG", "RT", "AN"]


def _shares(params: dict) -> dict:
    return {"connect": 0.55, "coterm": float(params["coterm_share"]), "umnr": 0.03, "ypta": 0.03}


def _dev_shares(params: dict) -> dict:
    """The three past days: January and February half-term travel, so more children flying alone
    than on an average day (each of the three plans has some UMNR and YPTA bookings to look at)."""
    return dict(_shares(params), umnr=UMNR_DEV)


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


def _desk_outcomes(params: dict, plan: dict, value) -> list:
    """(pax, legs, handled_at, party, overnight, eu261, where the night is spent) per desk referral, by the
    grader's desk model."""
    r = grader.replay(params, plan, value)
    out = []
    for pid, (legs, desk, t, n) in r["out"].items():
        if desk:
            c0 = r["key"][r["pax"][pid]["disrupted"]]
            held = {s["key"] for s in r["pax"][pid]["segments"]}
            night = sim.night_away(legs, c0, held)
            out.append((r["pax"][pid], legs, t, n, night, c0["from"] not in params["eu261_exempt"],
                        stranded_at(legs, c0, held)))
    return out


# Airport hotels the desk books where the passenger spends the night: (first choice, by name alone -
# the note adds the airport), its overflow, two more, last resort
HOTELS = {
    "DUB": ("Clayton", "Crowne Plaza Santry", "Radisson Blu arpt", "Maldron arpt", "Carlton"),
    "LHR": ("Sofitel T5", "Hilton T4", "Premier Inn Bath Rd", "Holiday Inn Ariel", "Travelodge Heathrow Central"),
    "LGW": ("Sofitel N Terminal", "Hilton S Terminal", "Premier Inn LGW", "Bloc Hotel", "Courtyard LGW"),
    "MAN": ("Holiday Inn Express T1", "Crowne Plaza MAN arpt", "Hilton MAN arpt", "Radisson Blu MAN", "Travelodge MAN arpt"),
    "EDI": ("Hampton by Hilton", "Moxy EDI arpt", "Premier Inn EDI arpt", "Courtyard EDI West", "Holiday Inn Express EDI arpt"),
    "CDG": ("Novotel", "Pullman CDG", "Hilton CDG", "citizenM CDG", "ibis CDG Roissypole"),
    "AMS": ("Steigenberger", "Hilton Schiphol", "citizenM Schiphol", "Moxy Schiphol", "ibis Schiphol"),
    "FRA": ("Sheraton", "Hilton FRA arpt", "Hyatt Place FRA", "Moxy FRA arpt", "NH FRA Moerfelden"),
    "MAD": ("Auditorium", "Hilton MAD arpt", "Barajas Hotel", "Melia Barajas", "ibis Barajas"),
    "BCN": ("Tryp", "Hesperia Del Mar", "B&B Hotel BCN arpt", "Hyatt Regency Tower", "ibis BCN arpt"),
    "BHX": ("Holiday Inn Express NEC", "Moxy NEC", "Crowne Plaza NEC", "Hilton NEC", "Travelodge BHX arpt"),
    "GLA": ("Holiday Inn GLA arpt", "Courtyard GLA arpt", "Premier Inn GLA arpt", "Travelodge GLA arpt", "Ramada Paisley"),
    "ORY": ("Hilton Orly", "Pullman Rungis", "Ibis Orly", "Mercure Orly", "B&B Hotel Orly"),
    "FCO": ("Hilton Fiumicino", "Courtyard Fiumicino", "Best Western Fiumicino", "Isola Sacra", "Mercure Fiumicino"),
    "BOS": ("Hilton Logan", "Hyatt Regency Logan", "Embassy Suites Logan", "Comfort Inn Revere", "Courtyard Logan"),
    "JFK": ("TWA Hotel", "Crowne Plaza JFK", "Radisson JFK", "Hilton Garden Inn JFK", "Courtyard JFK"),
}


def stranded_at(legs, cancelled: dict, held: set) -> str:
    """Where a night away is spent: at the cancelled flight's origin when nothing leaves that day (or
    nothing is found), else at the airport where the new connection waits across midnight."""
    if not legs or legs[0]["std"][:10] > cancelled["std"][:10]:
        return cancelled["from"]
    return next((a["to"] for a, b in zip(legs, legs[1:]) if b["key"] not in held and b["std"][:10] > a["sta"][:10]),
                cancelled["from"])


def _note(rng: random.Random, p: dict, legs, booked_final: str, party: int, overnight: bool, eu: bool,
          agent: str, stranded: str = sim.HUB) -> str:
    bits = []
    first = legs[0]["flight"].replace(" ", "") if legs else "tmrw"
    if any(s.startswith("UMNR") for s in p["ssr"]):
        bits.append(rng.choice(["UM - handed to GS escort, guardian at dest re-notified, form amended",
                                f"UMNR: rebooked on {first} + called the collecting adult, new flt on the UM form",
                                "unaccomp minor - escorted to T2 family room, ground staff handover done",
                                "UM. mum rang twice. escort booked, form updated, crew briefed",
                                f"UM {p['ssr'][0][-2:]}yo - GS escort on {first}, collecting adult ok with new time"]))
    if legs and legs[-1]["to"] != booked_final:
        alt = legs[-1]["to"]
        bits.append(rng.choice([f"{booked_final} full til late, put on {alt} instead, ground transfer on us (Art 8(3))",
                                f"re-routed to {alt} (same city) - taxi/coach voucher issued",
                                f"{alt} not {booked_final} - pax fine with it, transfer costs covered per care policy",
                                f"via {alt}!! {booked_final} flts chocka. coach vchr",
                                f"offered {alt}, accepted. 8(3) transfer vchr EUR40",
                                f"{booked_final} no seats b4 evening -> {alt}, pax to claim train fare back"]))
    if party > 1:
        few = max(1, party - rng.randint(1, 2))
        bits.append(rng.choice([f"kept party of {party} together, earlier flt only had {few} seat(s)",
                                f"family of {party} - waited for a flt with {party} seats rather than split",
                                f"PNR x{party} travelling together, did NOT split",
                                f"{party} pax same booking, {first} was the first with room for all",
                                f"grp of {party}, wouldnt travel apart (dad insisted), all on {first}",
                                f"kids + parents kept on one flt ({first})"]))
    if overnight and eu:
        h = HOTELS[stranded]
        bits.append(rng.choice([f"hotel voucher {h[0]} {stranded} + dinner", "overnight - hotel + meal vouchers, transport",
                                f"{h[0]} full by 8pm -> {h[1]}, shuttle", "accom + brekkie, 2nd wave",
                                f"hotel ({h[2]}) + 2 meal vouchers", "o/n accom booked, EU261 leaflet handed",
                                f"HotelHub - {h[3]}, shuttle {'0530' if stranded == sim.HUB else 'am'}",
                                f"no rooms at {h[0]}, sent to {h[4]} + taxi",
                                "htl + dinner vchr, rebkd first wave tmrw"]))
    elif overnight:
        bits.append(rng.choice([f"NA operated - pax referred to NorthAtlantic {stranded} handling for hotel",
                                "o/n in the US, NorthAtlantic care desk looks after accom (their AOC)",
                                "NorthAtlantic flt - their station doing hotels, we just rebooked",
                                f"told pax to see NA desk at {stranded} re hotel. not ours (wet lease)",
                                f"NA care desk {stranded} has them for o/n", "wet-lease flt: accom via NorthAtlantic",
                                "rebkd only, NorthAtlantic looking after hotel their side"]))
    if not bits:
        bits.append(rng.choice(["rebooked", "rbkd next avail", "reprotected, SMS sent", "done - pax happy enough",
                                "rebkd, meal voucher", "pax rang call centre, rebooked", "re-protected onward too",
                                "queue 2h+ by the time we got to him", "pax already left desk - rebkd by phone",
                                f"rbkd {first}", f"{first} - last seat", "meal vchr EUR15 + rbkd",
                                "pax v unhappy, waited 3hrs", "gold card, prioritised", "on phone, rebkd, email conf sent"]))
    note = "; ".join(bits)
    if agent in ("KOD", "AN"):
        note = note.lower()
    if agent == "JMcG" and rng.random() < 0.5:
        note = note.replace("passenger", "px").replace("pax", "px")
    if rng.random() < 0.12:
        note += rng.choice([" (cb later)", " - see Genesys", " /MZ ok'd", " ..", " - escalated to TL", " -dupe row?"])
    return note


def dev(params: dict, out: Path) -> None:
    """data/plans/*.json (three past disruption days' plans: every flight cancelled that day, each with
    its notice; ``issued_at`` is when the first version went out), logs/reaccom.log
    (what the tool decided), data/desk_log.csv (what the recovery desk did with the referrals)."""
    rng = random.Random(f"dev:{int(params.get('world_seed', 0))}")
    eng = _world_engine(out)
    (out / "data" / "plans").mkdir(parents=True, exist_ok=True)
    (out / "logs").mkdir(parents=True, exist_ok=True)
    log_lines, desk_rows = [], []
    for n, (day, picks, pid) in enumerate(DEV_DAYS):
        # where BOS/JFK became Skellig's own metal, the NorthAtlantic wet-lease still ran on the days before
        # 1 February: its station, not our desk, looked after passengers stranded over there
        during_acmi = day < ACMI_ENDED and not params["eu261_exempt"]
        hist = dict(params, eu261_exempt=list(ACMI_STATIONS)) if during_acmi else dict(params)
        plan = sim.plan(rng, hist, day, picks, pid, float(params["tight"]), _dev_shares(params), 10001 + 4000 * n)
        (out / "data" / "plans" / f"{pid}.json").write_text(json.dumps(plan, indent=1) + "\n", encoding="utf-8")
        res = eng.reaccommodate(json.loads(json.dumps(plan)))
        got = {d["pax_id"]: d for d in res["decisions"]}
        # the console sent the day's plan when OCC cancelled the first flight, then re-sent it whole at
        # each later cancellation: one line per version
        versions: dict = {}
        for c in plan["cancelled"]:
            versions.setdefault(c["notice"], []).append(c)
        for k, at in enumerate(sorted(versions, key=sim.to_min)):
            new = versions[at]
            npax = sum(p["disrupted"] in {c["key"] for c in new} for p in plan["passengers"])
            what = "received" if k == 0 else "revised"
            log_lines.append(f"{at} INFO  reaccom  plan {pid} {what}: +{len(new)} cancelled "
                             f"({', '.join(c['flight'].replace(' ', '') for c in new)}), {npax} pax "
                             f"(rules v1.4 scope=local)")
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
        ev = _desk_outcomes(hist, plan, res)
        logged: set = set()
        for row in ev:
            p, legs, t, party, night, eu, stranded = row
            if night and not eu and rng.random() < 0.8 or p["pnr"] in logged:
                continue
            logged.add(p["pnr"])
            if rng.random() < 0.35 and not (legs and (legs[-1]["to"] != p["segments"][-1]["to"] or party > 1)) \
                    and not any(s.startswith("UMNR") for s in p["ssr"]):
                continue
            agent = rng.choice(AGENTS)
            desk_rows.append([sim.local(int(t), "DUB")[:16].replace("T", " "), agent, p["pnr"],
                              p["name"], p["segments"][0]["flight"].replace(" ", ""),
                              " ".join(f["flight"].replace(" ", "") + "/" + f["std"][8:10] for f in legs or []) or "-",
                              _note(rng, p, legs, p["segments"][-1]["to"], party, night, eu, agent, stranded)])
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["handled_at", "agent", "pnr", "pax", "orig_flt", "new_itin", "notes"])
    w.writerows(sorted(desk_rows))
    (out / "data" / "desk_log.csv").write_text(buf.getvalue(), encoding="utf-8")
    (out / "logs" / "reaccom.log").write_text("\n".join(sorted(log_lines)) + "\n", encoding="utf-8")
