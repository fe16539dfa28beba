"""Shared model of trial_screening (task side, never in a workspace): who is screened, what their
labs really are, which protocol version governs them, and what each screening decision is worth.

Every patient has true values in the protocol's units (mg/dL, %). A lab reports each analyte in
its own units; a retest (one allowed per analyte) replaces the first draw. The protocol version
is the one in force on the screening visit date: the amendment applies from its site activation.
"""

from __future__ import annotations

import random
from datetime import date, timedelta

# analyte -> (protocol unit, SI unit, SI per protocol unit or the IFCC formula)
CREAT_SI = 88.4          # umol/L per mg/dL
GLUC_SI = 1 / 18.0       # mmol/L per mg/dL (the protocol's appendix factor)


def to_si(analyte: str, value: float) -> float:
    if analyte == "CREAT":
        return value * CREAT_SI
    if analyte == "GLU":
        return value * GLUC_SI
    return (value - 2.15) * 10.929          # HbA1c % (NGSP) -> mmol/mol (IFCC)


SI_UNIT = {"CREAT": "umol/L", "GLU": "mmol/L", "HBA1C": "mmol/mol"}
CONV_UNIT = {"CREAT": "mg/dL", "GLU": "mg/dL", "HBA1C": "%"}
DECISIONS = ("eligible", "screen_fail", "pi_review")
ENROL, SCREEN_FAIL_COST, REVIEW_COST, REVIEW_DROP = 1.0, 0.3, 0.1, 0.5


def limits(params: dict, screened: str) -> dict:
    """The protocol limits in force on a screening date (ISO): {analyte: (min, max)} in protocol units,
    plus age and BMI. Exclusions are '> max'; inclusions 'between min and max inclusive'."""
    lim = {"AGE": (18, 75), "BMI": (25.0, 45.0), "HBA1C": (7.0, 10.5), "GLU": (None, 270.0), "CREAT": (None, 1.5)}
    if screened >= params["amend_date"]:
        lo, _ = lim[params["amend_analyte"]]
        lim[params["amend_analyte"]] = (lo, float(params["amend_new"]))
    return lim


def latest(results: list[dict], analyte: str) -> dict | None:
    rows = [r for r in results if r["analyte"] == analyte]
    return max(rows, key=lambda r: r["collected"]) if rows else None


def truly_eligible(p: dict, params: dict) -> bool:
    """The protocol's answer: every criterion on the true values of the latest draw per analyte."""
    lim = limits(params, p["screening_date"])
    t = p["_true"]
    if not lim["AGE"][0] <= p["age"] <= lim["AGE"][1] or not lim["BMI"][0] <= p["bmi"] <= lim["BMI"][1]:
        return False
    if p["insulin_90d"]:
        return False
    for a in ("HBA1C", "GLU", "CREAT"):
        lo, hi = lim[a]
        v = t[a]
        if (lo is not None and v < lo) or v > hi:
            return False
    return True


def value(p: dict, decision: str) -> float:
    """Points one screening decision earns: a randomised eligible patient 1, a screen failure -0.3,
    a PI review 0.1 of the PI's time and a week's wait (half the eligible patients lost to it)."""
    ok = p["_eligible"]
    if decision == "eligible":
        return ENROL if ok else 0.0                   # an ineligible enrolment is an incident
    if decision == "pi_review":
        return -REVIEW_COST + ((ENROL if p["_u"] >= REVIEW_DROP else 0.0) if ok else -SCREEN_FAIL_COST)
    return -SCREEN_FAIL_COST


# --------------------------------------------------------------------------- patients

LABS = {"scmc": ["SCMC Core Lab", "SCMC CORE LAB", "St. Casimir Core Laboratory"],
        "niagara": ["Niagara Regional Laboratory", "NIAGARA REGIONAL LAB", "Niagara Regional Lab."],
        "quest": ["Quest Diagnostics - Cheektowaga", "QUEST CHEEKTOWAGA"]}
SOURCES = [("scmc_endo", "scmc", 34), ("scmc_primary_care", "scmc", 22), ("niagara_referral", "niagara", 30),
           ("community_pcp", "quest", 14)]
UNIT_SPELL = {"umol/L": ["umol/L", "µmol/L", "umol/l", "UMOL/L"], "mmol/L": ["mmol/L", "mmol/l", "MMOL/L"],
              "mmol/mol": ["mmol/mol"], "mg/dL": ["mg/dL", "mg/dl", "MG/DL"], "%": ["%", "% NGSP"]}


def _draw_true(rng: random.Random, creat_band: float) -> dict:
    hb = round(rng.choices([rng.uniform(6.0, 6.9), rng.uniform(7.1, 10.4), rng.uniform(10.6, 12.0)], [10, 80, 10])[0], 1)
    glu = round(rng.choices([rng.uniform(110, 236), rng.uniform(244, 266), rng.uniform(275, 330)], [66, 22, 12])[0])
    creat = round(rng.choices([rng.uniform(0.6, 1.45), rng.uniform(1.55, 1.75), rng.uniform(1.85, 2.6)],
                              [1 - creat_band - 0.08, creat_band, 0.08])[0], 2)
    return {"HBA1C": hb, "GLU": float(glu), "CREAT": creat}


def _report(analyte: str, true: float, lab: str, params: dict, rng: random.Random) -> tuple[float, str]:
    si = lab == "niagara" and analyte in params["si_analytes"]
    if not si:
        v = round(true, 2) if analyte == "CREAT" else (round(true, 1) if analyte == "HBA1C" else round(true))
        return v, rng.choice(UNIT_SPELL[CONV_UNIT[analyte]])
    v = to_si(analyte, true)
    v = round(v) if analyte in ("CREAT", "HBA1C") else round(v, 1)
    return v, rng.choice(UNIT_SPELL[SI_UNIT[analyte]])


def _off_limit(analyte: str, true: float, params: dict) -> float:
    """A first draw that reads out of range when the true value is not (a non-fasting glucose, a
    dehydrated creatinine, a lab's HbA1c off by a point) - the retest is the one that counts. The
    HbA1c draw reads above the upper limit of either version (amend_hba1c widens it to 11.5 %)."""
    if analyte == "GLU":
        return float(max(round(true) + 60, 292))
    if analyte == "CREAT":
        return round(max(true, 1.5) + 0.45, 2)
    top = max(10.5, float(params["amend_new"])) if params["amend_analyte"] == "HBA1C" else 10.5
    return round(max(true + 1.6, top + 0.4), 1)


def patients(rng: random.Random, params: dict, start: date, days: int, n: int, first: int) -> list[dict]:
    """Screening visits (weekdays) with their lab results, true values and the dice the grader uses."""
    out = []
    weekdays = [start + timedelta(days=d) for d in range(days) if (start + timedelta(days=d)).weekday() < 5]
    src_w = [w for _, _, w in SOURCES]
    for i in range(n):
        src, lab, _ = rng.choices(SOURCES, src_w)[0]
        day = rng.choice(weekdays)
        true = _draw_true(rng, float(params["creat_band"]))
        results, k = [], 0
        share = float(params["retest_share"])
        retest = int((i + 1) * share) > int(i * share)          # an even share of visits, not a coin per visit
        redo = rng.choice(["GLU", "CREAT", "HBA1C"]) if retest else None
        for a in ("HBA1C", "GLU", "CREAT"):
            draws = [(_off_limit(a, true[a], params), day), (true[a], day + timedelta(days=rng.randint(3, 9)))] \
                if a == redo else [(true[a], day)]
            for tv, when in draws:
                v, unit = _report(a, tv, lab, params, rng)
                k += 1
                results.append({"analyte": a, "value": v, "units": unit, "lab": rng.choice(LABS[lab]),
                                "collected": when.isoformat(), "accession": f"{lab[:2].upper()}{first + i:06d}{k}"})
        insulin = rng.random() < 0.07
        out.append({"screening_id": f"SCR-{first + i:04d}", "screening_date": day.isoformat(), "source": src,
                    "age": rng.choices([rng.randint(18, 75), rng.randint(76, 82)], [95, 5])[0],
                    "sex": rng.choice("FM"), "bmi": round(rng.choices([rng.uniform(25, 45), rng.uniform(45.1, 49)],
                                                                      [95, 5])[0], 1),
                    "insulin_90d": insulin, "labs": results, "_true": true, "_u": rng.random(), "_lab": lab,
                    "_retest": redo})
    out.sort(key=lambda p: (p["screening_date"], p["screening_id"]))
    for k, p in enumerate(out):              # screening numbers are issued in visit order
        p["screening_id"] = f"SCR-{first + k:04d}"
        for j, r in enumerate(p["labs"]):
            r["accession"] = f"{r['accession'][:2]}{first + k:06d}{j + 1}"
        p["_eligible"] = truly_eligible(p, params)
    return out


def public(p: dict) -> dict:
    """What the CTMS export sends the screener: no truth, no dice."""
    return {k: v for k, v in p.items() if not k.startswith("_")}


def legacy_decision(p: dict) -> tuple[str, str]:
    """What the screener as found decides (first result per analyte, values as filed): used for the
    decisions in the workspace's history."""
    failed = []
    if not 18 <= p["age"] <= 75:
        failed.append("I1 age")
    if not 25.0 <= p["bmi"] <= 45.0:
        failed.append("I3 BMI")
    if p["insulin_90d"]:
        failed.append("E1 insulin within 90 days")
    first: dict = {}
    for r in p["labs"]:
        first.setdefault(r["analyte"], float(r["value"]))
    if not 7.0 <= first["HBA1C"] <= 10.5:
        failed.append(f"I2 HBA1C {first['HBA1C']:g} {'<' if first['HBA1C'] < 7 else '>'} {7 if first['HBA1C'] < 7 else 10.5:g}")
    if first["GLU"] > 270:
        failed.append(f"E3 GLU {first['GLU']:g} > 270")
    if first["CREAT"] > 1.5:
        failed.append(f"E4 CREAT {first['CREAT']:g} > 1.5")
    return ("screen_fail", "; ".join(failed)) if failed else ("eligible", "meets I1-I3, E1-E4")
