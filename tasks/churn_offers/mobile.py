"""Shared model of churn_offers (task side, never in a workspace): Brindle Mobile's pay-monthly base,
what the churn model sees, how likely each customer really is to port out this quarter, what a save
offer does to that, and the rules an offer must keep.

Every account has a true 90-day churn probability from the same logistic model the retention team
runs (campaign/churn_model.py), fed with its true usage. In the region whose usage feed stopped, the
model sees usage only up to the drop date. An offer of d% cuts the churn probability by TAKE_UP[d] and
costs d% of the bill for every month of the quarter the customer stays.
"""

from __future__ import annotations

import math
import random
from datetime import date, timedelta

REGIONS = {"London": 14, "South East": 13, "South West": 10, "Wales": 22, "Midlands": 18, "North West": 11,
           "North East": 16, "Yorkshire": 8, "Scotland": 18}
PLANS = [("SIM Only 12GB", 10.0, 12), ("SIM Only 40GB", 14.0, 12), ("SIM Only Unlimited", 22.0, 24),
         ("Unlimited + Galaxy S24", 46.0, 24), ("Unlimited + iPhone 15", 52.0, 36), ("30GB + Pixel 8a", 31.0, 24),
         ("Essentials 6GB", 8.0, 1), ("Family Unlimited x3", 58.0, 24)]
PLAN_W = [14, 16, 14, 12, 12, 9, 8, 5]
TAKE_UP = {10: 0.36, 20: 0.50}          # share of would-be churners an offer of that size keeps
MONTHS = 3                              # the quarter the KPI counts
DISCOUNT_MONTHS = 6
COEF = {"intercept": -3.0, "out_of_term": 1.0, "ecn_window": 1.2, "pac": 2.6, "care": 0.4, "decline": 2.7}


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def iso(d: date) -> str:
    return d.isoformat()


def add_months(d: date, n: int) -> date:
    y, m = divmod(d.month - 1 + n, 12)
    y, m = d.year + y, m + 1
    for day in (d.day, 30, 29, 28):
        try:
            return date(y, m, day)
        except ValueError:
            continue
    raise ValueError(d)


def risk(acc: dict, run: date, gb30: float, gbprev: float) -> float:
    """The churn model's probability of porting out within 90 days, from these usage figures."""
    end = date.fromisoformat(acc["min_term_end"])
    out = end <= run
    ecn = (not out) and end <= run + timedelta(days=60)
    ratio = gb30 / max(gbprev, 0.2)
    x = (COEF["intercept"] + COEF["out_of_term"] * out + COEF["ecn_window"] * ecn
         + COEF["pac"] * (acc["pac_requested"] == "Y") + COEF["care"] * min(int(acc["care_contacts_90d"]), 5)
         + COEF["decline"] * min(1.0, max(0.0, 1.0 - ratio)))
    return sigmoid(x)


def seen_share(run: date, drop: date, lo: int, hi: int) -> float:
    """Share of the usage window [run-hi, run-lo) days that arrived before the feed dropped."""
    start, end = run - timedelta(days=hi), run - timedelta(days=lo)
    if drop >= end:
        return 1.0
    if drop <= start:
        return 0.0
    return (drop - start).days / (hi - lo)


def _as_typed(rng: random.Random, region: str) -> str:
    """The region as the CRM holds it: mostly clean, some rows from the 2025 migration upper-cased,
    lower-cased or with a trailing space."""
    u = rng.random()
    return region.upper() if u < 0.05 else region.lower() if u < 0.08 else region + " " if u < 0.1 else region


def accounts(rng: random.Random, params: dict, run: date, n: int, first: int) -> tuple[list[dict], dict]:
    """One weekly campaign run's scored base: what the feed shows, and the truth by account."""
    regions, weights = list(REGIONS), list(REGIONS.values())
    drop = date.fromisoformat(params["drop_date"])
    out, truth = [], {}
    for i in range(n):
        region = rng.choices(regions, weights)[0]
        plan, fee, term = rng.choices(PLANS, PLAN_W)[0]
        fee = round(fee + rng.choice([0, 0, 0, 1.0, 2.0, -1.0, 3.5]), 2)
        started = run - timedelta(days=rng.randint(20, 52 * 30))
        end = add_months(started, term)
        if rng.random() < 0.16:                          # near the end: the Ofcom end-of-contract notice has gone
            end = run + timedelta(days=rng.randint(1, 58))
        prev = round(rng.lognormvariate(2.3, 0.8), 2)
        decliner = rng.random() < 0.17
        true30 = round(prev * (rng.uniform(0.05, 0.55) if decliner else rng.uniform(0.8, 1.25)), 2)
        pac = "Y" if rng.random() < (0.25 if decliner else 0.08) else "N"
        care = rng.choices([0, 1, 2, 3, 4, 6], [52, 22, 12, 7, 4, 3])[0]
        consent = rng.choices(["Y", "y", "Yes", "N", "n", "No", ""], [58, 4, 6, 18, 2, 5, 7])[0]
        acc = {"account_id": f"BM-{first + i:07d}", "region": _as_typed(rng, region), "plan": plan, "monthly_fee": fee,
               "min_term_end": iso(end), "mkt_consent": consent, "pac_requested": pac,
               "care_contacts_90d": care, "tenure_months": max(1, (run - started).days // 30)}
        s30, sprev = 1.0, 1.0
        if region == params["stale_region"]:
            s30, sprev = seen_share(run, drop, 0, 30), seen_share(run, drop, 30, 60)
        acc["data_gb_30d"], acc["data_gb_prev_30d"] = round(true30 * s30, 2), round(prev * sprev, 2)
        out.append(acc)
        truth[acc["account_id"]] = {"p": risk(acc, run, true30, prev), "true30": true30, "prev": prev}
    return out, truth


def consented(acc: dict) -> bool:
    return str(acc.get("mkt_consent") or "").strip().upper() in ("Y", "YES")


def in_term(acc: dict, run: date, window_months: int) -> bool:
    """True when a discount on the same plan is not allowed: the minimum term ends after the run
    date plus the window in which Revenue Assurance allows a re-sign offer."""
    return date.fromisoformat(acc["min_term_end"]) > add_months(run, int(window_months))


def money(x: float) -> str:
    return f"£{x:.2f}"


def disclosure_missing(acc: dict, pct: int, sms: str, params: dict) -> list[str]:
    """What the offer text fails to state, by the disclosure rule of the variant."""
    fee = float(acc["monthly_fee"])
    text = sms or ""
    need = {"discounted price": money(fee * (100 - pct) / 100), "price after the discount": money(fee),
            "discount length": f"{DISCOUNT_MONTHS} months"}
    if params.get("rise_in_copy"):
        need["April price rise"] = money(float(params["april_rise_gbp"]))
    missing = [k for k, v in need.items() if v not in text]
    if params.get("rise_in_copy") and "April" not in text and "April price rise" not in missing:
        missing.append("April price rise")
    return missing


def value(acc: dict, p: float, pct: int) -> float:
    """Expected margin retained over the quarter: the bill while the customer stays, less the discount."""
    keep = 1.0 - p * (1.0 - TAKE_UP.get(pct, 0.0))
    return keep * float(acc["monthly_fee"]) * MONTHS * (100 - pct) / 100
