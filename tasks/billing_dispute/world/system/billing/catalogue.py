"""Price book access. Since 4.0.0 the catalogue is the single source of truth for prices."""
import json
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_CACHE = {}


def load():
    if "cat" not in _CACHE:
        with open(os.path.join(_HERE, "catalogue.json")) as f:
            _CACHE["cat"] = json.load(f)
    return _CACHE["cat"]


def list_price(plan: str, period: str) -> float:
    """List price of `plan` for a billing period 'YYYY-MM' (the price book row in force on day 1)."""
    day1 = period + "-01"
    rows = sorted(load()["list_prices"], key=lambda r: r["effective"])
    price = None
    for r in rows:
        if r["effective"] <= day1:
            price = r["prices"][plan]
    if price is None:
        raise KeyError(f"no list price for {plan} in {period}")
    return float(price)


def plan_info(plan: str) -> dict:
    return load()["plans"][plan]
