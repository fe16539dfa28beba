"""Pre-qualification decisions for unsecured personal installment loans.

Entry point (called by the LOS intake job every 15 minutes, see README.md):

    decide_batch(apps: list[dict]) -> list[dict]
        one {"app_id", "decision": "approve"|"decline", "reasons": [code, ...],
             "monthly_income", "dti"} per application, same order.

Declines must carry the principal reasons (Reg B / FCRA adverse action): the LOS prints them on
the notice. Policy numbers live in config.json (credit committee owns them).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from prequal.income import monthly_income

log = logging.getLogger("prequal.engine")
CONFIG = Path(__file__).resolve().parent.parent / "config.json"


def load_config() -> dict:
    return json.loads(CONFIG.read_text(encoding="utf-8"))


def payment(amount: float, apr: float, term: int) -> float:
    r = apr / 12
    if r <= 0:
        return amount / term
    return amount * r / (1 - (1 + r) ** -term)


def apr_for(fico: int, cfg: dict) -> float:
    for band in cfg["pricing"]:
        if fico >= band["min_fico"]:
            return band["apr"]
    return cfg["pricing"][-1]["apr"]


def decide(app: dict, cfg: dict) -> dict:
    codes = cfg["reason_codes"]
    reasons: list[str] = []
    income = monthly_income(app)
    amount = float(app.get("requested_amount") or 0)
    term = int(app.get("term_months") or 36)
    fico = int(app.get("fico") or 0)
    pay = payment(amount, apr_for(fico, cfg), term)
    debt = float(app.get("monthly_debt") or 0)
    dti = (debt + pay) / income if income > 0 else 99.0

    if int(app.get("age") or 0) < cfg["min_age"]:
        reasons.append(codes["age"])
    if fico < cfg["min_fico"]:
        reasons.append(codes["credit_score"])
    if app.get("bankruptcy_24m"):
        reasons.append(codes["bankruptcy"])
    if dti > cfg["max_dti"]:
        reasons.append(codes["dti"])
    if income < cfg["min_monthly_income"]:
        reasons.append(codes["income"])
    if amount > cfg["max_amount"]:
        reasons.append(codes["amount"])

    return {"app_id": app["app_id"], "decision": "decline" if reasons else "approve",
            "reasons": reasons[:4], "monthly_income": round(income, 2), "dti": round(min(dti, 99.0), 4)}


def decide_batch(apps: list) -> list:
    cfg = load_config()
    return [decide(a, cfg) for a in apps]


if __name__ == "__main__":  # python3 -m prequal.engine < batch.json
    import sys
    print(json.dumps(decide_batch(json.load(sys.stdin)), indent=1))
