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


def next_period(period: str, n: int = 1) -> str:
    """YYYY-MM n months on (n < 0: back)."""
    k = int(period[:4]) * 12 + int(period[5:7]) - 1 + n
    return f"{k // 12:04d}-{k % 12 + 1:02d}"


def add_months(date: str, n: int) -> str:
    """date YYYY-MM-DD (day 1) + n months -> last day of the month before (term end)."""
    end = next_period(date[:7], n - 1)
    return f"{end}-{days_in(end):02d}"


def month_name(iso: str) -> str:
    return MONTHS[int(iso[5:7]) - 1]


def long_date(iso: str) -> str:
    return f"{int(iso[8:10])} {month_name(iso)} {iso[:4]}"


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
    acc = {"account_id": acc_id, "name": name, "billing_term": term, "plan": plan, "signed_plan": plan,
           "tz": rng.choice(_TZ), "idx": idx}
    lo, hi = signed_window
    span = (int(hi[:4]) - int(lo[:4])) * 12 + int(hi[5:7]) - int(lo[5:7])
    start = f"{next_period(lo, rng.randint(0, span))}-01"
    acc["contract_id"] = f"Q-{start[:4]}-{rng.randint(100, 999):04d}" if term == "annual" else f"SS-{rng.randint(100000, 999999)}"
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


def population(extra_seed: int | None = None, n_new: int = 0, n_amend: int = 3) -> list[dict]:
    rng = random.Random(CORE_SEED)
    used: set = set()
    accs = [_make_account(rng, i, ("2024-02", "2025-12"), used) for i in range(64)]
    # make sure a good share of locks expire inside Feb-Apr 2026 and some annual contracts are post-rise
    for a in accs:
        if a["lock"] and rng.random() < 0.18:
            a["lock"]["until"] = rng.choice(["2026-01-31", "2026-02-28", "2026-03-31"])
            a["end"] = a["lock"]["until"]
    for a in accs:
        a["amendments"] = []
    # amendments to price-protected order forms: three signed before the dev extract (drawn from the
    # workspace's accounts, so the held-out traffic has the same three the contract feed shows), and
    # (held-out traffic only) up to three more signed during the window. Own streams: nothing else moves.
    _amend(accs, random.Random(CORE_SEED + 99), ("2025-11-07", "2025-12-19"), ["2026-02-01", "2026-03-01"], 3)
    if extra_seed is not None and n_new:
        r2 = random.Random(extra_seed * 7 + 3)
        new = [_make_account(r2, 100 + i, ("2025-03", "2026-01"), used) for i in range(n_new)]
        taken = {a["contract_id"] for a in accs}
        for a in new:
            a["amendments"] = []
            while a["contract_id"] in taken:        # a new contract never takes a workspace contract's number
                a["contract_id"] = a["contract_id"][:-1] + str((int(a["contract_id"][-1]) + 1) % 10)
            taken.add(a["contract_id"])
        accs += new
    if extra_seed is not None:
        _amend(accs, random.Random(extra_seed * 13 + 1), ("2026-01-09", "2026-02-20"),
               ["2026-02-01", "2026-03-01", "2026-04-01"], n_amend)
    ids = set()
    for a in accs:                                   # unique ids
        while a["account_id"] in ids:
            a["account_id"] = a["account_id"][:-1] + str((int(a["account_id"][-1]) + 1) % 10)
        ids.add(a["account_id"])
    return accs


ADDONS = ["the Sandbox workspace", "SSO/SCIM", "two additional analyst seats", "the Insights module",
          "premium support (8x5)", "the EU data residency add-on", "a second production workspace"]


def _amend(accs: list[dict], rng: random.Random, signed_window: tuple[str, str], effective: list[str], n: int) -> None:
    """Give n price-protected accounts an amendment that supersedes clause 4.2 from its effective date:
    either the protected fee goes up (an add-on folded into it) or protection ends (list pricing in
    exchange for an add-on). Either way the protection never outlives the original order form."""
    pool = [a for a in accs if a["lock"] and not a["amendments"] and a["lock"]["until"] >= "2026-04-30"]
    for a in rng.sample(pool, min(n, len(pool))):
        lk = a["lock"]
        eff = rng.choice(effective)
        lo, hi = signed_window
        day = rng.randint(int(lo[8:10]), 28)
        signed = f"{rng.choice([lo[:7], hi[:7]])}-{day:02d}"
        signed = min(max(signed, lo), hi)
        new_list = LIST_NEW[lk["plan"]]
        if rng.random() < 0.6:
            fee = min(new_list - 20.0, float(round(lk["fee"] * rng.uniform(1.05, 1.14) / 5) * 5))
            kind = "fee"
        else:
            fee, kind = None, "end"
        a["amendments"].append({"no": 1, "signed": signed, "effective": eff, "kind": kind, "fee": fee,
                                "plan": lk["plan"], "until": lk["until"], "addon": rng.choice(ADDONS),
                                "form": rng.randint(0, 1), "by": rng.choice(["IC", "I. Caldera", "Ines C.", "deal desk"])})


def amendment_text(acc: dict, am: dict) -> str:
    plan, cid = PLAN_LABEL[am["plan"]], acc["contract_id"]
    if am["kind"] == "fee":
        if am["form"] == 0:
            return (f"Amendment No. {am['no']} to Order Form {cid} ({acc['name']}). With effect from "
                    f"{long_date(am['effective'])}, Section 4.2 is amended so that the {plan} Subscription Fee is "
                    f"USD {money(am['fee'])} per month until {long_date(am['until'])}, inclusive of {am['addon']}. "
                    f"All other terms of Order Form {cid} remain unchanged.")
        return (f"AMENDMENT {am['no']} - {acc['name']} - effective {am['effective']}: adds {am['addon']}. The price "
                f"hold is restated: {plan} fee US$ {money(am['fee'])}/month through {am['until']}. Countersigned "
                f"{am['signed']}.")
    if am["form"] == 0:
        return (f"Amendment No. {am['no']} to Order Form {cid} ({acc['name']}). With effect from "
                f"{long_date(am['effective'])}, Section 4.2 (Price Protection) is deleted and Subscription Fees are "
                f"those of Provider's then-current Price Book. In consideration, {am['addon']} is included at no "
                f"charge for the remainder of the Initial Term.")
    return (f"AMENDMENT {am['no']} - {acc['name']} - effective {am['effective']}: Customer moves to list pricing "
            f"(current Price Book) and receives {am['addon']} at no charge; the price hold in the Order Form no longer "
            f"applies from that date. Countersigned {am['signed']}.")


def active(acc: dict, period: str) -> bool:
    return acc["start"][:7] <= period


# ----------------------------------------------------------------------------- contract texts

_SIGNERS = ["VP Finance", "CFO", "Head of Procurement", "COO", "Finance Director", "CEO", "IT Director", "Controller"]


def order_form_excerpt(acc: dict, variant_text: bool, rng: random.Random) -> str:
    """What the contract feed carries of the signed order form. Where the register is the record of
    price terms, the feed only has the cover page; otherwise the OCR'd billing clauses. Every clause
    names the plan the order form was signed for (the locked plan), not the one the account is on now."""
    if acc["billing_term"] != "annual":
        return ""
    signed_plan = acc.get("signed_plan", acc["plan"])
    cid, name, plan = acc["contract_id"], acc["name"], PLAN_LABEL[signed_plan]
    env = f"{rng.randint(0x1000, 0xFFFF):04X}-{rng.randint(0x1000, 0xFFFF):04X}"
    net = rng.choice([30, 30, 30, 45, 60])
    signed = f"{acc['start'][:8]}{rng.randint(1, 27):02d}"
    if signed >= acc["start"]:
        signed = f"{next_period(acc['start'][:7], -1)}-{rng.randint(10, 28):02d}"
    if not variant_text:
        form = rng.randint(0, 4)
        if form == 0:
            return (f"ORDER FORM {cid} | {name} | Initial Term {acc['start']} - {acc['end']} | billing monthly in "
                    f"arrears, net {net} | DocuSign {env}")
        if form == 1:
            return (f"Order Form {cid} for {name}, countersigned {signed} by the customer's {rng.choice(_SIGNERS)} "
                    f"(DocuSign envelope {env}). Pricing per Schedule 1 of {cid}; the Deal Desk register holds the fee terms.")
        if form == 2:
            return (f"{name} - OF {cid} - term {long_date(acc['start'])} to {long_date(acc['end'])} - net {net}, "
                    f"PO {'required on every invoice' if rng.random() < 0.4 else 'not required'}; {cid} Schedule 1 not in feed.")
        if form == 3:
            return f"Scanned order form {cid} ({name}, signed {signed}); pricing schedule not OCR'd, see register row."
        return (f"{cid} / {name}: standard paper MSA v2024.2 + Order Form, envelope {env}, {acc['start'][:7]} start. "
                f"Fees per Order Form schedule; the register row for {cid} is the billing reference.")
    lk = acc["lock"]
    parts = [rng.choice([f"Order Form {cid} - {name}. Initial Term {long_date(acc['start'])} to {long_date(acc['end'])}.",
                         f"ORDER FORM {cid} ({name}), Initial Term {acc['start']} through {acc['end']}, signed {signed}.",
                         f"{name} Order Form no. {cid}. Term: {long_date(acc['start'])} - {long_date(acc['end'])}."])]
    if rng.random() < 0.5:
        parts.append(rng.choice([
            f"The implementation fee of USD {money(rng.choice([1500, 2500, 4000]))} for {name} is fixed and non-refundable.",
            f"One-time onboarding ({cid}): USD {money(rng.choice([1500, 2000, 2500, 4000]))}, invoiced on signature.",
        ]))
    if lk:
        lp = PLAN_LABEL[lk["plan"]]
        form = rng.randint(0, 2)
        if form == 0:
            parts.append(f"4.2 Price Protection. Notwithstanding Section 4.1, the Subscription Fee for the {lp} "
                         f"plan shall remain fixed at USD {money(lk['fee'])} per month until {long_date(lk['until'])}.")
        elif form == 1:
            parts.append(f"Price hold: Customer's {lp} subscription fee is locked at US$ {money(lk['fee'])}/month "
                         f"through {lk['until']} (Initial Term).")
        else:
            parts.append(f"Provider will not increase the monthly {lp} fee above USD {money(lk['fee'])} "
                         f"prior to the end of the Initial Term on {long_date(lk['until'])}.")
    else:
        parts.append(rng.choice([
            f"4.2 Fees. {name}'s Subscription Fees may be adjusted on 30 days' notice to Provider's then-current list price.",
            f"Fees for {cid} follow the Price Book in force from time to time (MSA 4.2, {rng.choice([30, 30, 60])} days' notice).",
            f"No price protection applies to {cid}; list pricing per the Price Book.",
            f"Subscription Fees ({plan}) at list; Provider may revise list prices on written notice per MSA 4.2.",
        ]))
    parts.append(rng.choice([
        f"Usage above the {INCLUDED[signed_plan]:,} credits included in {plan} is billed monthly in arrears (Price Book rates).",
        f"Overage for {name} is invoiced in arrears at the Price Book rate per credit.",
        f"Credits beyond the {plan} allowance are charged to {name} in arrears; see Price Book {rng.choice(['PB-2024.1', 'current edition'])}.",
        "",
    ]))
    return " ".join(x for x in parts if x)


def contract_record(acc: dict, params: dict, period: str | None = None) -> dict:
    rng = random.Random(zlib.crc32(acc["contract_id"].encode()) + 17)   # stable per contract across cycles
    text_variant = params.get("lock_source") == "order_form"
    lk = acc["lock"]
    reg = {"price_lock_usd": "", "lock_plan": "", "lock_until": "", "deal_desk_notes": ""}
    if lk:
        if not text_variant or rng.random() < 0.35:       # the register shows the lock
            fee = lk["fee"]
            if text_variant and rng.random() < 0.4:
                fee = fee + rng.choice([85, 120, 160, 240])     # pre-negotiation quote never updated
            reg = {"price_lock_usd": money(fee), "lock_plan": lk["plan"], "lock_until": lk["until"],
                   "deal_desk_notes": rng.choice(["", "", "", "price hold per OF", "PP clause 4.2", "PP 4.2 (std wording)",
                                                  "renewal uplift capped", "signed by RO", "ok'd by IC", "disc. approved RO",
                                                  "lock confirmed w/ AE", "pre-PB2025 paper"])}
        elif text_variant:
            reg["deal_desk_notes"] = rng.choice(["", "", "see OF", "migrated from SFDC 2025-10", "TBC", "chk OF", "?? SFDC"])
    elif acc["billing_term"] == "annual":
        reg["deal_desk_notes"] = rng.choice(["", "", "", "list at renewal", "no PP", "std paper", "list"])
    rec = {"contract_id": acc["contract_id"], "account_id": acc["account_id"], "term": acc["billing_term"],
           "start": acc["start"], "end": acc["end"], "register": reg,
           "order_form_excerpt": order_form_excerpt(acc, text_variant, rng)}
    if period is not None and any(am["signed"][:7] <= period for am in acc.get("amendments") or []):
        am = acc["amendments"][0]
        reg["deal_desk_notes"] = (reg["deal_desk_notes"] + "; " if reg["deal_desk_notes"] else "") + rng.choice(
            [f"Amd 1 ctrsigned {am['signed'][5:7]}/{am['signed'][8:10]}", "amendment on file", f"A1 {am['signed']}",
             "see amendment"])
    if acc["billing_term"] == "annual":
        rec["amendments"] = [{"amendment_id": f"{acc['contract_id']}-A{am['no']}", "signed": am["signed"],
                              "text": amendment_text(acc, am)}
                             for am in acc.get("amendments") or [] if period is None or am["signed"][:7] <= period]
    return rec


def _lock_of_register(reg: dict) -> dict | None:
    if not reg.get("price_lock_usd"):
        return None
    return {"fee": float(reg["price_lock_usd"].replace(",", "")), "plan": reg["lock_plan"], "until": reg["lock_until"]}


def register_disagreements(params: dict) -> list[dict]:
    """The workspace's contracts whose Deal Desk register row (the export, December's view) says
    something other than the paper that decides the fee in this variant: a register fee the order
    form does not carry, a blank row where the order form holds the fee (order-form variants), or a
    countersigned amendment the row does not show. Each with the lock the paper gives before and
    after the amendment, for what Deal Desk says when asked about those contracts. Only locks that
    still run in 2026 (the periods graded) are listed."""
    out = []
    for acc in population():
        if acc["billing_term"] != "annual":
            continue
        rec = contract_record(acc, params, "2025-12")
        reg = _lock_of_register(rec["register"])
        paper = true_lock({k: v for k, v in rec.items() if k != "amendments"}, params)
        if not paper or paper["until"] < "2026-01-01":
            continue
        ams = acc.get("amendments") or []
        if reg == paper and not ams:
            continue
        kind = "amended" if ams else ("blank" if reg is None else "register_fee")
        out.append({"contract_id": acc["contract_id"], "name": acc["name"], "kind": kind, "register": reg,
                    "lock": paper, "amendments": ams})
    return out


def _fee_words(lock: dict) -> str:
    return f"{PLAN_LABEL[lock['plan']]} at ${money(lock['fee'])} a month"


def register_disagreements_text(params: dict) -> str:
    """What Inés says, per contract, about the rows in `register_disagreements` (the variant's
    `register_disagreements_text`): the fee in force and why."""
    rows = register_disagreements(params)
    order_form = params.get("lock_source") == "order_form"
    parts = []
    wrong = [r for r in rows if r["kind"] == "register_fee"]
    if wrong:
        parts.append("Register fees that aren't the contract - pre-negotiation quotes nobody updated after the "
                     "migration; the signed order form is the fee: " + "; ".join(
                         f"{r['contract_id']} ({r['name']}): the register says ${money(r['register']['fee'])}, the "
                         f"order form fixes {_fee_words(r['lock'])} to {long_date(r['lock']['until'])}, so bill "
                         f"${money(r['lock']['fee'])}" for r in wrong) + ".")
    amended = [r for r in rows if r["kind"] == "amended"]
    if amended:
        said = []
        for r in amended:
            am, lk = r["amendments"][0], r["lock"]
            eff = am["effective"]
            before = f"{_fee_words(lk)} up to {long_date(f'{next_period(eff[:7], -1)}-{days_in(next_period(eff[:7], -1)):02d}')}"
            if am["kind"] == "fee":
                after = (f"from {long_date(eff)} Amendment {am['no']} (countersigned {long_date(am['signed'])}) "
                         f"restates it at ${money(am['fee'])} a month to {long_date(am['until'])}")
            else:
                after = (f"from {long_date(eff)} Amendment {am['no']} (countersigned {long_date(am['signed'])}) "
                         f"ends the protection, list from then")
            if eff <= "2026-01-01":
                said.append(f"{r['contract_id']} ({r['name']}): {after}")
            else:
                said.append(f"{r['contract_id']} ({r['name']}): {before}; {after}")
        parts.append("Amended since signing - the register row still shows the original terms, the amendment "
                     "governs from its effective date: " + "; ".join(said) + ".")
    blank = [r for r in rows if r["kind"] == "blank"]
    if blank:
        parts.append("Rows the Salesforce migration left without a fee, where the order form holds it: " + "; ".join(
            f"{r['contract_id']} ({r['name']}) {_fee_words(r['lock'])} to {long_date(r['lock']['until'])}"
            for r in blank) + ".")
    head = ("Here's every contract where the register row and the paper disagree, with the fee in force. "
            if order_form else
            "The register row is the fee, and the order forms in the feed carry only the cover page, so the only "
            "rows the paper has moved past are the amended ones. ")
    tail = (" Every other row reads as it stands. Anything countersigned after this comes through the contract "
            "feed as its own document and governs from its effective date. Those fees are for the days BP-3 "
            "bills as the protected plan - other days at list, overage as usual.")
    return head + " ".join(parts) + tail


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
                rates: tuple[float, float] = (0.20, 0.13), boundary: int = 3) -> dict:
    """Cycle input as production feeds it to run_cycle; mutates acc["plan"] to the period-end plan.
    rates: monthly plan-change probability for (monthly, annual) accounts; boundary: how many
    unlocked accounts change plan at midnight on the month boundary, account-local."""
    D = days_in(period)
    accounts, changes, usage, contracts = [], [], [], []
    rng.randint(0, 10**9)                  # kept: the draw of a former contract stream fixes the traffic
    for a in accs:
        if not active(a, period):
            continue
        accounts.append({"account_id": a["account_id"], "name": a["name"], "billing_term": a["billing_term"],
                         "currency": "USD", "plan_at_start": a["plan"], "contract_id": a["contract_id"],
                         "timezone": a["tz"]})
        contracts.append(contract_record(a, params, period))
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
    # changes stamped near midnight at the month boundary, account-local, that the UTC-cut extract
    # puts in this period: drawn from their own stream so the rest of the cycle does not move
    brng = random.Random(rng.randint(0, 10**9))
    moved = {c["account_id"] for c in changes}
    eligible = [a for a in accs if active(a, period) and not a["lock"] and a["account_id"] not in moved
                and a["tz"] not in ("Z", "+00:00")]
    east = [a for a in eligible if a["tz"][0] == "+"]
    pick = brng.sample(east, min(len(east), brng.choice([0, 1, 1, 2]) if boundary else 0))
    pick += brng.sample([a for a in eligible if a not in pick], max(0, min(len(eligible) - len(pick), boundary - len(pick))))
    for a in pick:
        off = int(a["tz"][:3])
        if off > 0:             # east of UTC: the first hours of next month, local
            stamp = f"{next_period(period)}-01T{brng.randint(0, off - 1):02d}:{brng.choice([5, 20, 41, 58]):02d}:00{a['tz']}"
        else:                   # west of UTC: the last evening of the previous month, local
            prev = next_period(period, -1)
            stamp = (f"{prev}-{days_in(prev):02d}T{brng.randint(24 + off, 23):02d}:"
                     f"{brng.choice([2, 17, 30, 49]):02d}:00{a['tz']}")
        to = _neighbour(a["plan"], brng.random() < 0.6)
        changes.append({"change_id": f"PC-{brng.randint(100000, 999999)}", "account_id": a["account_id"],
                        "effective": stamp, "from_plan": a["plan"], "to_plan": to,
                        "source": brng.choice(["self-serve", "self-serve", "csm", "support"])})
        a["plan"] = to
    rng.shuffle(changes)
    return {"period": period, "run_id": f"IR-{period}-{run_no:02d}", "price_book": "PB-2025.11",
            "accounts": accounts, "plan_changes": changes, "usage": usage, "contracts": contracts}


# ----------------------------------------------------------------------------- the billing rules

def _day(effective: str) -> int:
    return int(effective[8:10])


def _by_day(changes: list[dict]) -> list[dict]:
    """The engine as found: changes in order of their day number, whatever the month."""
    return sorted(changes, key=lambda c: (_day(c["effective"]), c["change_id"]))


def _when(change: dict, period: str) -> int | None:
    """Day of `period` from which a change bills, by the date part of its account-local stamp.
    The warehouse cuts extracts on UTC midnight, so a change stamped on the last evening of the
    previous month (west of UTC) or the first morning of the next (east of UTC) can sit in this
    period's extract: the former applies from day 1, the latter is next period's business (None)."""
    ym = change["effective"][:7]
    if ym < period:
        return 1
    if ym > period:
        return None
    return _day(change["effective"])


def in_period(changes: list[dict], period: str) -> list[tuple[int, dict]]:
    """(billing day, change) for the changes that bill in `period`, in order."""
    out = [(_when(c, period), c) for c in changes]
    return sorted(((d, c) for d, c in out if d is not None), key=lambda x: (x[0], x[1]["change_id"]))


def lock_from_text(text: str) -> dict | None:
    """Parse a price-protection clause (truth side; mirrors what a careful reader would extract)."""
    m = re.search(r"(?:Price Protection|Price hold|will not increase).*?(Starter|Team|Growth|Scale|Enterprise)"
                  r".*?US\$?D?\s*([\d,]+\.\d{2})", text)
    if not m:
        return None
    fee = float(m.group(2).replace(",", ""))
    plan = m.group(1).lower()
    return {"fee": fee, "plan": plan, "until": _text_date(text[m.end():])}


def _text_date(text: str) -> str | None:
    d = re.search(r"(\d{4}-\d{2}-\d{2})", text)
    if d:
        return d.group(1)
    d = re.search(r"(\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4})", text)
    if d:
        return f"{d.group(3)}-{MONTHS.index(d.group(2)) + 1:02d}-{int(d.group(1)):02d}"
    return None


def amended_lock(lock: dict | None, amendment: str, period: str) -> dict | None:
    """Apply one amendment's text (truth side) to the lock in force for `period`."""
    m = re.search(r"(?:With effect from|effective)\s+(.*)", amendment)
    eff = _text_date(m.group(1)) if m else None
    if not eff or f"{period}-01" < eff:
        return lock
    if re.search(r"is deleted|no longer applies", amendment):
        return None
    f = re.search(r"(Starter|Team|Growth|Scale|Enterprise).*?US\$?D?\s*([\d,]+\.\d{2})", amendment)
    if not f:
        return lock
    return {"fee": float(f.group(2).replace(",", "")), "plan": f.group(1).lower(),
            "until": _text_date(amendment[f.end():]) or (lock or {}).get("until", "")}


def true_lock(contract: dict, params: dict, period: str | None = None) -> dict | None:
    """The price protection in force: the authoritative source's lock, then (for `period`) every
    signed amendment whose effective date is on or before the period's first day."""
    if params.get("lock_source") == "order_form":
        lock = lock_from_text(contract.get("order_form_excerpt") or "")
    else:
        r = contract.get("register") or {}
        lock = None
        if r.get("price_lock_usd"):
            lock = {"fee": float(r["price_lock_usd"].replace(",", "")), "plan": r["lock_plan"], "until": r["lock_until"]}
    if period:
        for am in sorted(contract.get("amendments") or [], key=lambda x: x["amendment_id"]):
            lock = amended_lock(lock, am["text"], period)
    return lock


def segments(plan_at_start: str, changes: list[dict], period: str, rule: str) -> list[tuple]:
    D = days_in(period)
    if rule == "legacy":
        return [(plan_at_start, 1, D)] + [(c["to_plan"], _day(c["effective"]), D) for c in _by_day(changes)]
    if rule == "mid_month":
        cur = plan_at_start
        for d, c in in_period(changes, period):
            if d <= 15:
                cur = c["to_plan"]
        return [(cur, 1, D)]
    segs, cur, start = [], plan_at_start, 1
    for d, c in in_period(changes, period):
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
    lock = true_lock(contract, params, period) if (mode == "truth" and contract) else None
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
    for c in (ch for _, ch in in_period(changes, period)) if mode == "truth" else _by_day(changes):
        end_plan = c["to_plan"]
    over = max(0, usage - INCLUDED[end_plan])
    if over:
        lines.append({"kind": "overage", "plan": end_plan, "credits": over, "unit_price_usd": OVERAGE[end_plan],
                      "amount_usd": round(over * OVERAGE[end_plan], 2)})
    return {"lines": lines, "total_usd": round(sum(l["amount_usd"] for l in lines), 2)}


def rate_cycle(cycle: dict, params: dict, mode: str) -> dict:
    """{account_id: rated invoice} for a whole cycle input."""
    ch: dict = {}
    for c in cycle["plan_changes"]:
        ch.setdefault(c["account_id"], []).append(c)
    use = {u["account_id"]: u["credits_used"] for u in cycle["usage"]}
    con = {c["account_id"]: c for c in cycle["contracts"]}
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

# ----------------------------------------------------------------------------- what customers write
# Dispute text is written by customers' AP clerks, controllers, office managers and, now and then,
# their CSM forwarding an email. customer_note() composes one from pieces so that no sentence of
# substance repeats more than a handful of times in a month of tickets.

INVALID_WEIGHTS = {"usage_overage": 34, "cancelled": 20, "price_rise": 22, "tax": 14, "duplicate": 10}

_FIRST = ["Maria", "Josh", "Priya", "Daniel", "Aoife", "Kenji", "Lucia", "Tom", "Sade", "Marek", "Hannah", "Raj",
          "Chloe", "Emeka", "Ingrid", "Pablo", "Fiona", "Wei", "Grace", "Oskar", "Nadia", "Ben", "Rosa", "Yusuf",
          "Claire", "Dmitri", "Leah", "Sam", "Anjali", "Connor", "Mei", "Tobias"]
_LAST = ["Delgado", "Brennan", "Iyer", "Okoro", "Lindqvist", "Hartmann", "Costa", "Nakamura", "Walsh", "Petrov",
         "Abara", "Moreau", "Schultz", "Feeney", "Kaur", "Ramos", "Whitfield", "Osei", "Novak", "Trent"]
_TITLE = ["Accounts Payable", "AP Specialist", "Finance Manager", "AP Lead", "Financial Controller", "Office Manager",
          "Procurement", "Senior Accountant", "Head of Finance", "Bookkeeper", "FP&A Analyst", "Finance Ops"]
_OPEN = ["Hi,", "Hello,", "Hi team,", "Hi Lumencrest billing,", "Good morning,", "Dear Billing Team,", "Hey there -",
         "To whom it may concern,", "Hi all,", "", "", "", "Hello billing team,", "Morning,"]
_CLOSE = ["Thanks", "Thank you", "Regards", "Kind regards", "Best", "Cheers", "thx", "Many thanks", "BR", "Rgds",
          "Best regards", "", ""]
_MON3 = [m[:3] for m in MONTHS]


def _who(rng: random.Random) -> tuple[str, str]:
    return f"{rng.choice(_FIRST)} {rng.choice(_LAST)}", rng.choice(_TITLE)


def _typo(text: str, rng: random.Random, p: float) -> str:
    """Hurried typing: a few swapped or dropped letters."""
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(w) > 4 and w.isalpha() and rng.random() < p:
            j = rng.randrange(1, len(w) - 2)
            words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:] if rng.random() < 0.6 else w[:j] + w[j + 1:]
    return " ".join(words)


def _amt(x: float, rng: random.Random) -> str:
    return rng.choice([f"${x:,.2f}", f"USD {x:,.2f}", f"{x:,.2f}", f"${x:,.0f}", f"US$ {x:,.2f}", f"{x:.2f} USD"])


def _ord(d: int) -> str:
    return f"{d}{'th' if 10 <= d % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(d % 10, 'th')}"


def _when_text(period: str, day: int, rng: random.Random) -> str:
    m = int(period[5:7])
    return rng.choice([f"on the {_ord(day)}", f"on {MONTHS[m - 1]} {day}", f"on {day} {_MON3[m - 1]}",
                       f"{m}/{day}", f"on {period}-{day:02d}", f"mid-{MONTHS[m - 1]}" if 10 <= day <= 20 else f"on the {day}"])


def _body(kind: str, rng: random.Random, k: dict) -> list[str]:
    """One to three sentences about the dispute itself, in the customer's words."""
    inv = k.get("invoice_no") or "the invoice"
    plan = PLAN_LABEL.get(k.get("plan", ""), "our plan")
    mon = k.get("month_name", "last month")
    if kind == "proration":
        old, new = PLAN_LABEL.get(k.get("old"), "the old plan"), PLAN_LABEL.get(k.get("new"), "the new plan")
        when = _when_text(k.get("period", "2026-01"), k.get("day", 12), rng)
        return rng.choice([
            [f"We moved from {old} to {new} {when} and {inv} charges us for {old} for the whole of {mon} as well as {new} from the change."],
            [f"{inv}: two subscription lines for the same days?", f"We only ever had one plan at a time - {old} until the switch {when}, then {new}."],
            [f"we {'upgraded' if PLANS.index(k.get('new', 'team')) > PLANS.index(k.get('old', 'team')) else 'downgraded'} {when} and got billed for both plans after that", "pls fix"],
            [f"Invoice {inv} shows {old} 1-{k.get('days_in', 30)} AND {new} {k.get('day', 12)}-{k.get('days_in', 30)}.", "That's double billing for the overlap."],
            [f"Our {mon} invoice is about {_amt(k.get('over', 0) or 500, rng)} higher than it should be.", f"It looks like the {old} line was never stopped when we changed to {new}."],
            [f"charged twice after our plan change ({old} -> {new}) - ref {inv}"],
            [f"Can someone explain line 2 on {inv}?", f"We changed plan {when}; {old} should stop there, not run to month end."],
        ])
    if kind == "lock":
        until = k.get("until") or "the end of our term"
        billed = _amt(k.get("billed", 0), rng)
        cid = k.get("contract_id") or "our order form"
        return rng.choice([
            [f"Per order form {cid} our {plan} fee is fixed until {until}.", f"{inv} bills {billed}, which is your list price, not ours."],
            [f"Price protection (clause 4.2 of {cid}) has been ignored on {inv}.", "Please credit the difference to the contracted fee."],
            [f"We have a price hold until {until} and you billed {billed} on {inv}."],
            _lock_running(mon, cid, plan, k.get("period"), rng.choice(['second', 'third', '3rd', '2nd'])),
            [f"contracted rate not honoured on {inv} - see our OF"],
            [f"The November price increase should not apply to us, our order form protects the {plan} fee until {until}.", f"{billed} is wrong."],
            [f"Our procurement team flagged {inv}: the {plan} line does not match the fee in our signed order form."],
        ])
    if kind == "usage_overage":
        return rng.choice([
            [f"We never used that many credits in {mon}??", "Our dashboard says we were under."],
            [f"The overage line on {inv} makes no sense, our usage report shows less."],
            [f"Why are we paying overage when we're on {plan}?"],
            [f"pls remove the overage on {inv} - half our team was on holiday in {mon}"],
            [f"Disputing the usage charge on {inv}.", "Can you send the credit-by-credit breakdown before we pay?"],
            [f"Our analyst says the {mon} spike was a runaway scheduled report, not real usage.", "Please waive it."],
            [f"{inv} overage of {_amt(k.get('claim', 0) or 200, rng)} - we did not authorise usage above our plan."],
        ])
    if kind == "cancelled":
        return rng.choice([
            [f"We cancelled in {rng.choice(MONTHS)}, why are we still being billed?"],
            ["We told our CSM we were winding down and to stop billing.", f"{inv} should not exist."],
            [f"Cancelled via email to support in {rng.choice(_MON3)} - ticket attached.", "Please void."],
            ["We are no longer using Lumencrest and gave notice.", f"Please cancel {inv} and confirm in writing."],
            [f"our contract ended?? why {inv}"],
        ])
    if kind == "price_rise":
        return rng.choice([
            ["Nobody told us about a price increase.", f"{inv} is higher than every invoice before it."],
            [f"Price went up on {inv} with no notice!!"],
            [f"We were quoted the old {plan} price when we signed up and expect to keep paying it."],
            [f"Our budget for {mon} was set on the old price.", "Please bill the old rate until our renewal."],
            [f"Why has the {plan} subscription gone up by about 12% on {inv}?"],
        ])
    if kind == "tax":
        return rng.choice([
            [f"{inv} shows the wrong legal entity / VAT number.", "Our AP system rejects it."],
            [f"We need PO {rng.randint(4500000000, 4599999999)} on the invoice, disputing {inv} until it's reissued with it."],
            ["Sales tax should not apply to us, the exempt cert was sent in October."],
            [f"Remit-to address on {inv} doesn't match our vendor master.", "Holding payment until corrected."],
            [f"Please add our cost centre {rng.choice(['CC-', 'cc ', 'CC'])}{rng.randint(100, 9999)} to {inv}, otherwise AP can't approve it."],
        ])
    if kind == "duplicate":
        return rng.choice([
            [f"{inv} looks like a duplicate of last month's invoice."],
            [f"We already paid this (remittance {rng.randint(10000, 99999)}, {rng.choice(_MON3)} {rng.randint(2, 28)})."],
            [f"Received {inv} twice, once by email and once in the portal - are these the same charge?"],
            [f"Duplicate? {inv} has the same total as the one we paid on {rng.randint(1, 28)} {rng.choice(_MON3)}."],
        ])
    if kind == "prior_credit":
        cm = k.get("cm") or "your credit memo"
        return rng.choice([
            [f"We got {cm} for part of this, but {inv} is still wrong.", "Please review again."],
            [f"Received {cm}, thanks - however the remaining balance on {inv} still doesn't match our contract."],
            [f"Our AP system still shows {inv} as disputed.", "You told us it was fixed?"],
            [f"Following up on the earlier ticket about {inv}.", f"The credit you issued ({cm}) doesn't cover the full overcharge as far as we can tell."],
            [f"re-opening: statement still shows {inv} at the wrong amount after {cm}"],
        ])
    if kind == "repeat":
        return rng.choice([
            [f"Same as last month on {inv} - please credit again."],
            ["again: see previous ticket"],
            [f"Disputing {inv} on the same grounds as before."],
            [f"Last time you credited this without any fuss, same issue on {inv}."],
        ])
    return [f"Please review {inv}."]


_NTH = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]


def _lock_running(mon: str, cid: str, plan: str, period: str | None, style: str) -> list[str]:
    """A locked customer billed at list price: 4.0.0 (28 Oct) stopped reading the lock, so the
    October invoice was the first at list price and each later one adds a month to the run.
    `style` is the draw that once picked the ordinal; it now only picks words or digits."""
    run = 1
    if period:
        run = max(1, (int(period[:4]) - 2025) * 12 + int(period[5:7]) - 10 + 1)
    if run == 1:
        return [f"{mon} invoice came in at list price.",
                f"Our contract ({cid}) locks the {plan} subscription - please bill the contracted fee."]
    nth = _ord(run) if style[0].isdigit() or run > len(_NTH) else _NTH[run - 1]
    return [f"{mon} invoice again at list price.", f"Our contract ({cid}) locks the {plan} subscription - this is the {nth} month running."]


_SENT_FORMS = [
    (re.compile(r"^Sent: (\d{1,2}) ([A-Z][a-z]{2}) (\d{4})$", re.M), "dmy"),
    (re.compile(r"^Sent: [A-Z][a-z]{2}, ([A-Z][a-z]{2}) (\d{1,2}), (\d{4}) (\d{1,2}:\d{2})$", re.M), "wmdy"),
    (re.compile(r"^Sent: (\d{4})-(\d{2})-(\d{2})$", re.M), "iso"),
]


def sent_before(note: str, opened_at: str) -> str:
    """A forwarded email's "Sent:" date moved to before the ticket was opened (a day or two before,
    in the ticket's local date) when the note drew one on or after it. Deterministic: no rng draw, so
    the rest of the traffic does not move."""
    import datetime as _dt
    opened = _dt.date.fromisoformat(opened_at[:10])
    for rx, form in _SENT_FORMS:
        m = rx.search(note)
        if not m:
            continue
        g = m.groups()
        if form == "dmy":
            sent = _dt.date(int(g[2]), _MON3.index(g[1]) + 1, int(g[0]))
        elif form == "wmdy":
            sent = _dt.date(int(g[2]), _MON3.index(g[0]) + 1, int(g[1]))
        else:
            sent = _dt.date(int(g[0]), int(g[1]), int(g[2]))
        if sent < opened:
            return note
        new = opened - _dt.timedelta(days=1 + sent.day % 2)
        if form == "dmy":
            line = f"Sent: {new.day} {_MON3[new.month - 1]} {new.year}"
        elif form == "wmdy":
            wd = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][new.weekday()]
            line = f"Sent: {wd}, {_MON3[new.month - 1]} {new.day}, {new.year} {g[3]}"
        else:
            line = f"Sent: {new.isoformat()}"
        return note[:m.start()] + line + note[m.end():]
    return note


def customer_note(kind: str, rng: random.Random, **k) -> str:
    """A dispute as a customer (or a CSM forwarding the customer) writes it."""
    body = _body(kind, rng, k)
    style = rng.random()
    name, title = _who(rng)
    if style < 0.28:                                   # one-liner typed into the portal form
        text = " ".join(body)
        if rng.random() < 0.4:
            text = text.lower()
        return _typo(text, rng, 0.06)
    if style < 0.72:                                   # a short email
        lines = [rng.choice(_OPEN)] if rng.random() < 0.8 else []
        lines.append(" ".join(body))
        c = rng.choice(_CLOSE)
        lead = f"{c},\n" if c else ""
        sig = rng.choice([f"{lead}{name}", f"{c}\n{name.split()[0]}".strip(), f"{lead}{name}\n{title}", f"-- {name}, {title}", name])
        lines.append(sig)
        return _typo("\n".join(x for x in lines if x), rng, 0.02)
    if style < 0.9:                                    # forwarded by someone on the customer's side
        fname, _ = _who(rng)
        ym = next_period(k["period"]) if k.get("period") else "2026-02"
        d1 = rng.randint(2, 27)
        rng.choice(["Mon", "Tue", "Wed", "Thu", "Fri"])      # kept: the draw order fixes the held-out traffic
        d2 = rng.randint(2, 27)
        wd = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][calendar.weekday(int(ym[:4]), int(ym[5:7]), d2)]
        hm = f"{rng.randint(8, 17)}:{rng.randint(0, 59):02d}"
        sent = rng.choice([f"{d1} {_MON3[int(ym[5:7]) - 1]} {ym[:4]}", f"{wd}, {_MON3[int(ym[5:7]) - 1]} {d2}, {ym[:4]} {hm}",
                           f"{ym}-{rng.randint(2, 27):02d}"])
        inner = "\n".join([rng.choice(_OPEN) or "Hi,", " ".join(body), f"{rng.choice(_CLOSE) or 'Thanks'},", name, title])
        hdr = rng.choice(["---------- Forwarded message ---------", "-----Original Message-----", "Begin forwarded message:"])
        top = rng.choice([f"See below from our AP team. {fname.split()[0]}", "fyi - can you look at this", "",
                          f"Forwarding as requested by {k.get('csm', 'our account manager')}.", "Please see below."])
        return "\n".join(x for x in ([top, ""] if top else []) + [hdr, f"From: {name} <{name.split()[0].lower()}.{name.split()[1].lower()}@{k.get('domain', 'customer.com')}>",
                                      f"Sent: {sent}", "Subject: " + rng.choice([f"RE: {k.get('invoice_no', 'Invoice')}", f"FW: {k.get('invoice_no', 'invoice')} query ({k.get('domain', 'customer.com')})",
                                                  f"Invoice dispute - {k.get('domain', 'customer.com').split('.')[0].title()}", f"RE: RE: {k.get('invoice_no', 'invoice')}"]), "", inner] if x is not None)
    csm = k.get("csm") or rng.choice(["Jess (CSM)", "Arun P.", "Mo", "Kat from CS", "Luis"])
    return (f"[internal note from {csm}] Customer called, {rng.choice(['pretty annoyed', 'calm but firm', 'escalating', 'wants it fixed before their close'])}. "
            f"Their words: \"{' '.join(body)}\" {rng.choice(['Logged on their behalf.', 'Can billing check?', 'Not sure if this one is legit.', ''])}").strip()


def valid_note(cycle: dict, account_id: str, invoice: dict, params: dict, rng: random.Random, over: float) -> tuple[str, str]:
    """(reason_code, note) of a dispute against a genuinely over-billed invoice."""
    per = cycle["period"]
    acc = next(a for a in cycle["accounts"] if a["account_id"] == account_id)
    chs = sorted((c for c in cycle["plan_changes"] if c["account_id"] == account_id), key=lambda c: c["effective"])
    common = dict(invoice_no=invoice["invoice_no"], month_name=month_name(per), period=per, over=over,
                  days_in=days_in(per), plan=acc["plan_at_start"], domain=_domain(acc["name"]))
    if chs:
        c = chs[0]
        day = _when(c, per) or days_in(per)
        code = rng.choice(["billing_error", "plan_change", "overcharge", "other", "billing_error"])
        return code, customer_note("proration", rng, old=c["from_plan"], new=c["to_plan"], day=day, **common)
    con = next((x for x in cycle["contracts"] if x["account_id"] == account_id), None) or {}
    lk = true_lock(con, params, per) or {}
    until = lk.get("until")
    until = rng.choice([long_date(until), until, f"{month_name(until)} {until[:4]}"]) if until else None
    code = rng.choice(["pricing", "overcharge", "contract_terms", "pricing", "other"])
    return code, customer_note("lock", rng, until=until, billed=invoice["total_usd"], contract_id=con.get("contract_id"),
                               **common)


def _domain(name: str) -> str:
    tld = [".com", ".co", ".io", ".com.au", ".co.uk", ".de"][zlib.crc32(name.encode()) % 6]
    return re.sub(r"[^a-z]", "", name.lower().split()[0]) + tld


PRIOR_CM_MEMOS = ["partial - proration only, lock TBC w/ deal desk", "goodwill per BS", "adj. overlap days (manual recalc)",
                  "per ZD thread, approved RO", "credit overlap Team/Growth", "manual recalc - see ticket",
                  "interim credit pending DD confirmation", "AR adj jan"]


def _hand_credit(rng: random.Random, amount: float, days: tuple[int, int]) -> dict:
    """A credit memo AR posted by hand in January, before the bridge went automatic."""
    return {"credit_note_no": f"CM-2601-{rng.randint(40, 990):04d}", "amount_usd": amount,
            "posted_on": f"2026-01-{rng.randint(*days):02d}", "memo": rng.choice(PRIOR_CM_MEMOS)}


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
        code = rng.choices(list(INVALID_WEIGHTS), weights=list(INVALID_WEIGHTS.values()))[0]
        note = customer_note(code, random.Random(rng.randint(0, 10**9)), plan=a["plan_at_start"],
                             month_name=month_name(period), invoice_no=f"our {month_name(period)} invoice",
                             period=period, domain=_domain(a["name"]))
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

def _issued(cycle: dict, params: dict, start_no: int) -> dict:
    rated = rate_cycle(cycle, params, "legacy")
    out = {}
    for i, a in enumerate(cycle["accounts"]):
        inv = rated[a["account_id"]]
        out[a["account_id"]] = {"invoice_no": f"INV-{cycle['period'].replace('-', '')}-{start_no + i:05d}",
                                "account_id": a["account_id"], "period": cycle["period"],
                                "lines": inv["lines"], "total_usd": inv["total_usd"]}
    return out


def _valid_disputes(cycle: dict, issued: dict, truth: dict, params: dict, rng: random.Random, p: tuple) -> list:
    """(account_id, overcharge, reason_code, note, claim) for the over-billed invoices whose customers
    dispute them; p = the chance for an (annual, monthly) account."""
    out = []
    for a in cycle["accounts"]:
        aid = a["account_id"]
        over = issued[aid]["total_usd"] - truth[aid]["total_usd"]
        if over > 1.0 and rng.random() < p[a["billing_term"] != "annual"]:
            code, note = valid_note(cycle, aid, issued[aid], params, random.Random(rng.randint(0, 10**9)), over)
            out.append((aid, over, code, note, claim_for(over, rng)))
    return out


def held_out(params: dict, seed: int) -> dict:
    # texture of sampled variants (sampler.py); absent in the named variants, which keep these defaults
    salt = int(params.get("traffic_salt") or 0)
    if salt:
        seed = seed * 1_000_003 + salt
    rates = (float(params.get("plan_change_rate_monthly", 0.20)), float(params.get("plan_change_rate_annual", 0.13)))
    rng = random.Random(seed)
    accs = population(extra_seed=seed, n_new=int(params.get("new_accounts", 10)),
                      n_amend=int(params.get("new_amendments", 5)))
    # advance plans through the dev months with the held-out rng so plans are plausible
    for per in ["2025-10", "2025-11", "2025-12"]:
        build_cycle(accs, per, params, random.Random(rng.randint(0, 10**9)), 1, rates)
    bnd = int(params.get("boundary_changes", 6))
    legacy_cycle = build_cycle(accs, "2026-01", params, random.Random(rng.randint(0, 10**9)), 1, rates, bnd)
    issued = _issued(legacy_cycle, params, 3100)
    truth = rate_cycle(legacy_cycle, params, "truth")
    # legacy disputes: the old engine's January invoices, disputed during Feb-Apr
    legacy = [{"account_id": aid, "over": over, "claim": claim, "valid": True, "reason_code": code, "note": note}
              for aid, over, code, note, claim in _valid_disputes(legacy_cycle, issued, truth, params, rng, (0.8, 0.55))]
    for d in invalid_disputes(legacy_cycle["accounts"], "2026-01", rng, int(params.get("legacy_invalid", 10)), "legacy"):
        if any(x["account_id"] == d["account_id"] for x in legacy):
            continue
        legacy.append({"account_id": d["account_id"], "claim": invalid_claim(d, truth[d["account_id"]]),
                       "reason_code": d["reason_code"],
                       "note": d["note"], "valid": False})
    # AR worked some January tickets by hand before the bridge went automatic: a credit memo is
    # already posted against the invoice (the whole overcharge, or the part they could verify)
    prng = random.Random(seed * 31 + 5)
    for d in legacy:
        if d["valid"] and prng.random() < 0.7:
            amt = round(d["over"], 2) if prng.random() < 0.45 else \
                max(25.0, float(round(d["over"] * prng.uniform(0.2, 0.7) / 25) * 25))
            amt = min(amt, round(d["over"], 2))
            d["prior_credits"] = [_hand_credit(prng, amt, (19, 30))]
            d["note"] = customer_note("prior_credit", random.Random(prng.randint(0, 10**9)),
                                      invoice_no=issued[d["account_id"]]["invoice_no"], period="2026-01",
                                      cm=d["prior_credits"][0]["credit_note_no"],
                                      domain=_domain(next(a["name"] for a in legacy_cycle["accounts"]
                                                          if a["account_id"] == d["account_id"])))
    rng.shuffle(legacy)
    cycles = []
    for k, per in enumerate(["2026-02", "2026-03", "2026-04"]):
        cyc = build_cycle(accs, per, params, random.Random(rng.randint(0, 10**9)), 1, rates, bnd)
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
    per = cycle["period"]
    acc_by = {a["account_id"]: a for a in cycle["accounts"]}
    rows = [(aid, code, note, claim)
            for aid, _, code, note, claim in _valid_disputes(cycle, issued, truth, params, rng, (0.7, 0.4))]
    for d in invalid_disputes(cycle["accounts"], per, rng, 16, "dev"):
        rows.append((d["account_id"], d["reason_code"], d["note"], invalid_claim(d, truth[d["account_id"]])))
    rng.shuffle(rows)
    out = []
    for i, (aid, code, note, claim) in enumerate(rows):
        opened = f"{next_period(per)}-{rng.randint(2, 27):02d}T{rng.randint(7, 19):02d}:{rng.randint(0, 59):02d}:00{acc_by[aid]['timezone']}"
        status = rng.choice(["open", "open", "open", "pending_ar_review", "pending_ar_review", "resolved_credit",
                             "resolved_no_action", "escalated_controller"])
        out.append({"ticket": f"ZD-{start + i}", "opened_at": opened, "account_id": aid,
                    "account_name": acc_by[aid]["name"], "invoice_no": issued[aid]["invoice_no"],
                    "reason_code": code, "claimed_usd": fmt_claim(claim, rng), "status": status,
                    "customer_note": sent_before(note, opened)})
    return out


def _reopened(disputes: list[dict], kept: dict, params: dict, xr: random.Random) -> dict:
    """AR credited part of a few December tickets by hand; the customers came back about the rest."""
    out = {}
    dec_cyc, dec_issued = kept["2025-12"]
    truth = rate_cycle(dec_cyc, params, "truth")
    cands = [r for r in disputes if r["invoice_no"].startswith("INV-202512")
             and dec_issued[r["account_id"]]["total_usd"] - truth[r["account_id"]]["total_usd"] > 150]
    for r in xr.sample(cands, min(3, len(cands))):
        over = dec_issued[r["account_id"]]["total_usd"] - truth[r["account_id"]]["total_usd"]
        amt = float(max(25, round(over * xr.uniform(0.25, 0.6) / 25) * 25))
        cm = _hand_credit(xr, amt, (12, 22))
        out[r["invoice_no"]] = [cm]
        r["status"] = "resolved_credit"
        acc = next(a for a in dec_cyc["accounts"] if a["account_id"] == r["account_id"])
        day = int(cm["posted_on"][8:10]) + xr.randint(3, 8)
        row = dict(r, ticket=f"ZD-{41400 + xr.randint(0, 99)}",
                   opened_at=f"2026-01-{min(day, 31):02d}T{xr.randint(8, 18):02d}:{xr.randint(0, 59):02d}:00{acc['timezone']}",
                   status="open", claimed_usd=fmt_claim(round(over - amt, 2), xr),
                   customer_note=customer_note("prior_credit", xr, invoice_no=r["invoice_no"], period="2025-12",
                                               cm=cm["credit_note_no"], domain=_domain(acc["name"])))
        row["customer_note"] = sent_before(row["customer_note"], row["opened_at"])
        disputes.append(row)
    return out


def _bridge_sample(data: pathlib.Path, dec: tuple, disputes: list[dict], cms: dict, xr: random.Random) -> None:
    """Three payloads as the Zendesk bridge logged them (kept by Tomasz as handler fixtures)."""
    cyc, issued = dec
    rows = [r for r in disputes if r["invoice_no"] in cms and r["status"] == "open"][:1]
    rows += [r for r in disputes if r["invoice_no"].startswith("INV-202512") and r["invoice_no"] not in cms
             and r["account_name"]][:2]
    out = []
    for i, r in enumerate(sorted(rows, key=lambda r: r["opened_at"])):
        inv = issued[r["account_id"]]
        out.append({"dispute_id": f"DSP-202601-{400 + 17 * i:03d}{'ABCDEFGHJK'[xr.randint(0, 9)]}", "ticket": r["ticket"],
                    "opened_at": r["opened_at"], "account_id": r["account_id"], "invoice_no": r["invoice_no"],
                    "reason_code": r["reason_code"], "customer_note": r["customer_note"], "claimed_usd": r["claimed_usd"],
                    "invoice": dict(inv, credit_notes=cms.get(r["invoice_no"], [])),
                    "context": context_for(cyc, r["account_id"])})
    (data / "bridge_samples").mkdir(parents=True, exist_ok=True)
    (data / "bridge_samples" / "2026-01-29T14-00Z.json").write_text(
        json.dumps({"as_of": "2026-01-29", "approval_queue": "AR-REVIEW", "disputes": out}, indent=1) + "\n")


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
    kept: dict = {}
    for k, per in enumerate(["2025-10", "2025-11", "2025-12"]):
        cyc = build_cycle(accs, per, params, random.Random(rng.randint(0, 10**9)), 1, boundary=2)
        issued = _issued(cyc, params, no)
        no += len(issued) + rng.randint(3, 9)
        (data / "cycles" / f"{per}.json").write_text(json.dumps(cyc, indent=1) + "\n")
        inv_doc = {"run_id": cyc["run_id"], "period": per, "engine": "ledgerline 4.0.2" if per >= "2025-12" else ("ledgerline 4.0.1" if per == "2025-11" else "ledgerline 4.0.0"),
                   "invoices": list(issued.values())}
        (data / "invoices" / f"{per}.json").write_text(json.dumps(inv_doc, indent=1) + "\n")
        disputes += _dispute_rows(cyc, issued, params, random.Random(DEV_SEED * 1000 + k), 40100 + 400 * k)
        kept[per] = (cyc, issued)
        tot = sum(i["total_usd"] for i in issued.values())
        log.append(f"{next_period(per)}-01T03:00:0{k}Z INFO invoice_run start run_id={cyc['run_id']} accounts={len(cyc['accounts'])}")
        log.append(f"{next_period(per)}-01T03:00:4{k}Z INFO invoice_run segments built plan_changes={len(cyc['plan_changes'])}")
        log.append(f"{next_period(per)}-01T03:00:4{k}Z WARN pricing override column ignored (catalogue-driven pricing, see 4.0.0) rows={sum(1 for c in cyc['contracts'] if c['register']['price_lock_usd'])}")
        log.append(f"{next_period(per)}-01T03:01:1{k}Z INFO invoice_run done invoices={len(issued)} billed_usd={tot:,.2f}")
    xr = random.Random(DEV_SEED + 7)           # own stream: the rows above do not move
    cms = _reopened(disputes, kept, params, xr)
    disputes.sort(key=lambda r: r["opened_at"][:19])
    _bridge_sample(data, kept["2025-12"], disputes, cms, xr)
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
