"""One trial day for billing_dispute: the current system/ runs a shadow invoice cycle (next
month's extract, sandbox NetSuite) and the dispute handler on the tickets that cycle would attract.
Each day is its own sandbox sample of that cycle (T.shadow(params, day)), named as such in the report.
People report what they saw, in their words; never the answer key."""
from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader
from . import traffic as T


def _count_and_example(incident: str) -> tuple[int, str]:
    """'kind: 3 (e.g. X)' -> (3, 'X'); an incident without a count is one."""
    body = incident.split(":", 1)[-1].strip()
    head, _, ex = body.partition("(e.g. ")
    return (int(head) if head.strip().isdigit() else 1), (ex[:-1] if ex.endswith(")") else ex or body)


def _money(x: float) -> str:
    return f"${x:,.2f}"


def _gaps(rows: list[dict], what: str, period: str) -> str:
    """'3 invoice(s) over-billed by $1,234.56 in total (e.g. ...)', the largest as the example."""
    if not rows:
        return f"no invoice {what}"
    e = rows[0]
    month = "January" if e["january"] else T.month_name(f"{period}-01")
    return (f"{len(rows)} invoice(s) {what} by {_money(sum(r['gap'] for r in rows))} in total (e.g. {e['invoice']}, "
            f"{month}: {_money(e['net'])} net of credits, where the contract and the plan history support "
            f"{_money(e['truth'])})")


def _ledger_line(led: dict, period: str) -> str:
    """The day's figures in the metric's own terms: what is still over- and under-billed after credits
    (this cycle's invoices and the January ones disputed on it), the credits the handler posted and the
    disputes sent to AR review. Figures and one example each, never the rules behind them."""
    credits = led.get("credits") or []
    posted = (f"the handler posted {len(credits)} credit note(s) for {_money(sum(c[2] for c in credits))} "
              f"(e.g. {credits[0][1]}: {_money(credits[0][2])})" if credits else "the handler posted no credit notes")
    queued = (f"{led.get('review', 0)} dispute(s) went to AR review"
              + (f", {led['backlog']} of them past what AR can work this cycle" if led.get("backlog") else ""))
    return (f"Finance Ops (shadow ledger, billing correctness): after credits, "
            f"{_gaps(led.get('over') or [], 'still over-billed', period)}; "
            f"{_gaps(led.get('under') or [], 'under-billed', period)}; {posted}; {queued}.")


def run(deploy, params: dict, day: int, traffic) -> dict:
    one = dict(traffic)
    one["cycles"] = traffic["cycles"][:1]
    one["legacy_disputes"] = traffic["legacy_disputes"][:1]
    res = evaluation.evaluate_on(deploy, grader.evaluate, params, one, "run_cycle")
    d = res["details"]
    inc = res["incidents"]
    names = {a["account_id"]: a["name"] for a in traffic["cycles"][0]["input"]["accounts"]}
    period = traffic["cycles"][0]["input"]["period"]
    changed = {c["account_id"] for c in traffic["cycles"][0]["input"]["plan_changes"]}
    # every trial day replays the same cycle on its own sandbox sample: say which, and why counts differ
    lines = [f"Shadow run {day}: the {period} cycle on sandbox sample {day} (sandbox NetSuite, nothing sent to "
             f"customers). Finance Ops reloads the sandbox with a fresh sample of accounts, plan changes and "
             f"tickets for each shadow run of the {period} cycle, so counts differ from run to run - compare what "
             f"kind of problem comes back, not the totals."]
    facts: list[str] = []
    topics: list[str] = []
    lines.append(f"Beatriz (AR): {d['disputes']} dispute tickets came through on the shadow cycle; "
                 f"{d['review']} landed in my queue. We get through about {params.get('ar_capacity', 12)} a cycle "
                 f"properly, so {d['backlog']} would sit." if d["review"] else
                 f"Beatriz (AR): {d['disputes']} dispute tickets on the shadow cycle, none left for my queue.")
    lines.append(_ledger_line(res.get("_ledger") or {}, period))
    if d.get("over_current_usd", 0) > 500:
        # what the over-billed customers of this delivery would call about, and only that
        why = d.get("over_accounts_by_cause") or {}
        calls = [(why.get("both_plans", 0), "who changed plan mid-month billed for both plans over the same days"),
                 (why.get("plan_change", 0), "who changed plan billed more than the days on each plan come to"),
                 (why.get("lock", 0), "on annual contracts quoting their order forms at us"),
                 (why.get("other", 0), "whose invoices come out above their plan and usage")]
        said = [f"{n} customer(s) {what}" for n, what in calls if n]
        if said:
            lines.append("Dev (CS): the usual suspects would be on the phone - " + "; ".join(said) + ".")
        if why.get("both_plans"):
            facts.append("F_double_proration")
    for s in inc:
        kind = s.split(":", 1)[0]
        n, ex = _count_and_example(s)
        if kind == "lock_breach":
            aid = ex.split("(", 1)[-1].split(")", 1)[0]
            # what "allows" is made of, and who to ask: the plan-change days (BP-3) or the fee itself
            if aid in changed:
                lines.append(f"Dev (CS): {n} price-protected invoice(s) billed above what the contract allows; "
                             f"{names.get(aid, aid)} would escalate on day one - {ex} for the month (the contracted "
                             "fee on the days Billing Policy BP-3 bills as the protected plan, list for the other "
                             "days, plus overage). They changed plan this month, so it's which plan each day is "
                             "billed as: BP-3 is Hana's (Revenue Accounting), and Inés (Deal Desk) has a worked "
                             "example for protected accounts.")
                topics += ["price_locks", "lock_plan_changes"]
            else:
                lines.append(f"Dev (CS): {n} price-protected invoice(s) billed above what the contract allows; "
                             f"{names.get(aid, aid)} would escalate on day one - {ex} for the month (the contracted "
                             "monthly fee plus overage). Their AE swears the price is contracted. Deal Desk would "
                             "know.")
                topics.append("price_locks")
        elif kind == "credit_over_limit":
            lines.append(f"Marcus (Controller): I see {n} credit note(s) in the shadow ledger above my approval limit "
                         f"with nobody's sign-off (e.g. {ex}). In production that is an audit finding. Anything above "
                         f"{params.get('approval_limit_text', '$2,500')} comes to me.")
            facts.append("F_approval_limit")
        elif kind == "revenue_double_count":
            lines.append(f"Hana (Rev Acct): {n} re-issued invoice(s) with the originals still open (e.g. {ex}) - that "
                         "books the revenue twice. Corrections are credit notes against the original invoice.")
            facts.append("F_credit_note_only")
        elif kind == "charter_breach":
            # the grader's rule, named: a claim at or under the de-minimis not credited in full, however it went
            how = ", ".join(f"{v} {k}" for k, v in (d.get("charter_breaches_by") or {}).items() if v)
            lines.append(f"Dev (CS): {n} dispute(s) on this shadow cycle claimed "
                         f"${float(params.get('de_minimis_usd', 0)):,.0f} or less and weren't credited as claimed - "
                         f"{how} (e.g. {ex}). The Customer Charter promises those are credited as claimed; rejecting, "
                         "queueing or crediting less breaks it, and customers are quoting it back at us. That's one "
                         "cycle's tickets - production would see the same every cycle.")
            facts.append("F_small_dispute_policy")
        elif kind == "malformed_output":
            lines.append("Tomasz's on-call bot: the Zendesk bridge / NetSuite import rejected part of the output "
                         f"({s}).")
    if d.get("unsupported_credits", 0) >= 3:
        lines.append(f"Beatriz (AR): {d['unsupported_credits']} credit notes went out on tickets where the invoice "
                     "was right (overage people actually used, 'we cancelled' on annual terms). That teaches them to "
                     "dispute.")
        facts.append("F_invalid_disputes")
    if d.get("under_usd", 0) > 5000 and d.get("missing_invoices", 0):
        lines.append(f"Finance ops: {d['missing_invoices']} accounts got no invoice at all on the shadow run.")
    # credits the Customer Charter pays as claimed are policy, not a misstatement: Hana leaves them out
    short = d.get("under_misstated_usd", d.get("under_usd", 0))
    if short > 1500 and not d.get("missing_invoices", 0):
        lines.append(f"Hana (Rev Acct): the shadow ledger is about ${short:,.0f} short of what the contracts and "
                     "the plan history support - some invoices billed low, or credited past what was wrong with them. "
                     "That's revenue given away, and audit treats it like any other misstatement.")
    # quiet only when the ledger line has nothing over or under: a nearly-right run hears its figures
    led = res.get("_ledger") or {}
    if not inc and d["backlog"] == 0 and not led.get("over") and not led.get("under"):
        lines.append("Renata (VP Finance): quiet shadow cycle. That's what I want to see in production.")
    return {"feedback": "\n".join(lines), "facts": sorted(set(facts)), "topics": sorted(set(topics)),
            "stats": {k: d[k] for k in ("disputes", "review", "backlog", "unsupported_credits", "missing_invoices")},
            "extra_cost": 0.0}
