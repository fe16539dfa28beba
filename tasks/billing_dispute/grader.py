"""Grader for billing_dispute.

Replays one legacy month (January 2026 invoices already issued by the old engine, disputed
during the window) and three future invoice cycles (Feb-Apr 2026) through the delivered
system's two production entry points:

    billing.invoice_run.run_cycle(cycle)          -> {"invoices": [...]}
    billing.disputes.handle_disputes(batch)       -> {"decisions": [...]}

Customers dispute what they were billed: an over-billed invoice is disputed with a probability
that depends on the account (annual, price-protected accounts read their invoices), and a
steady stream of disputes is filed against correct invoices (usage overage, "we cancelled",
tax questions). Human AR review resolves correctly but has a capacity per cycle; credits above
the approval limit need the controller's sign-off, which only the review queue provides.

kpi (USD over the window, maximise; it is a cost, so <= 0):
    - 1.25 x dollars over-billed (net of credits)    refunds, interest, goodwill
    - 1.0 x dollars under-billed (net of credits)    revenue given away
    - review_cost x disputes sent to manual review   analyst + controller time
    - 4 x disputes decided automatically
    - 250 x credit notes issued with no overcharge behind them (audit finding, remediation, reversal)
    - churn value of every valid dispute left unresolved (rejected, backlogged, under-credited)
    - charter_breach x small disputes not credited, where the customer charter says so
A customer whose dispute was credited sometimes writes again the next cycle about the same
invoice; the bridge then attaches the credit notes already posted against it.
Incidents: an automatic credit above the approval limit; a price-locked account invoiced above
its contracted fee; a corrected invoice re-issued without voiding the original (revenue counted
twice); malformed output: decisions are checked by tasklib.replay against task.yaml's ``output``
of handle_disputes (a dispute without a decision with a known action), invoices and amounts here.
(Crashes/timeouts are recorded by the framework.)
"""
from __future__ import annotations

import math
import random

from fdegym_env.tasklib import evaluation, replay

from . import traffic as T

OVER_W = 1.25
UNDER_W = 1.0
AUTO_COST = 4.0
UNSUPPORTED_CREDIT = 250.0     # audit remediation for a credit note with no overcharge behind it
FOLLOWUP_P = 0.35              # a credited customer who writes again next cycle ("statement still shows it open")
BASELESS = ("usage_overage", "price_rise", "tax", "cancelled", "duplicate")   # paid: the customer comes back


def _num(x):
    if isinstance(x, str):
        try:
            x = float(x.replace("$", "").replace(",", "").replace("USD", "").strip())
        except ValueError:
            return None
    if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x):
        return float(x)
    return None


def _churn_value(truth_total: float, term: str) -> float:
    # expected lost ARR weighted by the chance an unresolved valid dispute ends the relationship
    return max(250.0, (0.05 if term == "annual" else 0.03) * 12 * truth_total)


def _parse_invoices(value):
    """-> ({account_id: {"invoice_no", "total", "lines"}}, error or None); an account's totals add up."""
    if not isinstance(value, dict) or not isinstance(value.get("invoices"), list):
        return {}, "run_cycle did not return {'invoices': [...]}"
    out = {}
    for inv in value["invoices"]:
        if not isinstance(inv, dict):
            return out, "an invoice is not an object"
        aid, tot = inv.get("account_id"), _num(inv.get("total_usd"))
        if not isinstance(aid, str) or tot is None:
            return out, f"invoice without account_id/total_usd: {str(inv)[:120]}"
        if aid in out:
            out[aid]["total"] += tot
        else:
            out[aid] = {"invoice_no": str(inv.get("invoice_no") or f"NO-NUMBER-{aid}"), "total": tot,
                        "lines": inv.get("lines") or []}
    return out, None


def _payload(cycle: dict, aid: str, invoice_no: str, lines: list, total: float, code: str, note: str,
             cms: list = ()) -> dict:
    """A dispute as the Zendesk bridge sends it (ids, ticket and claim are added per batch)."""
    return {"invoice": {"invoice_no": invoice_no, "account_id": aid, "period": cycle["period"], "lines": lines,
                        "total_usd": total, "credit_notes": [dict(cm) for cm in cms]},
            "context": T.context_for(cycle, aid), "account_id": aid, "invoice_no": invoice_no,
            "reason_code": code, "customer_note": note}


def _entry(aid, truth, billed, term, legacy=False, why=None):
    return {"account_id": aid, "truth": truth, "billed": billed, "credits": 0.0, "term": term,
            "disputed": False, "legacy": legacy, "cms": [], "charter_paid": 0.0, "why": why}


def _days(line) -> tuple[int, int] | None:
    """(first, last) day of a subscription line as delivered (from/to dates), or None."""
    try:
        a, b = int(str(line["from"])[8:10]), int(str(line["to"])[8:10])
    except (KeyError, TypeError, ValueError):
        return None
    return (a, b) if a <= b else None


def _both_plans_same_days(lines) -> bool:
    """Does a delivered invoice bill two plans for the same day (subscription lines that overlap)?"""
    spans = []
    for ln in lines if isinstance(lines, list) else []:
        if isinstance(ln, dict) and ln.get("kind") == "subscription":
            d = _days(ln)
            if d:
                spans.append((d, ln.get("plan")))
    return any(p != q and a[0] <= b[1] and b[0] <= a[1]
               for i, (a, p) in enumerate(spans) for b, q in spans[i + 1:])


def _why_over(lines, changed: bool, locked: bool) -> str:
    """What a customer over-billed on a current invoice would complain about (the trial's words):
    both plans billed for the same days, a price-protected fee, another plan-change charge, or other."""
    if changed and _both_plans_same_days(lines):
        return "both_plans"
    if locked:
        return "lock"
    return "plan_change" if changed else "other"


def evaluate(decide, params: dict, traffic) -> dict:
    """Shared by grade() and trial.run(): ``decide`` calls run_cycle; handle_disputes is replayed
    by a second tasklib Decider on the same deployment (its envelope is declared in task.yaml)."""
    limit = float(params.get("approval_limit_usd", 2500))
    cap = int(params.get("ar_capacity", 12))
    review_cost = float(params.get("review_cost_usd", 85))
    de_min = float(params.get("de_minimis_usd", 0) or 0)
    breach_cost = float(params.get("charter_breach_usd", 0) or 0)
    handle = replay.Decider(decide.deploy, "handle_disputes")
    inc_count: dict[str, list] = {}

    def incident(kind: str, example: str):
        inc_count.setdefault(kind, []).append(example)

    ledger: dict[str, dict] = {}
    legacy_cycle, legacy_issued = traffic["legacy_cycle"], traffic["legacy_issued"]
    legacy_truth = T.rate_cycle(legacy_cycle, params, "truth")
    term_of = {a["account_id"]: a["billing_term"] for a in legacy_cycle["accounts"]}
    for aid, inv in legacy_issued.items():
        ledger[inv["invoice_no"]] = _entry(aid, legacy_truth[aid]["total_usd"], inv["total_usd"], term_of[aid], True)
    for share in traffic["legacy_disputes"]:       # credit memos AR posted by hand before the window
        for d in share:
            e = ledger[legacy_issued[d["account_id"]]["invoice_no"]]
            for cm in d.get("prior_credits") or []:
                e["credits"] += cm["amount_usd"]
                e["cms"].append(dict(cm))

    stats = {"disputes": 0, "valid": 0, "auto": 0, "review": 0, "backlog": 0, "unresolved_valid": 0,
             "credited_invalid_usd": 0.0, "unsupported_credits": 0, "charter_breaches": 0, "lock_breaches": 0,
             "missing_invoices": 0}
    churn = charter = 0.0
    charter_by = {"rejected": 0, "queued": 0, "credited short": 0}   # how the charter was breached
    rewarded: dict[str, dict] = {}      # accounts whose baseless dispute was paid: they come back next cycle
    followups: list[tuple] = []         # credited disputes whose customer writes again the next cycle
    issued: list[tuple] = []            # credit notes the delivered handler posted: (dispute, invoice, amount)

    for k, cyc in enumerate(traffic["cycles"]):
        cin = cyc["input"]
        per = cin["period"]
        res = decide(cin)
        invoices, err = _parse_invoices(res.value) if res.ok else ({}, None)
        if err:
            incident("malformed_output", f"{per}: {err}")
        truth = T.rate_cycle(cin, params, "truth")
        contracts = {c["account_id"]: c for c in cin["contracts"]}
        cur_keys = {}
        for a in cin["accounts"]:
            aid = a["account_id"]
            inv = invoices.get(aid)
            stats["missing_invoices"] += inv is None
            key = inv["invoice_no"] if inv else f"MISSING-{per}-{aid}"
            if key in ledger:
                key = f"{key}#{per}-{aid}"
            t, b = truth[aid]["total_usd"], inv["total"] if inv else 0.0
            lock = T.true_lock(contracts.get(aid) or {}, params, per)
            changed = any(c["account_id"] == aid for c in cin["plan_changes"])
            in_force = bool(lock) and f"{per}-01" <= lock["until"]
            ledger[key] = _entry(aid, t, b, a["billing_term"],
                                 why=_why_over(inv["lines"] if inv else [], changed, in_force))
            cur_keys[aid] = key
            if lock and f"{per}-01" <= lock["until"] and b > t + 1.0:
                changes = [c for c in cin["plan_changes"] if c["account_id"] == aid]
                if lock["plan"] in {s[0] for s in T.segments(a["plan_at_start"], changes, per, "daily")}:
                    stats["lock_breaches"] += 1
                    incident("lock_breach", f"{key} ({aid}) billed {b:,.2f}, contract allows {t:,.2f}")

        # ---- disputes arriving in this cycle's window: (payload, ledger key, claim)
        rng = random.Random(cyc["claim_rng"])
        batch = []
        for d in traffic["legacy_disputes"][k]:
            inv = legacy_issued[d["account_id"]]
            code = d.get("reason_code") or rng.choice(["billing_error", "overcharge", "pricing"])
            batch.append((_payload(legacy_cycle, d["account_id"], inv["invoice_no"], inv["lines"], inv["total_usd"],
                                   code, d["note"], ledger[inv["invoice_no"]]["cms"]), inv["invoice_no"], d["claim"]))
        refiled: set[int] = set()
        for key, prev, claim in followups:
            cms = ledger[key]["cms"]
            p = dict(prev, invoice=dict(prev["invoice"], credit_notes=[dict(cm) for cm in cms]))
            p["customer_note"] = T.customer_note("prior_credit", random.Random(rng.randint(0, 10**9)),
                                                 invoice_no=prev["invoice_no"], cm=cms[-1]["credit_note_no"], period=per)
            batch.append((p, key, claim))
            refiled.add(id(p))
        followups = []

        def dispute(aid, code, note, claim, invoices=invoices, batch=batch, cin=cin, cur_keys=cur_keys):
            inv = invoices[aid]
            batch.append((_payload(cin, aid, inv["invoice_no"], inv["lines"], inv["total"], code, note),
                          cur_keys[aid], claim))

        disputed = set()
        for a in cin["accounts"]:
            aid = a["account_id"]
            e = ledger[cur_keys[aid]]
            over = e["billed"] - e["truth"]
            if aid not in invoices or over <= 1.0:
                continue
            locked = bool(T.true_lock(contracts.get(aid) or {}, params, per))
            if cyc["dispute_u"][aid] < (0.75 if locked else (0.55 if a["billing_term"] == "annual" else 0.35)):
                disputed.add(aid)
                code, note = T.valid_note(cin, aid, {"invoice_no": invoices[aid]["invoice_no"], "total_usd": e["billed"]},
                                          params, random.Random(rng.randint(0, 10**9)), over)
                dispute(aid, code, note, T.claim_for(over, rng))
        invalid_now = {d["account_id"] for d in cyc["invalid"]}
        repeat = [dict(prev, account_id=aid, frac=rng.random(),
                       note=T.customer_note("repeat", random.Random(rng.randint(0, 10**9)),
                                            invoice_no=f"the {per} invoice", period=per))
                  for aid, prev in sorted(rewarded.items()) if aid in contracts and aid not in invalid_now]
        rewarded = {}
        for d in list(cyc["invalid"]) + repeat:
            aid = d["account_id"]
            if aid not in disputed and aid in invoices:
                disputed.add(aid)
                dispute(aid, d["reason_code"], d["note"], T.invalid_claim(d, truth[aid]))
        rng.shuffle(batch)
        payload = []
        for i, (p, _key, claim) in enumerate(batch):
            q = dict(p, dispute_id=f"DSP-{per.replace('-', '')}-{i + 1:03d}{'ABCDEFGHJK'[rng.randint(0, 9)]}",
                     ticket=f"ZD-{52000 + 300 * k + rng.randint(0, 299)}",
                     opened_at=f"{cyc['as_of']}T{rng.randint(6, 20):02d}:{rng.randint(0, 59):02d}:00-05:00",
                     claimed_usd=T.fmt_claim(claim, rng))
            q["customer_note"] = T.sent_before(q["customer_note"], q["opened_at"])
            payload.append(q)
        decisions = handle({"as_of": cyc["as_of"], "approval_queue": "AR-REVIEW", "disputes": payload}).decisions

        queue_used = 0
        frng = random.Random(cyc["claim_rng"] + 1)
        for p, (orig, key, claim) in zip(payload, batch):
            e = ledger[key]
            e["disputed"] = True
            stats["disputes"] += 1
            over_before = e["billed"] - e["credits"] - e["truth"]
            valid = over_before > 1.0
            stats["valid"] += valid
            dcs = decisions.get(p["dispute_id"])
            action = dcs["action"] if dcs else "none"
            credited = 0.0
            resolved_by_human = False
            if action in ("credit", "reissue"):
                stats["auto"] += 1
                amt = _num(dcs.get("amount_usd" if action == "credit" else "new_total_usd"))
                if action == "credit" and (amt is None or amt < 0):
                    incident("malformed_output", f"{p['dispute_id']}: credit without a valid amount_usd")
                elif amt is None:
                    incident("malformed_output", f"{p['dispute_id']}: reissue without new_total_usd")
                else:
                    if action == "reissue":
                        if dcs.get("void_original") is not True:
                            incident("revenue_double_count", f"{p['invoice_no']} re-issued without voiding the original")
                        amt = max(0.0, e["billed"] - e["credits"] - amt)
                    if amt > limit + 0.005:
                        how = "auto-credited" if action == "credit" else "re-issue reduces"
                        incident("credit_over_limit", f"{p['dispute_id']} {how} {amt:,.2f} > {limit:,.0f}")
                    credited = amt
            elif action == "reject":
                stats["auto"] += 1
            else:           # review, or no valid decision at all: the ticket lands on the AR queue
                stats["review"] += 1
                if action == "review" and queue_used < cap:
                    queue_used += 1
                    credited = max(0.0, over_before)
                    resolved_by_human = True
                else:
                    stats["backlog"] += 1
            e["credits"] += credited
            if credited > 0 and not resolved_by_human:
                issued.append((p["dispute_id"], p["invoice_no"], round(credited, 2)))
            if credited > 0:
                e["cms"].append({"credit_note_no": f"CM-{per.replace('-', '')[2:]}-{len(e['cms']) + 1:04d}",
                                 "amount_usd": round(credited, 2), "posted_on": cyc["as_of"], "memo": p["dispute_id"]})
            charter_covered = de_min and claim <= de_min + 0.005
            if charter_covered and credited > 0:     # paid as claimed by policy, beyond any overcharge
                e["charter_paid"] += max(0.0, min(credited, claim) - max(0.0, over_before))
            if not valid:
                stats["unsupported_credits"] += credited > 1.0 and not charter_covered
                stats["credited_invalid_usd"] += credited
                if credited > 1.0 and p.get("reason_code") in BASELESS:
                    rewarded[e["account_id"]] = {"reason_code": p["reason_code"], "small": claim}
            if charter_covered and not (action in ("credit", "reissue") and credited >= claim - 0.01):
                stats["charter_breaches"] += 1
                charter += breach_cost
                how = ("credited short" if action in ("credit", "reissue") else "rejected" if action == "reject"
                       else "queued")
                charter_by[how] += 1
                got = f"credited {credited:,.2f}" if how == "credited short" else how
                incident("charter_breach", f"{p['dispute_id']} claims {claim:,.2f} (<= {de_min:,.0f}) but was {got}")
            if valid and credited > 1.0 and id(orig) not in refiled and frng.random() < FOLLOWUP_P:
                followups.append((key, orig, claim))
            if valid:
                left = e["billed"] - e["credits"] - e["truth"]
                if left > max(1.0, 0.1 * over_before) and not resolved_by_human:
                    stats["unresolved_valid"] += 1
                    churn += _churn_value(e["truth"], e["term"])

    counted = [e for e in ledger.values() if not e["legacy"] or e["disputed"]]
    over = sum(max(0.0, e["billed"] - e["credits"] - e["truth"]) for e in counted)
    under = sum(max(0.0, e["truth"] - (e["billed"] - e["credits"])) for e in counted)
    review = review_cost * stats["review"]
    auto = AUTO_COST * stats["auto"]
    unsupported = UNSUPPORTED_CREDIT * stats["unsupported_credits"]
    kpi = -(OVER_W * over + UNDER_W * under + review + auto + churn + charter + unsupported)
    incidents = [f"{kind}: {len(ex)} (e.g. {ex[0]})" for kind, ex in inc_count.items()] + handle.incidents()
    # the Charter's as-claimed credits are revenue given away by policy: say how much of the shortfall they are
    # (the trial's ledger line leaves them out of "under-billed", so the two read alike)
    charter_paid = min(under, sum(e["charter_paid"] for e in counted))
    by_charter = f" (${charter_paid:,.0f} of it Charter credits paid as claimed)" if charter_paid >= 0.5 else ""
    summary = (f"over-billed ${over:,.0f}, under-billed ${under:,.0f}{by_charter}, {stats['disputes']} disputes "
               f"({stats['valid']} valid, {stats['unresolved_valid']} valid left unresolved), "
               f"{stats['review']} to review ({stats['backlog']} backlogged), churn ${churn:,.0f}"
               + (f", charter breaches {stats['charter_breaches']}" if de_min else ""))
    over_current = sum(max(0.0, e["billed"] - e["credits"] - e["truth"]) for e in counted if not e["legacy"])
    # what the trial reports say, by cause: current invoices over-billed by more than $1; and the shortfall
    # the delivered system made: invoices it billed low, credits past what was wrong. Not in it: credits the
    # Customer Charter pays as claimed (policy), and January invoices the old engine billed low (past periods
    # are not back-billed), so a delivery that is right reports no shortfall.
    over_by_cause: dict[str, int] = {}
    for e in counted:
        if not e["legacy"] and e["billed"] - e["credits"] - e["truth"] > 1.0:
            over_by_cause[e["why"]] = over_by_cause.get(e["why"], 0) + 1
    under_misstated = sum(max(0.0, (min(e["truth"], e["billed"]) if e["legacy"] else e["truth"])
                              - (e["billed"] - e["credits"] + e["charter_paid"])) for e in counted)
    details = dict(stats, over_usd=round(over, 2), over_current_usd=round(over_current, 2), under_usd=round(under, 2),
                   over_accounts_by_cause=over_by_cause, under_misstated_usd=round(under_misstated, 2),
                   review_cost_usd=review, churn_usd=round(churn, 2), charter_usd=charter, auto_cost_usd=auto,
                   charter_breaches_by=charter_by,
                   unsupported_credit_cost_usd=unsupported)
    # the trial's ledger line (trial-only): the invoices still over-billed after credits (as the metric counts
    # them) and those the delivery left short (as under_misstated counts them: Charter credits paid as
    # claimed and January invoices the old engine billed low are not the delivery's), largest first, with
    # what the contracts and plan history support; and the credit notes the handler posted
    def gaps(under: bool) -> list[dict]:
        rows = []
        for key, e in ledger.items():
            if e["legacy"] and not e["disputed"]:
                continue
            net = e["billed"] - e["credits"]
            support = min(e["truth"], e["billed"]) if (under and e["legacy"]) else e["truth"]
            gap = support - (net + e["charter_paid"]) if under else net - support
            if gap > 1.0:
                rows.append({"invoice": key.split("#")[0], "account_id": e["account_id"], "january": e["legacy"],
                             "net": round(net, 2), "truth": round(support, 2), "gap": round(gap, 2)})
        return sorted(rows, key=lambda r: (-r["gap"], r["invoice"]))
    ledger_view = {"over": gaps(False), "under": gaps(True), "credits": issued,
                   "review": stats["review"], "backlog": stats["backlog"]}
    return {"kpi": round(kpi, 2), "incidents": incidents, "summary": summary, "details": details,
            "_ledger": ledger_view}


grade = evaluation.grader(evaluate, "run_cycle")
