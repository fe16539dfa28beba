"""Procedural variants of billing_dispute (``variant="sample:N"``).

Each sample moves one or two of the hidden truths the named variants use away from base, so a
delivery memorised from base breaks on it (any pair but threshold+policy, under which crediting
every claim scores too close to the reference):

- threshold (tight_limit): the Controller's delegated limit for automatic credit notes is
  $1,250, $1,500 or $2,000 instead of $2,500 (FP-07 on Confluence still says $2,500);
- source (order_form_locks): price locks are read from the signed order-form clause, the Deal
  Desk register being unreliable since the Salesforce migration;
- rule (mid_month): BP-3's mid-month proration convention instead of daily proration;
- policy (charter_de_minimis): the Customer Charter credits disputes of $150-$250 as claimed
  (breach cost $300-$500 each).

Texture, re-drawn on every sample: AR's review capacity (10-16 disputes a cycle), the cost of one
manual review ($70-$95), and the held-out traffic (re-seeded; 6-14 accounts signed after the dev
extract, 8-14 baseless disputes against the January invoices, 28-38 per future cycle, plan-change
rates 15-26% for monthly / 9-17% for annual accounts). The workspace (Oct-Dec 2025 data, tickets,
the invoices people cite) stays the one the people know; only its contract records follow the
lock source, as in the named variant. What Marcus, Inés, Hana, Dev, Beatriz and the briefs say
is rendered from the drawn values by prose().

The held-out edge cases (month-boundary plan changes, order-form amendments, invoices already
part-credited) come from traffic.py with the same rates in every sample, so each drawn truth still
meets them.

The held-out traffic must exercise the drawn truth: the texture is re-drawn (deterministically,
from the same rng) until a tighter limit meets at least two January disputes whose overcharge lies
between it and $2,500, and a mid-month convention meets at least two price-protected accounts that
daily proration would bill above their contract. (A lock source or a charter always bites.)
"""

from __future__ import annotations

import random

from fdegym_env.tasklib.sampling import SamplerContext, redraw_until

from . import traffic as T

CTX = SamplerContext.of(__name__)
BASE = CTX.base
AXES = {"threshold": "tight_limit", "source": "order_form_locks", "rule": "mid_month", "policy": "charter_de_minimis"}


def prose(p: dict) -> dict:
    """The sentences people and briefs use for this truth (the named variants' wording)."""
    out = {"approval_limit_text": f"${int(p['approval_limit_usd']):,}"}
    named = CTX.variants
    rule = named["mid_month" if p["proration"] == "mid_month" else "base"]
    out["proration_text"], out["lock_change_example"] = rule["proration_text"], rule["lock_change_example"]
    out["lock_source_text"] = named["order_form_locks" if p["lock_source"] == "order_form" else "base"]["lock_source_text"]
    out["register_disagreements_text"] = T.register_disagreements_text(p)
    d = int(p.get("de_minimis_usd") or 0)
    if d:
        days = p.get("charter_days", "two")
        out["charter_text"] = (f"Since January the Customer Charter says disputes of ${d:,} or less are credited as "
                               f"claimed within {days} business days, no investigation; rejecting or queueing one "
                               f"breaches the charter.")
        out["charter_shortfall_text"] = named["charter_de_minimis"]["charter_shortfall_text"]
        out["charter_cs_text"] = (f"Since January the Charter promises customers that a billing dispute of ${d:,} or less "
                                  f"is credited as claimed within {days} business days, no questions asked. CS points "
                                  f"people at that page, so if a bot rejects or parks a ${d - 70:,} claim, that's us "
                                  f"breaking our own published promise. Each one we break costs us about "
                                  f"${int(p['charter_breach_usd']):,} by the time CS has calmed the customer down and "
                                  f"credited it anyway. Everything else gets the usual: a first reply within two "
                                  f"business days, a resolution within ten, and a reply that explains the invoice.")
        out["charter_scope_text"] = named["charter_de_minimis"]["charter_scope_text"].replace("$250", f"${d:,}")
        # the Charter page export in docs/: the named variant's page with the drawn amount and days
        page = named["charter_de_minimis"]
        out["charter_page_small"] = page["charter_page_small"].replace("$250", f"${d:,}").replace(
            "within two business days", f"within {days} business days")
        out["charter_page_history"] = page["charter_page_history"]
    else:
        for k in ("charter_text", "charter_cs_text", "charter_scope_text", "charter_shortfall_text",
                  "charter_page_small", "charter_page_history"):
            out[k] = BASE[k]
    return out


def _bites(full: dict, chosen: list[str]) -> bool:
    """Does the held-out traffic exercise the drawn truth (does a base-tuned system meet it)?"""
    if "source" in chosen or "policy" in chosen:
        return True
    h = CTX.held_out(full)
    if "rule" in chosen:
        hits = 0
        daily = dict(full, proration="daily")
        for cyc in h["cycles"]:
            cin = cyc["input"]
            truth, billed = T.rate_cycle(cin, full, "truth"), T.rate_cycle(cin, daily, "truth")
            contracts = {c["account_id"]: c for c in cin["contracts"]}
            for a in cin["accounts"]:
                aid = a["account_id"]
                lock = T.true_lock(contracts.get(aid) or {}, full, cin["period"])
                if not lock or f"{cin['period']}-01" > lock["until"]:
                    continue
                plans = {ln["plan"] for ln in billed[aid]["lines"] if ln["kind"] == "subscription"}
                if billed[aid]["total_usd"] > truth[aid]["total_usd"] + 1.0 and lock["plan"] in plans:
                    hits += 1
        return hits >= 2
    limit = float(full["approval_limit_usd"])
    hits = sum(1 for share in h["legacy_disputes"] for d in share
               if d.get("valid") and limit < d["over"] <= float(BASE["approval_limit_usd"]))
    return hits >= 2


def _texture(rng: random.Random) -> dict:
    return {"ar_capacity": rng.randint(10, 16),
            "review_cost_usd": rng.choice([70, 75, 80, 85, 90, 95]),
            "traffic_salt": rng.randrange(1, 1_000_000),
            "new_accounts": rng.randint(6, 14),
            "legacy_invalid": rng.randint(8, 14),
            "invalid_per_cycle": rng.randint(28, 38),
            "plan_change_rate_monthly": round(rng.uniform(0.15, 0.26), 2),
            "plan_change_rate_annual": round(rng.uniform(0.09, 0.17), 2)}


def sample(rng: random.Random) -> dict:
    """One hidden truth: 1-2 of the named kinds of change, plus re-drawn texture."""
    chosen = ["policy", "threshold"]
    while chosen == ["policy", "threshold"]:  # both cheapen rubber-stamping: credit-everything nears the reference
        chosen = sorted(rng.sample(sorted(AXES), rng.choice([1, 1, 2])))
    p: dict = {}
    if "threshold" in chosen:
        p["approval_limit_usd"] = rng.choice([1250, 1500, 2000])
    if "source" in chosen:
        p["lock_source"] = "order_form"
    if "rule" in chosen:
        p["proration"] = "mid_month"
    if "policy" in chosen:
        p["de_minimis_usd"] = rng.choice([150, 200, 250])
        p["charter_breach_usd"] = rng.choice([300, 350, 400, 450, 500])
        p["charter_days"] = rng.choice(["two", "three"])
    full = {**BASE, **p}
    tex = redraw_until(lambda t: _bites({**full, **t}, chosen), _texture, rng, tries=100,
                       what="texture whose held-out traffic meets the drawn truth")
    p.update(tex)
    p.update(prose({**full, **tex}))
    p.pop("charter_days", None)
    return {"angle": "+".join(chosen), "params": p, "right_here": []}
