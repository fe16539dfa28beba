"""Traffic for permit_triage: minor works applications as the ePermits portal (v3) hands them to
PermitBase, the open cases at go-live, and the workspace's history.

Seeds live in string namespaces ("dev:", "heldout:", "shadow:"); application numbers are disjoint
(dev MW/26/0xxxx-3xxxx, shadow MW/26/5xxxx, held-out MW/26/7xxxx). No clock, no global RNG."""

from __future__ import annotations

import random
from datetime import date, timedelta

from . import permits

HELD_OUT_START = date(2026, 12, 14)      # go-live: the open cases are re-triaged that morning
SHADOW_START = date(2026, 11, 23)
PLAIN_STREETS = ["Albion Street", "Birkby Road", "Moor End Lane", "Crossley Avenue", "Rydal Drive", "Station Road",
                 "Holme Close", "Greenhead Lane", "Thornton Grove", "Beck Side", "Heaton Road", "Oakroyd Terrace",
                 "Spring Bank", "Wharfe View", "Calder Rise", "Saville Park Road", "Lister Lane", "Sunny Bank Road",
                 "Bradley Road", "Fieldhead Way", "Norwood Crescent", "Low Fold", "Manor Drive", "Primrose Hill",
                 "Clough Lane", "Netherfield Road", "Victoria Road", "Edgerton Grove", "Hollins Lane", "Brow Top"]
HH_WORKS = [("single_storey_rear_extension", 34, (10, 58)), ("side_extension", 9, (12, 52)), ("porch", 12, (2, 9)),
            ("garage_conversion", 12, (12, 30)), ("outbuilding", 13, (6, 55)), ("loft_dormer", 10, (8, 34)),
            ("two_storey_extension", 10, (30, 90))]
COM_WORKS = [("shopfront", 45, (4, 30)), ("fascia_sign", 30, (1, 6)), ("single_storey_rear_extension", 25, (15, 70))]
WORDS = {"single_storey_rear_extension": ["single storey rear extension", "Single-storey extension to rear",
                                          "rear kitchen extension (single storey)", "Erection of single storey rear extension"],
         "side_extension": ["side extension", "Single storey side extension", "side ext. to form utility"],
         "porch": ["front porch", "Erection of porch to front elevation", "porch"],
         "garage_conversion": ["garage conversion to habitable room", "Conversion of integral garage", "garage conv"],
         "outbuilding": ["garden room", "Detached outbuilding (home office)", "garden store / workshop", "summerhouse"],
         "loft_dormer": ["rear dormer", "Loft conversion with rear dormer window", "dormer to rear roof slope"],
         "two_storey_extension": ["two storey side extension", "Two-storey rear extension"],
         "shopfront": ["replacement shopfront", "New shopfront and door", "shop front alterations"],
         "fascia_sign": ["illuminated fascia sign", "Replacement fascia", "non-illuminated fascia and projecting sign"]}


def _pick(rng: random.Random, table):
    total = sum(w for _n, w, _r in table)
    x = rng.uniform(0, total)
    for name, w, rng_area in table:
        x -= w
        if x <= 0:
            return name, rng_area
    return table[-1][0], table[-1][2]


def heritage_streets(params: dict) -> list[str]:
    return [s for a in permits.conservation_areas(params) for s in a["streets"]]


def all_heritage_streets(params: dict) -> list[str]:
    """Every street that is or may become a conservation area street (the same streets in every variant)."""
    return [s for a in params["areas"] for s in a["streets"]] + [s for a in params["maybe_areas"] for s in a["streets"]]


def application(rng: random.Random, params: dict, app_id: str, validated: date, v3: bool = True) -> tuple[dict, dict]:
    """One application as PermitBase passes it to the triage, and its truth."""
    hh = rng.random() < 0.8
    work, (lo, hi) = _pick(rng, HH_WORKS if hh else COM_WORKS)
    area = round(rng.uniform(lo, hi), 1)
    height = round(rng.uniform(2.4, 3.9) if rng.random() < 0.9 else rng.uniform(4.1, 6.5), 1)
    consent = rng.random() < 0.88
    channel = rng.choices(["web", "agent_api", "council_site"], [45, 35, 20])[0]
    r = rng.random()
    lag = 0 if r < 0.15 else rng.randint(1, 4) if r < 0.8 else rng.randint(5, int(params["max_lag_wd"]))
    period = permits.period_wd({"applicant_type": "householder" if hh else "commercial",
                                "received_on": validated.isoformat()}, params)
    lag = min(lag, period - 4)                     # validation works the oldest first
    received = validated
    for _ in range(lag):
        received -= timedelta(days=1)
        while not permits.is_working(received):
            received -= timedelta(days=1)
    street = rng.choice(all_heritage_streets(params)) if rng.random() < params["heritage_share"] else rng.choice(PLAIN_STREETS)
    truth = {"work_type": work, "area_m2": area, "height_m": height, "consent": consent,
             "plans_issue": rng.random() < params["plans_issue_share"]}
    app = {"app_id": app_id, "received_on": received.isoformat(), "validated_on": validated.isoformat(),
           "applicant_type": "householder" if hh else "commercial", "channel": channel, "work_type": work,
           "description": rng.choice(WORDS[work]), "site_address": f"{rng.randint(1, 140)} {street}, Calderbrook",
           "street": street, "max_height_m": height,
           "declared_conservation_area": "Y" if rng.random() < (0.55 if street in heritage_streets(params)
                                                                 else params["mistick_share"]) else "N"}
    if not v3:
        app.update(floor_area=area, neighbour_consent="Y" if consent else "N")
    elif params["mismatch"] == "area_unit":
        imperial = rng.random() < params["imperial_share"]
        if imperial:
            unit = "ft2" if channel == "agent_api" and rng.random() < params["rare_share"] * 2.5 else "sqft"
            app.update(floor_area=round(area * permits.SQFT_PER_M2), area_unit=unit)
        else:
            app.update(floor_area=area, area_unit="sqm")
        app["neighbour_consent"] = "Y" if consent else "N"
    else:                                          # consent_checkbox: v3 web sends JSON booleans
        app.update(floor_area=area, area_unit="sqm")
        if channel == "agent_api":
            app["neighbour_consent"] = "Y" if consent else "N"
        elif channel == "council_site" and rng.random() < min(1.0, params["rare_share"] * 3):
            app["neighbour_consent"] = "on" if consent else ""       # the embedded form posts an HTML checkbox
        else:
            app["neighbour_consent"] = consent
    return app, truth


def legacy_small(app: dict) -> bool:
    """What the pre-upgrade triage reads as small enough for the technician (before heritage)."""
    return (app["work_type"] in permits.MINOR_WORKS and float(app.get("floor_area") or 0) <= permits.AREA_LIMIT_M2
            and float(app.get("max_height_m") or 0) <= permits.HEIGHT_LIMIT_M and app.get("neighbour_consent") == "Y")


def _days(start: date, n: int) -> list[date]:
    out, d = [], start
    while len(out) < n:
        if permits.is_working(d):
            out.append(d)
        d += timedelta(days=1)
    return out


def _window(rng: random.Random, params: dict, start: date, n_days: int, first: int, backlog: int) -> dict:
    """The open cases still waiting for an officer at `start` (validated in the `backlog` working days
    before it) and `n_days` working days of new applications, one batch a day."""
    per_day = int(params["apps_per_day"])
    truths, opened, batches, k = {}, [], [], first
    before = [d for d in _days(start - timedelta(days=backlog * 2), backlog * 2) if d < start][-backlog:]
    for i, d in enumerate(before):
        for _ in range(per_day):
            app, t = application(rng, params, f"MW/26/{k:05d}", d)
            k += 1
            waiting = not legacy_small(app) or app["street"] in heritage_streets(params)
            done_share = 0.9 * (backlog - i) / backlog       # officers have cleared most of the oldest
            urgent = permits.deadline(app, params) <= permits.add_wd(start, 3)   # the officers cleared those first
            if waiting and not urgent and rng.random() > done_share:
                opened.append(app)
                truths[app["app_id"]] = t
    batches.append(opened)
    for d in _days(start, n_days):
        day = []
        for _ in range(per_day + rng.randint(-4, 4)):
            app, t = application(rng, params, f"MW/26/{k:05d}", d)
            k += 1
            day.append(app)
            truths[app["app_id"]] = t
        batches.append(day)
    return {"start": start.isoformat(), "batches": batches, "truth": truths}


def held_out(params: dict, seed: int) -> dict:
    """Go-live re-triage of the open cases, then four weeks (20 working days) of new applications."""
    rng = random.Random(f"heldout:{seed}:{int(params.get('world_seed', 0))}")
    return _window(rng, params, HELD_OUT_START, 20, 70000, int(params["backlog_wd"]))


def shadow(params: dict, day: int) -> dict:
    """One trial day: the open cases and a week of applications replayed through a shadow copy."""
    rng = random.Random(f"shadow:{day}:{int(params.get('world_seed', 0))}")
    return _window(rng, params, SHADOW_START, 5, 50000 + 2000 * day, int(params["backlog_wd"]))


# ---------------------------------------------------------------------------- the workspace's history
import csv  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import sqlite3  # noqa: E402
from pathlib import Path  # noqa: E402

UPGRADE = date(2026, 10, 12)
DEV_FIRST, DEV_LAST = date(2026, 8, 3), date(2026, 12, 4)
OFFICERS = ["k.oldroyd", "S Patel", "mhussain", "L. Crowther", "d.ambler", "ben w", "S Patel"]
TECHS = ["jwhitworth", "tech2 (Aimee)", "c.firth", "Aimee L", "c.firth"]
OFFICER_NOTES = ["", "", "ok - grant", "Granted, std conditions", "grant. materials to match", "refuse - overbearing on no. {n}",
                 "neighbour objection withdrawn, grant", "site visit done {d}; grant", "chased agent for elevations, grant",
                 "Granted", "grant w/ obscure glazing condition", "amended plans rcvd, ok"]
BOUNCED_NOTES = ["floor area {fa} - this must be sq ft, it's a {w}. ~{m} m2. grant", "{fa} m2 {w}?? applicant used feet. grant",
                 "another one in feet ({fa}). would have been fast track. granted", "tiny {w}, triage says too big - units again. grant",
                 "FT2 not m2 - approx {m}m2, grant", "why is this with us? {m} m2 in real money. grant",
                 "portal sent feet. {w} fine. grant", "grant - should've been tech officer (area in sq ft)"]
CONSENT_NOTES = ["neighbour box IS ticked ({c}) - why manual? grant", "consent given on form ({c}), small {w}. granted",
                 "another small {w} bounced - acknowledgement shows {c}. grant", "grant. nothing wrong with this, consent = {c}",
                 "should have been fast track, tick is there ({c}). grant", "{w}, tiny, ticked. granted - 3rd today like this"]
TECH_NOTES = ["", "", "", "ok", "drawings ok - issued", "issued", "checked v plans, issued", "dims ok. issue",
              "amended plans requested - height on elevation {h}m != form", "plans show 2 storey?? asked agent ({d})",
              "issued (after amended block plan rcvd {d})", "depth on plan {h}m, form says less. amended plans in, issued",
              "agent sent drawings for no. {n} - chased, issued {d}"]
SCREEN_NOTES = ["not in CA ({s}) - back to techs", "{s} isn't in an area - tick wrong, returned", "NOT CA. returned {d}",
                "screened out - no CA on {s}", "applicant ticked CA, {s} is not. back to JW", "not conservation. {d}"]
CA_NOTES = ["", "IS - no objection", "IS: materials condition", "IS. Refuse - upvc in CA", "no objection subject to timber windows",
            "IS - slate to match, ok", "refuse: loss of boundary wall ({s})", "no obj. {d}", "IS ok w/ conditions"]


def _legacy_route(app: dict, params: dict) -> str:
    base_streets = {s.lower() for a in params["areas"] for s in a["streets"]}
    if app.get("declared_conservation_area") == "Y" or app["street"].lower() in base_streets:
        return "conservation"
    return "fast_track" if legacy_small(app) else "officer"


def _history(params: dict) -> list[dict]:
    """Every minor works case validated from August to the Friday before the clock, with what happened."""
    rng = random.Random(f"dev:{int(params.get('world_seed', 0))}")
    rows, k = [], 1200
    for d in _days(DEV_FIRST, 200):
        if d > DEV_LAST:
            break
        for _ in range(int(params["apps_per_day"]) - (8 if d < UPGRADE else 0) + rng.randint(-5, 5)):
            app, t = application(rng, params, f"MW/26/{k:05d}", d, v3=d >= UPGRADE)
            k += rng.choice([1, 1, 1, 2])
            route = _legacy_route(app, params)
            if route == "fast_track":
                done = permits.add_wd(d, permits.FAST_TRACK_WD + (permits.AMEND_WD if t["plans_issue"] else 0))
                who = rng.choice(TECHS)
            elif route == "conservation":
                done = permits.add_wd(d, rng.randint(4, 11))
                who = "i.sutcliffe"
            else:
                wait = rng.randint(3, 8) if d < UPGRADE else rng.randint(6, 10) + (d - UPGRADE).days // 9
                done = permits.add_wd(d, wait)
                who = rng.choice(OFFICERS)
            rows.append({"app": app, "truth": t, "route": route, "done": done, "who": who})
    return rows


def _note(rng: random.Random, row: dict, params: dict) -> str:
    app, t = row["app"], row["truth"]
    w = app["work_type"].replace("_", " ")
    if row["route"] == "fast_track":
        note = rng.choice(TECH_NOTES[-5:] if t["plans_issue"] else TECH_NOTES[:-5])
    elif row["route"] == "officer" and permits.eligible(t) and not legacy_small(app) and app.get("area_unit") != "sqm" \
            and params["mismatch"] == "area_unit" and app.get("area_unit") and rng.random() < 0.45:
        note = rng.choice(BOUNCED_NOTES).format(fa=app["floor_area"], w=w, m=round(t["area_m2"]))
    elif row["route"] == "officer" and params["mismatch"] == "consent_checkbox" and permits.eligible(t) \
            and app.get("neighbour_consent") not in ("Y", "N") and rng.random() < 0.45:
        note = rng.choice(CONSENT_NOTES).format(c=json.dumps(app["neighbour_consent"]), w=w)
    elif row["route"] == "conservation":
        in_area = app["street"] in [s for a in params["areas"] for s in a["streets"]]
        note = rng.choice(CA_NOTES if in_area else SCREEN_NOTES)
    else:
        note = rng.choice(OFFICER_NOTES)
    note = note.format(n=rng.randint(2, 90), d=row["done"].strftime(rng.choice(["%d/%m", "%d.%m.%y"])),
                       h=round(rng.uniform(3.2, 5.5), 1), s=app["street"])
    if note and rng.random() < 0.25:
        note = note.upper() if rng.random() < 0.2 else note.capitalize()
    return note


def dev(params: dict, out: Path) -> None:
    """data/caseload.sqlite (every case since August), data/sample_applications.json,
    data/appeals_2026.csv, data/it_tickets.csv, logs/triage.log."""
    rng = random.Random(f"devnotes:{int(params.get('world_seed', 0))}")
    rows = _history(params)
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "logs").mkdir(parents=True, exist_ok=True)
    db = out / "data" / "caseload.sqlite"
    if db.exists():
        db.unlink()
    con = sqlite3.connect(db)
    con.execute("""CREATE TABLE cases (app_id TEXT PRIMARY KEY, received_on TEXT, validated_on TEXT, applicant_type TEXT,
                   channel TEXT, work_type TEXT, description TEXT, site_address TEXT, street TEXT, floor_area REAL,
                   area_unit TEXT, max_height_m REAL, neighbour_consent TEXT, declared_conservation_area TEXT,
                   route TEXT, decide_by TEXT, status TEXT, decided_on TEXT, decision TEXT, officer TEXT, note TEXT)""")
    log = io.StringIO()
    by_day: dict[date, list] = {}
    cases: list[dict] = []
    for row in rows:
        app = row["app"]
        v = permits.day(app["validated_on"])
        by_day.setdefault(v, []).append(row)
        dl = permits.deadline(app, dict(params, hh_days=params["base_days"]))
        decide_by = (v + timedelta(days=15)).isoformat()
        done = row["done"]
        if done > DEV_LAST:
            status, decided, decision, who, note = "OPEN", None, None, row["who"] if row["route"] != "officer" else None, ""
        elif row["route"] != "fast_track" and done > permits.day(decide_by) and v >= date(2026, 9, 21):
            status, decided, decision, who, note = "DEEMED", decide_by, "DEEMED (DA1)", "pb-batch", ""
        else:
            status, decided, decision, who = "DECIDED", done.isoformat(), "GRANTED", row["who"]
            note = _note(rng, row, params)
            if "refuse" in note.lower() and "tick wrong" not in note.lower():
                decision = "REFUSED"
        del dl
        consent = app.get("neighbour_consent")
        cases.append({"app_id": app["app_id"], "route": row["route"], "status": status, "decided": decided,
                      "description": app["description"]})
        con.execute("INSERT INTO cases VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (app["app_id"], app["received_on"], app["validated_on"], app["applicant_type"], app["channel"],
                     app["work_type"], app["description"], app["site_address"], app["street"], app.get("floor_area"),
                     app.get("area_unit"), app["max_height_m"], json.dumps(consent) if isinstance(consent, bool) else consent,
                     app["declared_conservation_area"], row["route"], decide_by, status, decided, decision, who, note))
    con.commit()
    con.close()
    for d in sorted(by_day):
        run = permits.add_wd(d, 0) + timedelta(days=1)
        c = {r: sum(1 for x in by_day[d] if x["route"] == r) for r in ("fast_track", "officer", "conservation")}
        log.write(f"{run} 01:30:{rng.randint(1, 9):02d} INFO triage_batch: {len(by_day[d])} applications validated {d} -> "
                  f"fast_track {c['fast_track']}, officer {c['officer']}, conservation {c['conservation']}\n")
        if run == date(2026, 10, 13):
            log.write(f"{run} 01:30:11 WARNING permits.triage: could not triage MW/26/{rng.randint(3000, 3999):05d}: 'validated_on'\n")
    (out / "logs" / "triage.log").write_text(log.getvalue(), encoding="utf-8")
    recent = [r["app"] for r in rows if permits.day(r["app"]["validated_on"]) >= date(2026, 12, 1)][:12]
    (out / "data" / "sample_applications.json").write_text(json.dumps(recent, indent=1) + "\n", encoding="utf-8")
    _appeals(out, cases)
    _tickets(out)


def _appeals(out: Path, cases: list[dict]) -> None:
    """Appeals this year; those lodged since August cite a case in the caseload that fits them (its
    route and status, decided before the appeal was lodged)."""
    def case(route: str, status: str, before: str, word: str = "") -> dict:
        fits = [c for c in cases if c["route"] == route and c["status"] == status and (c["decided"] or "9") < before]
        return next((c for c in reversed(fits) if word in c["description"].lower()), fits[-1])
    porch = case("officer", "DECIDED", "2026-08-26", "porch")
    pool = sorted((c for c in cases if c["status"] == "DEEMED"), key=lambda c: c["decided"])
    deemed = []                                             # three appeals, three different deemed cases
    for lodged in ("2026-10-29", "2026-11-19", "2026-11-30"):
        fits = [c for c in pool if c["decided"] < lodged and c not in deemed]
        deemed.append(fits[-1] if fits else next(c for c in pool if c not in deemed))
    rows = [("appeal_ref", "lodged", "app_id", "appellant", "grounds", "route_at_decision", "outcome"),
            ("APL/26/003", "2026-02-10", "MW/25/11872", "neighbour", "garden room 4.6m high - plans said 3.5", "auto_issue (pilot error)", "upheld - permit revoked"),
            ("APL/26/007", "2026-03-23", "MW/26/00211", "applicant", "refusal of side ext", "officer", "dismissed"),
            ("APL/26/011", "2026-05-05", "MW/26/00634", "neighbour", "dormer overlooking, not as drawn", "fast_track", "allowed in part"),
            ("APL/26/014", "2026-06-17", "MW/26/00901", "applicant", "conditions on materials", "conservation", "dismissed"),
            ("APL/26/019", "2026-08-26", porch["app_id"], "neighbour", f"{porch['description'].lower()} - on the boundary, no notice served", "officer", "withdrawn"),
            ("APL/26/022", _after("2026-10-29", deemed[0]), deemed[0]["app_id"], "neighbour", f"deemed permit - {deemed[0]['description'].lower()}", "DEEMED (DA1)", "pending"),
            ("APL/26/024", _after("2026-11-19", deemed[1]), deemed[1]["app_id"], "neighbour", f"deemed - {deemed[1]['description'].lower()}, party wall", "DEEMED (DA1)", "pending"),
            ("APL/26/025", _after("2026-11-30", deemed[2]), deemed[2]["app_id"], "ward cllr on behalf of residents", f"deemed approval, {deemed[2]['description'].lower()}", "DEEMED (DA1)", "pending")]
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    (out / "data" / "appeals_2026.csv").write_text(buf.getvalue(), encoding="utf-8")


def _after(lodged: str, case: dict) -> str:
    """An appeal is lodged after the decision it appeals (two days after, where the usual date is too early)."""
    return max(lodged, (permits.day(case["decided"]) + timedelta(days=2)).isoformat())


def _tickets(out: Path) -> None:
    rows = [("ticket", "opened", "raised_by", "summary", "resolution", "closed"),
            ("INC-88102", "2026-10-14", "K Oldroyd", "Minor works worklist doubled overnight?? is the triage running",
             "triage ran 01:30 as normal, no errors in log. Volumes up after portal launch (expected). RB", "2026-10-15"),
            ("INC-88197", "2026-10-22", "jwhitworth", "porch apps showing huge floor areas in PB e.g. 161 - portal?",
             "Passed to Civica-Lite. Supplier: 'working as designed'. Closed", "2026-10-30"),
            ("INC-88240", "2026-10-27", "Alistair G", "Dashboard 'deemed this month' tile shows 9 - is that right?",
             "Tile counts DA1 letters sent by the batch; figures correct. RB", "2026-10-28"),
            ("REQ-20511", "2026-11-03", "i.sutcliffe", "please add new CA streets to triage list (see Cabinet min.)",
             "Awaiting list from Planning - no attachment on ticket", None),
            ("INC-88391", "2026-11-16", "S Patel", "worklist 'due this week' tab empty on monday then 40 cases due friday",
             "PB sorts by decide_by as supplied by triage. Not a fault. RB", "2026-11-17"),
            ("REQ-20590", "2026-12-02", "Alistair G", "Auto-approve small minor works via auto_issue route - see paper",
             "With BS for estimate", None)]
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    (out / "data" / "it_tickets.csv").write_text(buf.getvalue(), encoding="utf-8")
