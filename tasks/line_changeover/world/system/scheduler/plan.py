"""Filling-line schedule for the week, day by day: which line runs each job, in what order, and where a full wash-down goes.

Called by the Friday planning job (see README). Greedy, on purpose: each product's jobs are one
campaign on one line that day (biggest campaigns first, to the line that would finish earliest), then on
each line the next job is one that needs no wash-down if there is one, allergen-free before allergens,
then the least changeover time from the one before (a full wash-down when the allergen rule needs one).
"""
import csv
import json
from pathlib import Path

HERE = Path(__file__).parent
CONFIG = json.loads((HERE / "config.json").read_text())


def _rows(name):
    with open(HERE / name, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


PRODUCTS = {r["code"]: {**r, "allergens": {a.strip().lower() for a in r["allergens"].split(";") if a.strip()},
                        "cases_per_hour": float(r["cases_per_hour"])} for r in _rows("products.csv")}
MATRIX = {(r["line"], r["from_family"], r["to_family"]): float(r["minutes"]) for r in _rows("changeover_matrix.csv")}
WASH_ALLERGENS = {a.lower() for a in CONFIG["washdown_allergens"]}


def needs_washdown(prev, nxt):
    """A full wash-down before `nxt` when the line last ran an allergen `nxt` does not declare."""
    if prev is None:
        return False
    dropped = PRODUCTS[prev]["allergens"] - PRODUCTS[nxt]["allergens"]
    return bool(dropped & WASH_ALLERGENS)


def changeover_minutes(line, prev, nxt):
    if prev is None or prev == nxt:
        return 0.0
    if needs_washdown(prev, nxt):
        return float(CONFIG["lines"][line]["washdown_minutes"])
    return MATRIX[(line, PRODUCTS[prev]["family"], PRODUCTS[nxt]["family"])]


def _typical_changeover(line):
    """Most changeovers on a well-run line are smooth to smooth."""
    return MATRIX[(line, "smooth", "smooth")]


def _eligible(line, product):
    return PRODUCTS[product]["format"] in CONFIG["lines"][line]["formats"]


def assign(jobs):
    """One campaign per product: all of a product's jobs on one line, biggest campaigns first, each to the
    line that would finish its day earliest."""
    load = {line: 0.0 for line in CONFIG["lines"]}          # hours planned so far
    by_line = {line: [] for line in CONFIG["lines"]}
    campaigns = {}
    for job in jobs:
        campaigns.setdefault(job["product"], []).append(job)
    for product, mine in sorted(campaigns.items(), key=lambda kv: (-sum(j["cases"] for j in kv[1]), kv[0])):
        hours = sum(j["cases"] for j in mine) / PRODUCTS[product]["cases_per_hour"]
        lines = [ln for ln in CONFIG["lines"] if _eligible(ln, product)]
        best = min(lines, key=lambda ln: ((load[ln] + hours + _typical_changeover(ln) / 60) / CONFIG["lines"][ln]["hours"], ln))
        load[best] += hours + _typical_changeover(best) / 60
        by_line[best].extend(sorted(mine, key=lambda j: j["job_id"]))
    return by_line


def _wash_rank(product):
    """Allergen-free first, then the allergens a flavour-change clean covers, wash-down allergens last."""
    return len(PRODUCTS[product]["allergens"] & WASH_ALLERGENS)


def sequence(line, jobs):
    todo, prev, out = list(jobs), None, []
    while todo:
        nxt = min(todo, key=lambda j: (needs_washdown(prev, j["product"]), _wash_rank(j["product"]),
                                       changeover_minutes(line, prev, j["product"]),
                                       len(PRODUCTS[j["product"]]["allergens"]), j["product"], j["job_id"]))
        out.append(nxt)
        prev = nxt["product"]
        todo.remove(nxt)
    return out


def fill(line, ordered):
    """Walk the line's run order against its hours: a job whose planned finish passes the end of the
    day is held (the kitchen makes no mix for it); later, smaller jobs may still fit."""
    t, prev, out = 0.0, None, []
    limit = CONFIG["lines"][line]["hours"] * 60
    for job in ordered:
        step = changeover_minutes(line, prev, job["product"]) + job["cases"] / PRODUCTS[job["product"]]["cases_per_hour"] * 60
        if t + step > limit:
            out.append({"job_id": job["job_id"], "line": "hold", "seq": 0, "wash_before": False})
            continue
        t += step
        out.append({"job_id": job["job_id"], "line": line, "seq": len([o for o in out if o["line"] == line]) + 1,
                    "wash_before": needs_washdown(prev, job["product"])})
        prev = job["product"]
    return out


def plan_day(jobs):
    """One day: assign, sequence and fill each line; then offer each held job (biggest first) to the
    other lines, where it goes if it fits without holding anything already planned there."""
    by_line = assign(jobs)
    plans = {line: fill(line, sequence(line, mine)) for line, mine in by_line.items()}
    held = lambda plan: {d["job_id"] for d in plan if d["line"] == "hold"}      # noqa: E731
    for line in list(plans):
        for job in sorted((j for j in by_line[line] if j["job_id"] in held(plans[line])), key=lambda j: (-j["cases"], j["job_id"])):
            for other in CONFIG["lines"]:
                if other == line or not _eligible(other, job["product"]):
                    continue
                trial = fill(other, sequence(other, by_line[other] + [job]))
                if held(trial) <= held(plans[other]):
                    by_line[other].append(job)
                    by_line[line].remove(job)
                    plans[other] = trial
                    plans[line] = [d for d in plans[line] if d["job_id"] != job["job_id"]]
                    break
    return [d for plan in plans.values() for d in plan]


def plan_week(jobs):
    """jobs: [{"job_id", "day", "product", "cases"}] -> [{"job_id", "line", "seq", "wash_before"}], seq
    counted per line and day; line "hold" means not filled (short to the customer). Every line is washed
    down overnight by hygiene, so each day starts clean."""
    plan = []
    for day in sorted({j["day"] for j in jobs}):
        plan += plan_day([j for j in jobs if j["day"] == day])
    return plan
