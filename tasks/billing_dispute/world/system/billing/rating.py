"""Rating: turns one account's month (plan, plan changes, usage) into invoice lines.

A month is split into subscription segments; each segment is billed at
    monthly price * days_in_segment / days_in_month
(daily proration, actual days). Usage above the included credits of the plan the account is
on at the end of the period is billed as overage.

History: see CHANGELOG.md. Plan changes come in from the CRM webhook (self-serve upgrades,
CSM-initiated changes, support). `effective` is the account-local timestamp of the change; the
date part is the billing date.
"""
import calendar

from . import catalogue
from .money import cents


def days_in(period: str) -> int:
    y, m = int(period[:4]), int(period[5:7])
    return calendar.monthrange(y, m)[1]


def change_day(change: dict) -> int:
    return int(change["effective"][8:10])


def build_segments(plan_at_start: str, changes: list, period: str) -> list:
    """-> [(plan, first_day, last_day)] for the period.

    Since 3.8.0 a plan change opens a new subscription line from its effective date to the end
    of the period. The open line is closed by the subscription reconciler (BILL-412).
    """
    last = days_in(period)
    segments = [(plan_at_start, 1, last)]
    for ch in sorted(changes, key=lambda c: (change_day(c), c.get("change_id", ""))):
        segments.append((ch["to_plan"], change_day(ch), last))
    return segments


def unit_price(plan: str, period: str, account: dict, contract: dict = None) -> float:
    # 4.0.0: catalogue-driven pricing. Per-subscription overrides were retired with the
    # price book migration; everyone is rated from the price book (FIN-233).
    return catalogue.list_price(plan, period)


def rate_account(account: dict, changes: list, credits_used: int, contract: dict, period: str) -> list:
    last = days_in(period)
    lines = []
    for plan, first, final in build_segments(account["plan_at_start"], changes, period):
        price = unit_price(plan, period, account, contract)
        days = final - first + 1
        lines.append({"kind": "subscription", "plan": plan,
                      "from": f"{period}-{first:02d}", "to": f"{period}-{final:02d}",
                      "unit_price_usd": price, "amount_usd": cents(price * days / last)})
    end_plan = account["plan_at_start"]
    for ch in sorted(changes, key=lambda c: (change_day(c), c.get("change_id", ""))):
        end_plan = ch["to_plan"]
    info = catalogue.plan_info(end_plan)
    over = max(0, int(credits_used) - int(info["included_credits"]))
    if over:
        rate = float(info["overage_per_credit"])
        lines.append({"kind": "overage", "plan": end_plan, "credits": over, "unit_price_usd": rate,
                      "amount_usd": cents(over * rate)})
    return lines
