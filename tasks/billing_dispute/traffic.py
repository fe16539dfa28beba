"""Traffic for billing_dispute (Lumencrest Analytics billing engine).

dev(params, out)       -> the workspace's data/ (Oct-Dec 2025 cycles, invoices as issued, the
                          dispute export, the contract register export, a run log)
held_out(params, seed) -> one legacy cycle (Jan 2026, already invoiced by the old engine) whose
                          disputes arrive during grading, and three future cycles (Feb-Apr 2026)
shadow(params, day)    -> one cycle of shadow traffic for a trial day

held_out/shadow also take the texture params of sampled variants (sampler.py): traffic_salt
(re-seeds the draws), new_accounts, legacy_invalid, invalid_per_cycle, plan_change_rate_monthly /
plan_change_rate_annual. Absent (named variants) they keep the defaults; dev() ignores them.

Also home of the billing rules (`rate`), shared by grader.py and trial.py: `mode="truth"`
applies the customer's real contract terms (params), `mode="legacy"` reproduces the engine as
found (double proration on plan changes, catalogue list price for everyone).

Everything is seeded with its own random.Random; no clock, no global RNG.
"""
from __future__ import annotations

import calendar
import csv
import io
import json
import pathlib
import random
import re
import zlib

PLANS = ["starter", "team", "growth", "scale", "enterprise"]
PLAN_LABEL = {p: p.capitalize() for p in PLANS}
LIST_OLD = {"starter": 390.0, "team": 1180.0, "growth": 2450.0, "scale": 4900.0, "enterprise": 9800.0}
LIST_NEW = {"starter": 440.0, "team": 1320.0, "growth": 2750.0, "scale": 5480.0, "enterprise": 10950.0}
INCLUDED = {"starter": 2000, "team": 8000, "growth": 20000, "scale": 50000, "enterprise": 150000}
OVERAGE = {"starter": 0.30, "team": 0.26, "growth": 0.22, "scale": 0.18, "enterprise": 0.15}
PRICE_RISE = "2025-11-01"

CORE_SEED = 20251
DEV_SEED = 101
SHADOW_BASE = 50_000

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]

_W1 = ["North", "Blue", "Harbor", "Granite", "Cedar", "Silver", "Iron", "Pine", "Summit", "Copper",
       "Meridian", "Atlas", "Beacon", "Orchard", "Falcon", "Lantern", "Quarry", "Riverbend",
       "Tessel", "Halvorsen", "Okapi", "Brightwater", "Kestrel", "Marlow", "Vantage", "Juniper"]
_W2 = ["Logistics", "Health", "Retail Group", "Foods", "Capital", "Freight", "Labs", "Energy",
       "Insurance", "Media", "Outfitters", "Systems", "Pharma", "Hospitality", "Mobility",
       "Analytics Co", "Holdings", "Brands", "Telecom", "Bank", "Manufacturing", "Learning"]
_TZ = ["-05:00", "-05:00", "-06:00", "-08:00", "-04:00", "+00:00", "+01:00", "Z", "-07:00", "+10:00"]


# ----------------------------------------------------------------------------- calendar helpers

def days_in(period: str) -> int:
    y, m = int(period[:4]), int(period[5:7])
    return calendar.monthrange(y, m)[1]


def next_period(period: str) -> str:
    y, m = int(period[:4]), int(period[5:7])
    m += 1
    if m == 13:
        y, m = y + 1, 1
    return f"{y:04d}-{m:02d}"


def add_months(date: str, n: int) -> str:
    """date YYYY-MM-DD (day 1) + n months -> last day of the month before (term end)."""
    y, m = int(date[:4]), int(date[5:7])
    m += n
    while m > 12:
        y, m = y + 1, m - 12
    # end = day before (y, m, 1)
    m -= 1
    if m == 0:
        y, m = y - 1, 12
    return f"{y:04d}-{m:02d}-{calendar.monthrange(y, m)[1]:02d}"


def long_date(iso: str) -> str:
    return f"{int(iso[8:10])} {MONTHS[int(iso[5:7]) - 1]} {iso[:4]}"


def money(x: float) -> str:
    return f"{x:,.2f}"


# ----------------------------------------------------------------------------- population

def _make_account(rng: random.Random, idx: int, signed_window: tuple[str, str], used: set) -> dict:
    while True:
        name = f"{rng.choice(_W1)} {rng.choice(_W2)}"
        if name not in used:
            used.add(name)
            break
    if rng.random() < 0.08:
        acc_id = f"QA-{rng.randint(1000, 9999)}"          # accounts migrated from the Quantora acquisition
    else:
        acc_id = f"ACC-{rng.randint(10000, 99999)}"
    term = "annual" if rng.random() < 0.45 else "monthly"
    plan = rng.choices(PLANS, weights=[22, 30, 26, 14, 8])[0]
    acc = {"account_id": acc_id, "name": name, "billing_term": term, "plan": plan,
           "tz": rng.choice(_TZ), "idx": idx}
    lo, hi = signed_window
    ly, lm = int(lo[:4]), int(lo[5:7])
    hy, hm = int(hi[:4]), int(hi[5:7])
    span = (hy - ly) * 12 + (hm - lm)
    k = rng.randint(0, span)
    y, m = ly + (lm - 1 + k) // 12, (lm - 1 + k) % 12 + 1
    start = f"{y:04d}-{m:02d}-01"
    acc["contract_id"] = f"Q-{y}-{rng.randint(100, 999):04d}" if term == "annual" else f"SS-{rng.randint(100000, 999999)}"
    acc["start"] = start
    if term == "annual":
        months = rng.choice([12, 12, 24, 24, 36])
        end = add_months(start, months)
        acc["end"] = end
        lock = None
        if start < PRICE_RISE and rng.random() < 0.82:
            disc = rng.choice([0.0, 0.0, 0.04, 0.07, 0.10, 0.12, 0.15])
            fee = round(LIST_OLD[plan] * (1 - disc) / 5) * 5
            lock = {"fee": float(fee), "plan": plan, "until": end}
        acc["lock"] = lock
    else:
        acc["end"] = ""
        acc["lock"] = None
    return acc


def population(extra_seed: int | None = None, n_new: int = 0) -> list[dict]:
    rng = random.Random(CORE_SEED)
    used: set = set()
    accs = [_make_account(rng, i, ("2024-02", "2025-12"), used) for i in range(64)]
    # make sure a good share of locks expire inside Feb-Apr 2026 and some annual contracts are post-rise
    for a in accs:
        if a["lock"] and rng.random() < 0.18:
            a["lock"]["until"] = rng.choice(["2026-01-31", "2026-02-28", "2026-03-31"])
            a["end"] = a["lock"]["until"]
    if extra_seed is not None and n_new:
        r2 = random.Random(extra_seed * 7 + 3)
        for i in range(n_new):
            a = _make_account(r2, 100 + i, ("2025-03", "2026-01"), used)
            accs.append(a)
    ids = set()
    for a in accs:                                   # unique ids
        while a["account_id"] in ids:
            a["account_id"] = a["account_id"][:-1] + str((int(a["account_id"][-1]) + 1) % 10)
        ids.add(a["account_id"])
    return accs


def active(acc: dict, period: str) -> bool:
    return acc["start"][:7] <= period


# ----------------------------------------------------------------------------- contract texts

def order_form_excerpt(acc: dict, variant_text: bool, rng: random.Random) -> str:
    if acc["billing_term"] != "annual":
        return ""
    if not variant_text:
        env = f"{rng.randint(0x1000, 0xFFFF):04X}-{rng.randint(0x1000, 0xFFFF):04X}"
        return f"Order Form on file (DocuSign envelope {env}). Fees per Order Form; see Deal Desk register."
    lk = acc["lock"]
    parts = [f"Order Form {acc['contract_id']} - {acc['name']}. Initial Term {long_date(acc['start'])} "
             f"to {long_date(acc['end'])}."]
    if rng.random() < 0.5:
        parts.append(f"Implementation fee of USD {money(rng.choice([1500, 2500, 4000]))} is fixed and non-refundable.")
    if lk:
        plan = PLAN_LABEL[lk["plan"]]
        form = rng.randint(0, 2)
        if form == 0:
            parts.append(f"4.2 Price Protection. Notwithstanding Section 4.1, the Subscription Fee for the {plan} "
                         f"plan shall remain fixed at USD {money(lk['fee'])} per month until {long_date(lk['until'])}.")
        elif form == 1:
            parts.append(f"Price hold: Customer's {plan} subscription fee is locked at US$ {money(lk['fee'])}/month "
                         f"through {lk['until']} (Initial Term).")
        else:
            parts.append(f"Provider will not increase the monthly {plan} fee above USD {money(lk['fee'])} "
                         f"prior to the end of the Initial Term on {long_date(lk['until'])}.")
    else:
        parts.append("4.2 Fees. Subscription Fees may be adjusted at any time on 30 days' notice to Provider's "
                     "then-current list price.")
    parts.append("Usage above included credits is billed monthly in arrears at the rates in the Price Book.")
    return " ".join(parts)


def contract_record(acc: dict, params: dict, rng: random.Random | None = None) -> dict:
    rng = random.Random(zlib.crc32(acc["contract_id"].encode()) + 17)   # stable per contract across cycles
    text_variant = params.get("lock_source") == "order_form"
    lk = acc["lock"]
    reg = {"price_lock_usd": "", "lock_plan": "", "lock_until": "", "deal_desk_notes": ""}
    if lk:
        show = True
        if text_variant:
            show = rng.random() < 0.35
        if show:
            fee = lk["fee"]
            if text_variant and rng.random() < 0.4:
                fee = fee + rng.choice([85, 120, 160, 240])     # pre-negotiation quote never updated
            reg = {"price_lock_usd": money(fee), "lock_plan": lk["plan"], "lock_until": lk["until"],
                   "deal_desk_notes": rng.choice(["", "", "price hold per OF", "PP clause 4.2",
                                                  "renewal uplift capped", "signed by RO"])}
        elif text_variant:
            reg["deal_desk_notes"] = rng.choice(["", "", "see OF", "migrated from SFDC 2025-10", "TBC"])
    elif acc["billing_term"] == "annual":
        reg["deal_desk_notes"] = rng.choice(["", "", "", "list at renewal", "no PP"])
    return {"contract_id": acc["contract_id"], "account_id": acc["account_id"], "term": acc["billing_term"],
            "start": acc["start"], "end": acc["end"], "register": reg,
            "order_form_excerpt": order_form_excerpt(acc, text_variant, rng)}


# ----------------------------------------------------------------------------- cycles

def _ts(period: str, day: int, tz: str, rng: random.Random) -> str:
    hh = rng.choice([0, 0, 0, 9, 14, 17])
    return f"{period}-{day:02d}T{hh:02d}:{rng.choice([0, 0, 12, 31]):02d}:00{tz}"


def _neighbour(plan: str, up: bool) -> str:
    i = PLANS.index(plan)
    if up and i < len(PLANS) - 1:
        return PLANS[i + 1]
    if not up and i > 0:
        return PLANS[i - 1]
    return PLANS[i - 1] if i > 0 else PLANS[i + 1]


def build_cycle(accs: list[dict], period: str, params: dict, rng: random.Random, run_no: int,
                rates: tuple[float, float] = (0.20, 0.13)) -> dict:
    """Cycle input as production feeds it to run_cycle; mutates acc["plan"] to the period-end plan.
    rates: monthly plan-change probability for (monthly, annual) accounts."""
    D = days_in(period)
    accounts, changes, usage, contracts = [], [], [], []
    crng = random.Random(rng.randint(0, 10**9))
    for a in accs:
        if not active(a, period):
            continue
        accounts.append({"account_id": a["account_id"], "name": a["name"], "billing_term": a["billing_term"],
                         "currency": "USD", "plan_at_start": a["plan"], "contract_id": a["contract_id"],
                         "timezone": a["tz"]})
        contracts.append(contract_record(a, params, crng))
        p_change = rates[0] if a["billing_term"] == "monthly" else rates[1]
        if rng.random() < p_change:
            n = 2 if rng.random() < 0.1 else 1
            days = sorted(rng.sample(range(2, D + 1), n))
            if rng.random() < 0.07:
                days[0] = 1
            cur = a["plan"]
            for d in days:
                up = rng.random() < 0.58
                to = _neighbour(cur, up)
                changes.append({"change_id": f"PC-{rng.randint(100000, 999999)}", "account_id": a["account_id"],
                                "effective": _ts(period, d, a["tz"], rng), "from_plan": cur, "to_plan": to,
                                "source": rng.choice(["self-serve", "self-serve", "csm", "csm", "support"])})
                cur = to
            a["plan"] = cur
        inc = INCLUDED[a["plan"]]
        used = int(inc * rng.lognormvariate(-0.05, 0.32))
        if rng.random() < 0.03:
            used = int(inc * rng.uniform(1.8, 3.0))
        usage.append({"account_id": a["account_id"], "credits_used": used})
    rng.shuffle(changes)
    return {"period": period, "run_id": f"IR-{period}-{run_no:02d}", "price_book": "PB-2025.11",
            "accounts": accounts, "plan_changes": changes, "usage": usage, "contracts": contracts}


# ----------------------------------------------------------------------------- the billing rules

def _day(effective: str) -> int:
    return int(effective[8:10])


def lock_from_text(text: str) -> dict | None:
    """Parse a price-protection clause (truth side; mirrors what a careful reader would extract)."""
    m = re.search(r"(?:Price Protection|Price hold|will not increase).*?(Starter|Team|Growth|Scale|Enterprise)"
                  r".*?US\$?D?\s*([\d,]+\.\d{2})", text)
    if not m:
        return None
    fee = float(m.group(2).replace(",", ""))
    plan = m.group(1).lower()
    tail = text[m.end():]
    d = re.search(r"(\d{4}-\d{2}-\d{2})", tail)
    if d:
        until = d.group(1)
    else:
        d = re.search(r"(\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})", tail)
        until = f"{d.group(3)}-{MONTHS.index(d.group(2)) + 1:02d}-{int(d.group(1)):02d}"
    return {"fee": fee, "plan": plan, "until": until}


def true_lock(contract: dict, params: dict) -> dict | None:
    if params.get("lock_source") == "order_form":
        return lock_from_text(contract.get("order_form_excerpt") or "")
    r = contract.get("register") or {}
    if r.get("price_lock_usd"):
        return {"fee": float(r["price_lock_usd"].replace(",", "")), "plan": r["lock_plan"], "until": r["lock_until"]}
    return None


def segments(plan_at_start: str, changes: list[dict], period: str, rule: str) -> list[tuple]:
    D = days_in(period)
    ch = sorted(changes, key=lambda c: (_day(c["effective"]), c["change_id"]))
    if rule == "legacy":
        segs = [(plan_at_start, 1, D)]
        for c in ch:
            segs.append((c["to_plan"], _day(c["effective"]), D))
        return segs
    if rule == "mid_month":
        cur = plan_at_start
        for c in ch:
            if _day(c["effective"]) <= 15:
                cur = c["to_plan"]
        return [(cur, 1, D)]
    segs, cur, start = [], plan_at_start, 1
    for c in ch:
        d = _day(c["effective"])
        if d > start:
            segs.append((cur, start, d - 1))
        cur, start = c["to_plan"], max(start, d)
    segs.append((cur, start, D))
    return segs


def rate(account: dict, changes: list[dict], usage: int, contract: dict | None, period: str,
         params: dict, mode: str = "truth") -> dict:
    """One account's invoice for one period. mode: truth | legacy."""
    D = days_in(period)
    list_price = LIST_NEW if f"{period}-01" >= PRICE_RISE else LIST_OLD
    lock = true_lock(contract, params) if (mode == "truth" and contract) else None
    rule = "legacy" if mode == "legacy" else params.get("proration", "daily")
    lines = []
    for plan, a, b in segments(account["plan_at_start"], changes, period, rule):
        fee = list_price[plan]
        if lock and lock["plan"] == plan and f"{period}-01" <= lock["until"]:
            fee = lock["fee"]
        days = b - a + 1
        lines.append({"kind": "subscription", "plan": plan, "from": f"{period}-{a:02d}", "to": f"{period}-{b:02d}",
                      "unit_price_usd": fee, "amount_usd": round(fee * days / D, 2)})
    end_plan = account["plan_at_start"]
    for c in sorted(changes, key=lambda c: (_day(c["effective"]), c["change_id"])):
        end_plan = c["to_plan"]
    over = max(0, usage - INCLUDED[end_plan])
    if over:
        lines.append({"kind": "overage", "plan": end_plan, "credits": over, "unit_price_usd": OVERAGE[end_plan],
                      "amount_usd": round(over * OVERAGE[end_plan], 2)})
    return {"lines": lines, "total_usd": round(sum(l["amount_usd"] for l in lines), 2)}


def rate_cycle(cycle: dict, params: dict, mode: str) -> dict:
    """{account_id: rated invoice} for a whole cycle input."""
    ch, use, con = {}, {}, {}
    for c in cycle["plan_changes"]:
        ch.setdefault(c["account_id"], []).append(c)
    for u in cycle["usage"]:
        use[u["account_id"]] = u["credits_used"]
    for c in cycle["contracts"]:
        con[c["account_id"]] = c
    return {a["account_id"]: rate(a, ch.get(a["account_id"], []), use.get(a["account_id"], 0),
                                  con.get(a["account_id"]), cycle["period"], params, mode)
            for a in cycle["accounts"]}


def context_for(cycle: dict, account_id: str) -> dict:
    """What the dispute feed attaches to a ticket: the billing inputs of that invoice."""
    acc = next(a for a in cycle["accounts"] if a["account_id"] == account_id)
    return {"period": cycle["period"], "account": acc,
            "plan_changes": [c for c in cycle["plan_changes"] if c["account_id"] == account_id],
            "credits_used": next((u["credits_used"] for u in cycle["usage"] if u["account_id"] == account_id), 0),
            "contract": next((c for c in cycle["contracts"] if c["account_id"] == account_id), None)}


# ----------------------------------------------------------------------------- disputes

INVALID_REASONS = [
    ("usage_overage", ["we never used that many credits??", "overage line makes no sense, our usage dashboard says less",
                       "Why are we paying overage, we're on {plan}", "pls remove the overage - our team was on holiday"]),
    ("cancelled", ["We cancelled in {month}, why are we still billed", "told our CSM we were winding down, stop billing",
                   "cancelled via email to support - ticket attached"]),
    ("price_rise", ["Nobody told us about a price increase", "Price went up with no notice!!",
                    "we were quoted the old price when we signed up"]),
    ("tax", ["Invoice shows wrong entity / VAT number", "need PO number on invoice, disputing until fixed",
             "sales tax should not apply to us (exempt cert sent)"]),
    ("duplicate", ["This looks like a duplicate of last month's invoice", "we already paid this (remittance 88213)"]),
]
VALID_NOTES = {
    "proration": ["We upgraded on the {day}th and got charged for BOTH plans for the rest of the month",
                  "charged twice for the same days after plan change", "double billing after downgrade - pls fix",
                  "Invoice has {old} for the whole month AND {new} from the {day}th. We only had one plan."],
    "lock": ["Our order form locks our fee - you billed list price", "price protection clause 4.2 ignored again",
             "We have a price hold until {until}. Billed {billed}. Please credit the difference.",
             "contracted rate not honoured (see our OF)"],
}


def claim_for(over: float, rng: random.Random) -> float:
    r = rng.random()
    if r < 0.6:
        return round(over, 2)
    if r < 0.85:
        return float(int(over / 50 + 1) * 50)
    return round(over * rng.uniform(0.4, 0.9), 2)


def fmt_claim(x: float, rng: random.Random):
    r = rng.random()
    if r < 0.55:
        return x
    if r < 0.8:
        return f"{x:,.2f}"
    if r < 0.92:
        return f"${x:,.2f}"
    return f"USD {x:.2f}"


def invalid_disputes(accs_in_cycle: list[dict], period: str, rng: random.Random, n: int, tag: str) -> list[dict]:
    """Disputes against correct charges. The amount is fixed later from the invoice (see invalid_claim)."""
    out = []
    pick = rng.sample(accs_in_cycle, min(n, len(accs_in_cycle)))
    for a in pick:
        code, notes = rng.choices(INVALID_REASONS, weights=[34, 20, 22, 14, 10])[0]
        note = rng.choice(notes).format(plan=a["plan_at_start"], month=rng.choice(MONTHS[:12]))
        out.append({"account_id": a["account_id"], "reason_code": code, "note": note, "frac": rng.random(),
                    "small": round(rng.lognormvariate(4.9, 0.7), 2), "tag": tag})
    return out


def invalid_claim(d: dict, truth_invoice: dict) -> float:
    """What a customer disputing a correct invoice asks for, given that invoice."""
    total = truth_invoice["total_usd"]
    subs = sum(l["amount_usd"] for l in truth_invoice["lines"] if l["kind"] == "subscription")
    overage = sum(l["amount_usd"] for l in truth_invoice["lines"] if l["kind"] == "overage")
    code, f = d["reason_code"], d["frac"]
    if code == "usage_overage":
        amt = overage * (0.5 + 0.5 * f) if overage > 0 else subs * 0.15 * (0.5 + f)
    elif code in ("cancelled", "duplicate"):
        amt = total if f < 0.7 else subs
    elif code == "price_rise":
        amt = subs * (0.11 + 0.02 * f)
    else:
        amt = d["small"]
    return round(max(25.0, amt), 2)


# ----------------------------------------------------------------------------- entry generators

def _legacy_invoice_no(period: str, i: int) -> str:
    return f"INV-{period.replace('-', '')}-{i:05d}"


def _issued(cycle: dict, params: dict, start_no: int) -> dict:
    rated = rate_cycle(cycle, params, "legacy")
    out = {}
    for i, a in enumerate(cycle["accounts"]):
        inv = rated[a["account_id"]]
        out[a["account_id"]] = {"invoice_no": _legacy_invoice_no(cycle["period"], start_no + i),
                                "account_id": a["account_id"], "period": cycle["period"],
                                "lines": inv["lines"], "total_usd": inv["total_usd"]}
    return out


def held_out(params: dict, seed: int) -> dict:
    # texture of sampled variants (sampler.py); absent in the named variants, which keep these defaults
    salt = int(params.get("traffic_salt") or 0)
    if salt:
        seed = seed * 1_000_003 + salt
    rates = (float(params.get("plan_change_rate_monthly", 0.20)), float(params.get("plan_change_rate_annual", 0.13)))
    rng = random.Random(seed)
    accs = population(extra_seed=seed, n_new=int(params.get("new_accounts", 10)))
    # advance plans through the dev months with the held-out rng so plans are plausible
    for per in ["2025-10", "2025-11", "2025-12"]:
        build_cycle(accs, per, params, random.Random(rng.randint(0, 10**9)), 1, rates)
    legacy_cycle = build_cycle(accs, "2026-01", params, random.Random(rng.randint(0, 10**9)), 1, rates)
    issued = _issued(legacy_cycle, params, 3100)
    truth = rate_cycle(legacy_cycle, params, "truth")
    # legacy disputes: the old engine's January invoices, disputed during Feb-Apr
    legacy = []
    for a in legacy_cycle["accounts"]:
        aid = a["account_id"]
        over = issued[aid]["total_usd"] - truth[aid]["total_usd"]
        if over > 1.0 and rng.random() < (0.8 if a["billing_term"] == "annual" else 0.55):
            legacy.append({"account_id": aid, "over": over, "claim": claim_for(over, rng), "valid": True})
    for d in invalid_disputes(legacy_cycle["accounts"], "2026-01", rng, int(params.get("legacy_invalid", 10)), "legacy"):
        if any(x["account_id"] == d["account_id"] for x in legacy):
            continue
        legacy.append({"account_id": d["account_id"], "claim": invalid_claim(d, truth[d["account_id"]]),
                       "reason_code": d["reason_code"],
                       "note": d["note"], "valid": False})
    rng.shuffle(legacy)
    cycles = []
    for k, per in enumerate(["2026-02", "2026-03", "2026-04"]):
        cyc = build_cycle(accs, per, params, random.Random(rng.randint(0, 10**9)), 1, rates)
        inv = invalid_disputes(cyc["accounts"], per, rng, int(params.get("invalid_per_cycle", 28)), "current")
        cycles.append({"input": cyc, "invalid": inv,
                       "dispute_u": {a["account_id"]: rng.random() for a in cyc["accounts"]},
                       "claim_rng": rng.randint(0, 10**9),
                       "as_of": f"{next_period(per)}-0{3 + k}"})
    share = [legacy[i::3] for i in range(3)]
    return {"legacy_cycle": legacy_cycle, "legacy_issued": issued, "legacy_disputes": share, "cycles": cycles,
            "seed": seed}


def shadow(params: dict, day: int) -> dict:
    return held_out(params, SHADOW_BASE + int(day))


# ----------------------------------------------------------------------------- dev data

def _dispute_rows(cycle: dict, issued: dict, params: dict, rng: random.Random, start: int) -> list[dict]:
    truth = rate_cycle(cycle, params, "truth")
    rows = []
    per = cycle["period"]
    acc_by = {a["account_id"]: a for a in cycle["accounts"]}
    ch_by: dict = {}
    for c in cycle["plan_changes"]:
        ch_by.setdefault(c["account_id"], []).append(c)
    for aid, inv in issued.items():
        over = inv["total_usd"] - truth[aid]["total_usd"]
        a = acc_by[aid]
        if over > 1.0 and rng.random() < (0.7 if a["billing_term"] == "annual" else 0.4):
            if aid in ch_by:
                c = ch_by[aid][0]
                note = rng.choice(VALID_NOTES["proration"]).format(day=_day(c["effective"]), old=c["from_plan"],
                                                                   new=c["to_plan"])
                code = rng.choice(["billing_error", "plan_change", "overcharge", "other"])
            else:
                con = next(x for x in cycle["contracts"] if x["account_id"] == aid)
                lk = true_lock(con, params) or {"until": "end of term"}
                note = rng.choice(VALID_NOTES["lock"]).format(until=lk["until"], billed=f"${inv['total_usd']:,.2f}")
                code = rng.choice(["pricing", "overcharge", "contract_terms"])
            rows.append((aid, code, note, claim_for(over, rng)))
    for d in invalid_disputes(cycle["accounts"], per, rng, 16, "dev"):
        rows.append((d["account_id"], d["reason_code"], d["note"], invalid_claim(d, truth[d["account_id"]])))
    rng.shuffle(rows)
    out = []
    for i, (aid, code, note, claim) in enumerate(rows):
        y, m = int(per[:4]), int(per[5:7]) + 1
        if m == 13:
            y, m = y + 1, 1
        opened = f"{y:04d}-{m:02d}-{rng.randint(2, 27):02d}T{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}:00{acc_by[aid]['timezone']}"
        status = rng.choice(["open", "open", "open", "pending_ar_review", "pending_ar_review", "resolved_credit",
                             "resolved_no_action", "escalated_controller"])
        out.append({"ticket": f"ZD-{start + i}", "opened_at": opened, "account_id": aid,
                    "account_name": acc_by[aid]["name"], "invoice_no": issued[aid]["invoice_no"],
                    "reason_code": code, "claimed_usd": fmt_claim(claim, rng), "status": status,
                    "customer_note": note})
    return out


def dev(params: dict, out: pathlib.Path) -> None:
    rng = random.Random(DEV_SEED)
    out = pathlib.Path(out)
    data = out / "data"
    (data / "cycles").mkdir(parents=True, exist_ok=True)
    (data / "invoices").mkdir(parents=True, exist_ok=True)
    accs = population()
    disputes = []
    log = []
    no = 1
    for k, per in enumerate(["2025-10", "2025-11", "2025-12"]):
        cyc = build_cycle(accs, per, params, random.Random(rng.randint(0, 10**9)), 1)
        issued = _issued(cyc, params, no)
        no += len(issued) + rng.randint(3, 9)
        (data / "cycles" / f"{per}.json").write_text(json.dumps(cyc, indent=1) + "\n")
        inv_doc = {"run_id": cyc["run_id"], "period": per, "engine": "ledgerline 4.0.2" if per >= "2025-12" else ("ledgerline 4.0.1" if per == "2025-11" else "ledgerline 4.0.0"),
                   "invoices": list(issued.values())}
        (data / "invoices" / f"{per}.json").write_text(json.dumps(inv_doc, indent=1) + "\n")
        disputes += _dispute_rows(cyc, issued, params, rng, 40100 + 400 * k)
        tot = sum(i["total_usd"] for i in issued.values())
        log.append(f"{next_period(per)}-01T03:00:0{k}Z INFO invoice_run start run_id={cyc['run_id']} accounts={len(cyc['accounts'])}")
        log.append(f"{next_period(per)}-01T03:00:4{k}Z INFO invoice_run segments built plan_changes={len(cyc['plan_changes'])}")
        if True:
            log.append(f"{next_period(per)}-01T03:00:4{k}Z WARN pricing override column ignored (catalogue-driven pricing, see 4.0.0) rows={sum(1 for c in cyc['contracts'] if c['register']['price_lock_usd'])}")
        log.append(f"{next_period(per)}-01T03:01:1{k}Z INFO invoice_run done invoices={len(issued)} billed_usd={tot:,.2f}")
    disputes.sort(key=lambda r: r["opened_at"][:19])
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(disputes[0].keys()), lineterminator="\n")
    w.writeheader()
    for i, r in enumerate(disputes):
        w.writerow(r)
        if i in (17, 61):                          # the helpdesk export really does this
            buf.write(f'ZD-{40050 + i},{r["opened_at"]},,,"",,"see previous ticket - customer replied ""same issue""\n')
    (data / "disputes_export.csv").write_text(buf.getvalue())
    # register export as the deal desk's spreadsheet has it (latest cycle's view)
    last = json.loads((data / "cycles" / "2025-12.json").read_text())
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["contract_id", "account_id", "account_name", "term", "start", "end", "price_lock_usd", "lock_plan",
                "lock_until", "deal_desk_notes"])
    names = {a["account_id"]: a["name"] for a in last["accounts"]}
    for c in last["contracts"]:
        if c["term"] != "annual":
            continue
        r = c["register"]
        w.writerow([c["contract_id"], c["account_id"], names[c["account_id"]], c["term"], c["start"], c["end"],
                    r["price_lock_usd"], r["lock_plan"], r["lock_until"], r["deal_desk_notes"]])
    (data / "contract_register_export.csv").write_text(buf.getvalue())
    (data / "invoice_run.log").write_text("\n".join(log) + "\n")
