"""Traffic for trial_screening: the workspace's screening history, held-out and shadow visits.

Seeds live in separate string namespaces ("dev:", "heldout:", "shadow:"); screening numbers are
disjoint (dev SCR-1xxx, shadow SCR-5xxx, held-out SCR-7xxx). No clock, no global RNG.
"""

from __future__ import annotations

import csv
import io
import random
from datetime import date, timedelta
from pathlib import Path

from . import screening

DEV_START, DEV_DAYS = date(2026, 8, 17), 75            # to Fri 30 Oct; the clock starts Mon 2 Nov
HELD_OUT_START, HELD_OUT_WEEKS = date(2026, 11, 2), 4
SHADOW_START = date(2026, 11, 2)


def _weeks(pts: list[dict]) -> list[list[dict]]:
    by: dict = {}
    for p in pts:
        by.setdefault(date.fromisoformat(p["screening_date"]).isocalendar()[1], []).append(p)
    return [by[k] for k in sorted(by)]


def held_out(params: dict, seed: int) -> dict:
    """Four weeks of screening visits after hand-over (2-27 Nov 2026), one nightly batch a week."""
    rng = random.Random(f"heldout:{seed}:{int(params.get('world_seed', 0))}")
    n = int(params["visits_per_week"]) * HELD_OUT_WEEKS
    pts = screening.patients(rng, params, HELD_OUT_START, 7 * HELD_OUT_WEEKS, n, 7000)
    return {"batches": _weeks(pts), "weeks": HELD_OUT_WEEKS}


def shadow(params: dict, day: int) -> dict:
    """One trial day: two weeks of booked screening visits replayed through a shadow copy."""
    rng = random.Random(f"shadow:{day}:{int(params.get('world_seed', 0))}")
    start = SHADOW_START + timedelta(days=7 * (day % 3))
    pts = screening.patients(rng, params, start, 14, int(params["visits_per_week"]) * 2, 5000 + 200 * day)
    return {"batches": _weeks(pts), "weeks": 2}


CRC = ["TM", "JF", "tm", "BS", "J. Ferraro", "TM"]
NOTES = {
    "niagara_referral": ["referral from Dr Bianchi (Welland)", "pt drove from St. Catharines, {m} min",
                         "Niagara pt - creat flagged again??", "ref. Dr Petrakis, Fort Erie",
                         "pt says kidneys fine, PCP checked in {mon}", "Niagara HIE results, no fax",
                         "pt asked about parking reimbursement", "Welland FHT referral", ""],
    "scmc_endo": ["", "", "from Dr Haas endo clinic", "pt keen, wants in", "endo f/u {mon}", "spouse also interested",
                  "needs interpreter (Polish)", "on metformin {mg} mg"],
    "scmc_primary_care": ["", "PCP referral", "seen at Broadway clinic", "pt not fasting?? redraw", "pcp: dr. wu", ""],
    "community_pcp": ["", "Quest draw Cheektowaga", "labs from Quest, faxed copy in chart", "pt works nights", ""],
}
MONTHS = ["June", "July", "Aug", "Sept", "Oct"]


def _note(rng: random.Random, p: dict) -> str:
    n = rng.choice(NOTES[p["source"]]).format(m=rng.choice([40, 45, 50, 55, 70]), mon=rng.choice(MONTHS),
                                            mg=rng.choice([1000, 1500, 2000]))
    if p["_retest"] and rng.random() < 0.6:
        n = (n + "; " if n else "") + rng.choice(["redraw {d}", "repeat {a} {d}", "re-drawn fasting {d}",
                                                  "hemolysed, redraw {d}"]).format(
            d=rng.choice(["next wk", "Tues", "Thurs", "Mon"]), a=p["_retest"].lower())
    return n


def dev(params: dict, out: Path) -> None:
    rng = random.Random(f"dev:{int(params.get('world_seed', 0))}")
    pts = screening.patients(rng, params, DEV_START, DEV_DAYS, 13 * 11, 1500)
    log, labs, lines = io.StringIO(), io.StringIO(), []
    lw, rw = csv.writer(log), csv.writer(labs)
    lw.writerow(["screening_id", "visit_date", "source", "age", "sex", "bmi", "insulin_90d", "screener_decision",
                 "screener_reason", "crc", "crc_note"])
    rw.writerow(["screening_id", "accession", "analyte", "value", "units", "performing_lab", "collected"])
    for p in pts:
        dec, why = screening.legacy_decision(p)
        lw.writerow([p["screening_id"], p["screening_date"], p["source"], p["age"], p["sex"], p["bmi"],
                     "Y" if p["insulin_90d"] else "N", dec, why, rng.choice(CRC), _note(rng, p)])
        for r in p["labs"]:
            if r["collected"] > "2026-10-30":
                continue                        # redrawn after the extract was pulled: not filed yet
            rw.writerow([p["screening_id"], r["accession"], r["analyte"], r["value"], r["units"], r["lab"], r["collected"]])
    by_day: dict = {}
    for p in pts:
        ready = max(r["collected"] for r in p["labs"])
        by_day.setdefault(ready, []).append(screening.legacy_decision(p)[0])
    for d, decs in sorted(by_day.items()):
        run = date.fromisoformat(d) + timedelta(days=1)
        if run.isoformat() > "2026-10-30":
            continue
        lines.append(f"{run} 02:15:{rng.randint(3, 40):02d} INFO ctms_nightly screen_batch n={len(decs)} "
                     f"eligible={decs.count('eligible')} screen_fail={decs.count('screen_fail')} "
                     f"pi_review={decs.count('pi_review')}")
    lines += ["2026-08-21 02:15:09 WARN ctms_nightly HIE feed late (Niagara) - 3 visits held to next run",
              "2026-09-08 02:15:31 ERROR ctms_nightly OnCore API 503, retry 1/3",
              "2026-09-08 02:16:02 INFO ctms_nightly OnCore API ok",
              "2026-10-09 02:15:12 INFO ctms_nightly criteria.json unchanged (HTX-221-301 v3.0 (Amendment 2))"]
    (out / "data").mkdir(parents=True, exist_ok=True)
    (out / "data" / "screening_log.csv").write_text(log.getvalue(), encoding="utf-8")
    (out / "data" / "lab_results.csv").write_text(labs.getvalue(), encoding="utf-8")
    (out / "logs").mkdir(parents=True, exist_ok=True)
    (out / "logs" / "ctms_nightly.log").write_text("\n".join(sorted(lines)) + "\n", encoding="utf-8")
