"""GLACIER-2 (Halvorsen HTX-221-301) eligibility pre-screen for site 114, St. Casimir CRU.

The CTMS nightly export calls screen_batch() with every screening visit whose labs are back.
"eligible" -> the CRC books the randomisation visit; "screen_fail" -> logged as a screen failure
in the CTMS with the criterion; "pi_review" -> Dr Deshmukh's queue for the Thursday eligibility
huddle. Limits live in criteria.json (protocol units: mg/dL, %).
"""

from __future__ import annotations

import json
from pathlib import Path

CRITERIA = Path(__file__).resolve().parent.parent / "criteria.json"


def load_criteria() -> dict:
    return json.loads(CRITERIA.read_text(encoding="utf-8"))


def lab_values(patient: dict) -> dict:
    """analyte -> value, one per analyte (the first result on the record)."""
    vals: dict = {}
    for r in patient.get("labs") or []:
        vals.setdefault(r["analyte"], float(r["value"]))
    return vals


def screen(patient: dict, crit: dict) -> dict:
    sid = patient["screening_id"]
    failed = []
    lo, hi = crit["age"]
    if not lo <= int(patient["age"]) <= hi:
        failed.append("I1 age")
    lo, hi = crit["bmi"]
    if not lo <= float(patient["bmi"]) <= hi:
        failed.append("I3 BMI")
    if patient.get("insulin_90d"):
        failed.append("E1 insulin within 90 days")
    labs = lab_values(patient)
    for analyte, rule in crit["labs"].items():
        v = labs.get(analyte)
        if v is None:
            return {"screening_id": sid, "decision": "pi_review", "reason": f"no {analyte} result"}
        if rule.get("min") is not None and v < rule["min"]:
            failed.append(f"{rule['criterion']} {analyte} {v:g} < {rule['min']:g}")
        if rule.get("max") is not None and v > rule["max"]:
            failed.append(f"{rule['criterion']} {analyte} {v:g} > {rule['max']:g}")
    if failed:
        return {"screening_id": sid, "decision": "screen_fail", "reason": "; ".join(failed)}
    return {"screening_id": sid, "decision": "eligible", "reason": "meets I1-I3, E1-E4"}


def screen_batch(patients: list[dict]) -> list[dict]:
    """[screening visit] -> [{screening_id, decision: eligible|screen_fail|pi_review, reason}]."""
    crit = load_criteria()
    return [screen(p, crit) for p in patients]
