"""The Fenbridge Foods filling hall as it really is: what a changeover and a wash-down take on each line,
which allergens QA needs a full wash-down for, and the hours each line has this week. Shared by the
grader, the trial and the traffic's changeover log.

The products are the world's own table (world/system/scheduler/products.csv); the old fillers' times
are the world's matrix (right for them); the new filler's times and the rest come from the variant.
"""

from __future__ import annotations

import csv
from pathlib import Path

WORLD = Path(__file__).parent / "world" / "system" / "scheduler"
LINES = ("L1", "L2", "L3")
OLD_WASH_MIN, OLD_WASH_WASTE = 150, 40


def _rows(name):
    with open(WORLD / name, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


PRODUCTS = {r["code"]: {"family": r["family"], "format": r["format"], "rate": float(r["cases_per_hour"]),
                        "allergens": frozenset(a for a in r["allergens"].split(";") if a)} for r in _rows("products.csv")}
OLD_MATRIX = {(r["line"], r["from_family"], r["to_family"]): (float(r["minutes"]), int(r["purge_cases"]))
              for r in _rows("changeover_matrix.csv")}


def eligible(line, product):
    return PRODUCTS[product]["format"] == "pot" or line == "L3"


def hours(line, params):
    """Filling hours a day (two eight-hour shifts; a line on overtime has more)."""
    return float(params["overtime_hours"]) if line == params["overtime_line"] else 16.0


def wash_needed(prev, nxt, params):
    """QA's rule: a full wash-down before a product that does not declare a wash-down allergen the line
    last ran (the line starts the week washed)."""
    if prev is None:
        return False
    dropped = PRODUCTS[prev]["allergens"] - PRODUCTS[nxt]["allergens"]
    return bool(dropped & set(params["washdown_allergens"]))


def flavour_change(line, prev, nxt, params):
    """(minutes, purge cases) of a flavour changeover without a wash-down."""
    if prev == nxt:
        return 0.0, 0
    a, b = PRODUCTS[prev]["family"], PRODUCTS[nxt]["family"]
    if line == params["new_line"]:
        return float(params["new_flavour_min"] if a == b else params["new_swap_min"]), int(params["new_purge"])
    return OLD_MATRIX[(line, a, b)]


def washdown(line, params):
    if line == params["new_line"]:
        return float(params["new_wash_min"]), int(params["new_wash_waste"])
    return float(OLD_WASH_MIN), OLD_WASH_WASTE


def run_line(line, jobs, params):
    """Run one line's day in order (it starts clean: hygiene washes every line down overnight).
    jobs: [(job, wash_before)]. Returns what happened."""
    t, prev = 0.0, None
    out = {"packed": 0.0, "waste": 0, "washes": 0, "flavour": 0, "swaps": 0, "changeover_min": 0.0,
           "short": [], "done": [], "cross_contact": []}
    limit = hours(line, params) * 60
    skipped = False
    for job, wash in jobs:
        p = job["product"]
        crew_wash = not wash and skipped and wash_needed(prev, p, params)
        if wash or crew_wash:
            m, w = washdown(line, params)
        else:
            m, w = flavour_change(line, prev, p, params) if prev else (0.0, 0)
        run = job["cases"] / PRODUCTS[p]["rate"] * 60
        if t + m + run > limit:
            # the team leader won't start a run she can't finish before hygiene comes in: the mix the
            # kitchen made for it is binned, and she goes on to the next run on the sheet
            out["short"].append((job["job_id"], job["cases"]))
            out["waste"] += job["cases"]
            skipped = True
            continue
        if wash or crew_wash:
            out["washes"] += 1          # after a skipped run the pre-start check calls any wash-down QA needs
        elif wash_needed(prev, p, params):
            out["cross_contact"].append((prev, p, job["job_id"]))
        if not (wash or crew_wash) and prev and prev != p:
            out["flavour"] += 1
            out["swaps"] += PRODUCTS[prev]["family"] != PRODUCTS[p]["family"] and line == params["new_line"]
        t += m + run
        out["waste"] += w
        out["changeover_min"] += m
        out["packed"] += job["cases"]
        out["done"].append(job["job_id"])
        prev = p
    out["idle_min"] = limit - t
    return out
