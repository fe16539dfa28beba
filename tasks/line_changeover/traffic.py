"""Order books for the Fenbridge filling hall: one list of jobs per week (product, cases), and the
workspace's history (operators' changeover log, last weeks' plan-vs-actual).

held_out: the four weeks after the episode (w/c 7 Dec .. 28 Dec), seeded from task.yaml; dev: the
order book the planner ran on 27 Nov and the log since September; shadow: one trial week.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import random
from datetime import date, timedelta

from . import plant

POTS = [c for c, p in plant.PRODUCTS.items() if p["format"] == "pot"]
TUBS = [c for c, p in plant.PRODUCTS.items() if p["format"] == "tub"]
WEIGHTS = {"HUM-CLS": 9, "HUM-RPP": 5, "HUM-CON": 4, "HUM-LFT": 3, "BAB-GAN": 2, "TZK-CLS": 5, "SCC-CHV": 4,
           "BLU-CHS": 2, "SAT-PNT": 2, "PES-CSH": 2, "SWP-HAR": 3, "SAL-TOM": 5, "GUA-CHK": 4, "SAL-MNG": 3,
           "FET-OLV": 3, "HUM-MOR": 3, "HON-MUS": 2, "SAL-CHP": 3}
REMOVED, INSTALL = date(2026, 10, 12), date(2026, 10, 14)   # the old filler out, the new one running


DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri"]


def week_jobs(rng: random.Random, params: dict, tag: str) -> list[dict]:
    """A week of retailer orders, by dispatch day: each product wanted that day is one job."""
    chunky = [c for c in POTS if plant.PRODUCTS[c]["family"] == "chunky"]
    smooth = [c for c in POTS if c not in chunky]
    jobs = []
    for day in DAYS:
        wanted = {TUBS[rng.randrange(len(TUBS))]: rng.randrange(300, 700, 50)}
        while len(wanted) < min(int(params["jobs_per_day"]), len(POTS)):
            pool = chunky if rng.random() < float(params["chunky_share"]) else smooth
            code = rng.choices(pool, [WEIGHTS[c] for c in pool])[0]
            wanted.setdefault(code, rng.randrange(500, 2000, 50))
        for code, cases in wanted.items():
            jobs.append({"job_id": f"{tag}-{len(jobs) + 1:03d}", "day": day, "product": code, "cases": cases})
    return jobs


def held_out(params: dict, seed: int) -> dict:
    rng = random.Random(seed * 7919 + int(params["world_seed"]))
    weeks = [date(2026, 12, 7) + timedelta(weeks=w) for w in range(8)]
    return {"weeks": [{"week": f"{w:%Y-%m-%d}", "jobs": week_jobs(rng, params, f"WO{w:%y%m%d}")} for w in weeks]}


def shadow(params: dict, day: int) -> dict:
    rng = random.Random(50_000 + 31 * day + int(params["world_seed"]))
    return {"weeks": [{"week": "trial", "jobs": week_jobs(rng, params, f"TR{day:02d}")}]}


# ----------------------------------------------------------------------------- workspace history

OPS = ["SP", "sp", "KD", "JM", "jm", "TA", "RB", "DW", "A.N."]
FLAV_NOTES = ["", "", "", "", "", "filler hopper rinse, ok", "waited on QA line release", "label roll change too",
              "film splice", "checkweigher recal after", "slow start - short staffed", "purge longer, lumpy",
              "date coder ribbon", "ok", "OK", "as per SOP", "lidder jam on restart"]
NEW_FLAV_NOTES = ["quick", "new filler, hopper tip-out", "piston rinse only", "fast one", "no issues",
                  "quick change hopper great", "", "", ""]
SWAP_NOTES = ["nozzle kit swap chunky>smooth", "chunky nozzles on", "valve + nozzle change", "swap to chunky kit",
              "nozzle swap, 2 fitters", "changed piston set for salsa", "chunky kit off, smooth on", "kit change",
              "swapped nozzels", "nozzle change - took ages"]
WASH_NOTES = ["full wash allergen", "allergen wash, ATP pass", "wet clean + swab", "FULL WASH", "allergen clean, swabs ok",
              "wash down after sesame", "full strip + wash", "Wash down - QA released", "ATP fail re-clean"]
CIP_NOTES = ["CIP cycle", "CIP + swab", "CIP, QA release", "cip allergen", "CIP ok first time", "CIP"]


def _minutes(rng, base, spread):
    return max(5, int(round(rng.gauss(base, spread))))


def changeover_log(params: dict) -> str:
    """What the operators typed into the changeover sheet, 7 Sep - 27 Nov (rendered to CSV)."""
    rng = random.Random(4242 + int(params["world_seed"]))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["date", "line", "shift", "from_sku", "to_sku", "type", "mins", "op", "notes"])
    day = date(2026, 9, 7)
    while day <= date(2026, 11, 27):
        if day.weekday() < 5:
            for line in plant.LINES:
                if line == params["new_line"] and REMOVED <= day < INSTALL:
                    continue                    # the line was down while the filler was swapped
                codes = [rng.choice(POTS if line != "L3" else POTS + TUBS) for _ in range(rng.randint(1, 3))]
                prev = rng.choice(POTS)
                for shift, code in zip(["AM", "PM", "PM"], codes):
                    if code == prev:
                        continue
                    new = line == params["new_line"] and day >= INSTALL
                    learning = new and day < INSTALL + timedelta(days=14)
                    if plant.wash_needed(prev, code, {"washdown_allergens": ["sesame", "peanuts", "nuts", "milk", "eggs", "soya"]}):
                        kind = "CIP" if new else "WASH"
                        base = params["new_wash_min"] if new else plant.OLD_WASH_MIN
                        mins, note = _minutes(rng, base * (1.2 if learning else 1), 12), rng.choice(CIP_NOTES if new else WASH_NOTES)
                    else:
                        kind = "FLAV"
                        same = plant.PRODUCTS[prev]["family"] == plant.PRODUCTS[code]["family"]
                        if new:
                            base = params["new_flavour_min"] if same else params["new_swap_min"]
                            note = rng.choice(NEW_FLAV_NOTES if same else SWAP_NOTES)
                        else:
                            base = plant.OLD_MATRIX[(line, plant.PRODUCTS[prev]["family"], plant.PRODUCTS[code]["family"])][0]
                            note = rng.choice(FLAV_NOTES)
                        mins = _minutes(rng, base * (1.4 if learning else 1), max(3, base * 0.12))
                    op = rng.choice(OPS)
                    w.writerow([day.strftime(rng.choice(["%Y-%m-%d", "%Y-%m-%d", "%d/%m/%Y"])), line if rng.random() > 0.05 else line.lower().replace("l", "Line "),
                                shift, prev, code if rng.random() > 0.03 else code.lower(), kind, mins if rng.random() > 0.02 else "", op, note])
                    prev = code
        day += timedelta(days=1)
    return buf.getvalue()


def _world_planner():
    spec = importlib.util.spec_from_file_location("fenbridge_world_plan", plant.WORLD / "plan.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def plan_vs_actual(params: dict) -> str:
    """The Monday review sheet: the shipped scheduler's plan for the last three weeks against what the
    lines did (planned changeover hours from the scheduler's own figures)."""
    planner = _world_planner()
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["week_commencing", "line", "jobs", "planned_changeover_h", "actual_changeover_h",
                "washdowns", "cases_planned", "cases_packed", "jobs_not_finished"])
    rng = random.Random(77 + int(params["world_seed"]))
    for wc in (date(2026, 11, 9), date(2026, 11, 16), date(2026, 11, 23)):
        jobs = week_jobs(rng, params, f"WO{wc:%y%m%d}")
        by_id = {j["job_id"]: j for j in jobs}
        plan = planner.plan_week(jobs)
        for line in plant.LINES:
            row = {"jobs": 0, "planned": 0.0, "actual": 0.0, "washes": 0, "planned_cases": 0, "packed": 0.0, "short": 0}
            for day in DAYS:
                mine = sorted((d for d in plan if d["line"] == line and by_id[d["job_id"]]["day"] == day), key=lambda d: d["seq"])
                seq = [(by_id[d["job_id"]], d["wash_before"]) for d in mine]
                prev = None
                for job, _wash in seq:
                    row["planned"] += planner.changeover_minutes(line, prev, job["product"])
                    prev = job["product"]
                res = plant.run_line(line, seq, {**params, "overtime_line": ""})      # the overtime is for December
                row["jobs"] += len(seq)
                row["actual"] += res["changeover_min"]
                row["washes"] += res["washes"]
                row["planned_cases"] += sum(j["cases"] for j, _ in seq)
                row["packed"] += res["packed"]
                row["short"] += len(res["short"])
            w.writerow([f"{wc:%Y-%m-%d}", line, row["jobs"], round(row["planned"] / 60, 1), round(row["actual"] / 60, 1),
                        row["washes"], row["planned_cases"], int(row["packed"]), row["short"]])
    return buf.getvalue()


def dev(params: dict, out) -> None:
    data = out / "data"
    data.mkdir(exist_ok=True)
    (data / "changeover_log.csv").write_text(changeover_log(params))
    (data / "plan_vs_actual.csv").write_text(plan_vs_actual(params))
    book = week_jobs(random.Random(991 + int(params["world_seed"])), params, "WO261130")
    rows = ["job_id,product,cases"] + [f"{j['job_id']},{j['product']},{j['cases']}" for j in book]
    (data / "order_book_wc_2026-11-30.csv").write_text("\n".join(rows) + "\n")
