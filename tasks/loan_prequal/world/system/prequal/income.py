"""Stated income -> gross monthly income, the figure every affordability check uses.

History: written for the branch LOS screens (2019), where the loan officer keys
  * employed:       gross annual salary (W-2 box 1 or offer letter)
  * self_employed:  net profit, last tax year (Schedule C line 31) - annual
  * retired:        annual pension + Social Security
Partner (LendCompass) and the online application were mapped onto the same fields when they
went live - see docs/intake_mapping.md. -- R. Dunleavy
"""

from __future__ import annotations

import logging

log = logging.getLogger("prequal.income")

# how many of the stated figure make one month
PERIODS_PER_MONTH = {"annual": 1 / 12, "monthly": 1.0}

# stated basis per employment type (all channels)
BASIS = {"employed": "annual", "self_employed": "annual", "retired": "annual"}


def parse_amount(raw) -> float:
    """The LOS sends numbers; anything else is logged and treated as no income."""
    if isinstance(raw, (int, float)):
        return float(raw)
    try:
        return float(str(raw).replace(",", "").strip())
    except ValueError:
        log.warning("income_amount unparseable: %r", raw)
        return 0.0


def monthly_income(app: dict) -> float:
    amount = parse_amount(app.get("income_amount"))
    basis = BASIS.get(app.get("employment", ""), "annual")
    return amount * PERIODS_PER_MONTH[basis]
