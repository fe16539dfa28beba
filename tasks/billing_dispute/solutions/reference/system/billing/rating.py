"""Rating: turns one account's month (plan, plan changes, usage) into invoice lines.

Plan changes: the old plan is billed up to the day before the change, the new plan from the
change date (no overlap). The change date is the date part of the account-local stamp, read
against the billed period (the extract is cut on UTC, so neighbouring-month dates occur). Convention per policy.json `proration`:
  daily      monthly price * days / days_in_month (actual days)
  mid_month  changes effective on or before the 15th bill the new plan for the whole month;
             later changes take effect from the next period.
Price protection: the contracted fee applies to the locked plan for periods starting on or
before the lock end date. Source per policy.json `lock_source` (register | order_form); a signed
amendment in the contract feed supersedes clause 4.2 from its effective date.
"""
import calendar
import json
import os
import re

from . import catalogue
from .money import cents, parse_amount

_HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(_HERE, "policy.json")) as _f:
    POLICY = json.load(_f)

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december"]
PLANS = ["starter", "team", "growth", "scale", "enterprise"]


def days_in(period):
    y, m = int(period[:4]), int(period[5:7])
    return calendar.monthrange(y, m)[1]


def change_day(change, period):
    """Day of `period` the change bills from, by the date part of its account-local stamp.

    The warehouse cuts the extract at 00:00 UTC but `effective` is the account's wall clock, so a
    change can sit in a neighbouring month's extract: dated before the period it applies from
    day 1; dated after it, it belongs to the next period (None) and next month's plan_at_start
    already carries it."""
    date = change["effective"][:10]
    if date[:7] < period:
        return 1
    if date[:7] > period:
        return None
    return int(date[8:10])


def _ordered(changes, period):
    """[(billing day, change)] of the changes that bill in `period`, in order."""
    days = [(change_day(c, period), c) for c in changes]
    return sorted(((d, c) for d, c in days if d is not None), key=lambda x: (x[0], x[1].get("change_id", "")))


def build_segments(plan_at_start, changes, period):
    last = days_in(period)
    if POLICY["proration"] == "mid_month":
        plan = plan_at_start
        for d, ch in _ordered(changes, period):
            if d <= 15:
                plan = ch["to_plan"]
        return [(plan, 1, last)]
    segments, plan, start = [], plan_at_start, 1
    for d, ch in _ordered(changes, period):
        if d > start:
            segments.append((plan, start, d - 1))
        plan, start = ch["to_plan"], max(start, d)
    segments.append((plan, start, last))
    return segments


def _parse_date(text):
    m = re.search(r"(\d{4}-\d{2}-\d{2})", text)
    if m:
        return m.group(1)
    m = re.search(r"(\d{1,2})\s+(" + "|".join(MONTHS) + r")\s+(\d{4})", text, re.I)
    if m:
        return f"{m.group(3)}-{MONTHS.index(m.group(2).lower()) + 1:02d}-{int(m.group(1)):02d}"
    return None


def lock_from_order_form(text):
    if not text:
        return None
    for sentence in re.split(r"(?<=[.)])\s+(?=[A-Z0-9])", text):
        if not re.search(r"price protection|price hold|will not increase|locked|remain fixed", sentence, re.I):
            continue
        if re.search(r"implementation", sentence, re.I):
            continue
        plan = re.search(r"\b(" + "|".join(PLANS) + r")\b", sentence, re.I)
        fee = re.search(r"US\$?D?\s*([\d,]+\.\d{2})", sentence)
        until = _parse_date(sentence[fee.end():] if fee else sentence)
        if plan and fee and until:
            return {"fee": parse_amount(fee.group(1)), "plan": plan.group(1).lower(), "until": until}
    return None


def lock_from_register(contract):
    reg = (contract or {}).get("register") or {}
    if reg.get("price_lock_usd") and reg.get("lock_plan") and reg.get("lock_until"):
        return {"fee": parse_amount(reg["price_lock_usd"]), "plan": reg["lock_plan"].strip().lower(),
                "until": reg["lock_until"].strip()}
    return None


def amend(lock, text, period):
    """A signed amendment supersedes clause 4.2 from its effective date: it either restates the
    protected fee or ends the protection (list pricing from then on)."""
    m = re.search(r"(?:with effect from|effective)\s+(.*)", text, re.I | re.S)
    effective = _parse_date(m.group(1)) if m else None
    if not effective or period + "-01" < effective:
        return lock
    if re.search(r"\bis deleted\b|no longer applies|moves to list pricing", text, re.I):
        return None
    plan = re.search(r"\b(" + "|".join(PLANS) + r")\b", text, re.I)
    fee = re.search(r"US\$?D?\s*([\d,]+\.\d{2})", text)
    if not (plan and fee):
        return lock
    until = _parse_date(text[fee.end():]) or (lock or {}).get("until")
    return {"fee": parse_amount(fee.group(1)), "plan": plan.group(1).lower(), "until": until}


def price_lock(contract, period):
    if not contract:
        return None
    if POLICY["lock_source"] == "order_form":
        lock = lock_from_order_form(contract.get("order_form_excerpt") or "")
    else:
        lock = lock_from_register(contract)
    for am in sorted(contract.get("amendments") or [], key=lambda a: (a.get("signed") or "", a.get("amendment_id") or "")):
        lock = amend(lock, am.get("text") or "", period)
    return lock


def unit_price(plan, period, account, contract=None):
    lock = price_lock(contract, period)
    if lock and lock["plan"] == plan and period + "-01" <= lock["until"]:
        return lock["fee"]
    return catalogue.list_price(plan, period)


def rate_account(account, changes, credits_used, contract, period):
    last = days_in(period)
    lines = []
    for plan, first, final in build_segments(account["plan_at_start"], changes, period):
        price = unit_price(plan, period, account, contract)
        days = final - first + 1
        lines.append({"kind": "subscription", "plan": plan,
                      "from": f"{period}-{first:02d}", "to": f"{period}-{final:02d}",
                      "unit_price_usd": price, "amount_usd": cents(price * days / last)})
    end_plan = account["plan_at_start"]
    for _, ch in _ordered(changes, period):
        end_plan = ch["to_plan"]
    info = catalogue.plan_info(end_plan)
    over = max(0, int(credits_used) - int(info["included_credits"]))
    if over:
        rate = float(info["overage_per_credit"])
        lines.append({"kind": "overage", "plan": end_plan, "credits": over, "unit_price_usd": rate,
                      "amount_usd": cents(over * rate)})
    return lines
