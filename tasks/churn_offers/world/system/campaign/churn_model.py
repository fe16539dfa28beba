"""Churn propensity v3.2 (Customer Analytics, refit 2026-06): probability that a pay-monthly account
ports out or cancels within 90 days. Logistic; coefficients in model_v3_2.json."""
import json
import math
from datetime import date, timedelta
from pathlib import Path

MODEL = json.loads((Path(__file__).parent / "model_v3_2.json").read_text())


def features(acc, run_date):
    end = date.fromisoformat(acc["min_term_end"])
    out_of_term = end <= run_date
    ratio = float(acc["data_gb_30d"]) / max(float(acc["data_gb_prev_30d"]), 0.2)   # last 30 days vs the 30 before
    return {
        "out_of_term": 1.0 if out_of_term else 0.0,
        "ecn_window": 1.0 if (not out_of_term and end <= run_date + timedelta(days=60)) else 0.0,
        "pac": 1.0 if acc.get("pac_requested") == "Y" else 0.0,
        "care": float(min(int(acc.get("care_contacts_90d") or 0), 5)),
        "decline": min(1.0, max(0.0, 1.0 - ratio)),
    }


def score(acc, run_date):
    f = features(acc, run_date)
    x = MODEL["intercept"] + sum(MODEL["coef"][k] * v for k, v in f.items())
    return 1.0 / (1.0 + math.exp(-x))
