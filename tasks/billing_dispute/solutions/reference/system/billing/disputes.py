"""Dispute handler: validate every dispute by re-rating the disputed invoice.

Entry point: handle_disputes(batch) -> {"decisions": [...]}.
- overcharge = invoice total as issued - credit notes already posted against it
               - invoice re-rated with the corrected engine
- overcharge <= approval limit      -> credit note for the overcharge, against the original invoice
- overcharge  > approval limit      -> AR review queue (controller sign-off), amount recommended
- no overcharge                     -> reject with the re-rated breakdown
- customer charter de-minimis (policy.json): claims at or below it are credited as claimed.
Never re-issue: a re-issued invoice books the revenue a second time unless the original is voided.
"""
import json
import sys

from . import rating
from .money import cents, parse_amount

LIMIT = float(rating.POLICY["approval_limit_usd"])
DE_MINIMIS = float(rating.POLICY.get("de_minimis_usd") or 0)


def rerate(dispute):
    ctx = dispute.get("context") or {}
    lines = rating.rate_account(ctx["account"], ctx.get("plan_changes") or [], ctx.get("credits_used") or 0,
                                ctx.get("contract"), ctx["period"])
    return cents(sum(l["amount_usd"] for l in lines))


def decide(dispute):
    did = dispute["dispute_id"]
    claimed = parse_amount(dispute.get("claimed_usd"))
    try:
        issued = float((dispute.get("invoice") or {}).get("total_usd"))
        correct = rerate(dispute)
    except Exception as exc:                       # context missing: a human looks at it
        return {"dispute_id": did, "action": "review", "queue": "AR-REVIEW", "reason": f"cannot re-rate: {exc}"}
    posted = sum(parse_amount(cm.get("amount_usd")) for cm in (dispute.get("invoice") or {}).get("credit_notes") or [])
    over = cents(issued - posted - correct)
    amount = over if over > 1.0 else 0.0
    if DE_MINIMIS and 0 < claimed <= DE_MINIMIS:
        amount = max(amount, claimed)
    if amount <= 0:
        return {"dispute_id": did, "action": "reject",
                "reason": f"invoice re-rated at {correct:,.2f}; billed {issued:,.2f}, credited {posted:,.2f}: nothing left to credit"}
    if amount > LIMIT:
        return {"dispute_id": did, "action": "review", "queue": "AR-REVIEW", "recommended_credit_usd": amount,
                "reason": f"overcharge {amount:,.2f} above approval limit {LIMIT:,.0f}: controller sign-off"}
    return {"dispute_id": did, "action": "credit", "amount_usd": cents(amount), "credit_type": "credit_note",
            "against_invoice": dispute.get("invoice_no"),
            "reason": f"re-rated at {correct:,.2f}; billed {issued:,.2f}, already credited {posted:,.2f}"}


def handle_disputes(batch):
    return {"decisions": [decide(d) for d in batch.get("disputes", [])]}


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(json.dumps(handle_disputes(json.load(f)), indent=1))
