"""Literal: what the VP Finance asked for, done well. Disputes claiming under $500 get an
automatic credit note for the amount claimed (against the original invoice, never a re-issue);
everything else still goes to AR review. Billing itself is untouched."""
import pathlib

DISPUTES = r'''"""Dispute handler with auto-approval of small disputes (FIN-301).

Disputes claiming less than $500.00 are credited automatically as a credit note against the
original invoice; larger ones go to the AR review queue as before.
"""
from .money import cents, parse_amount

AUTO_APPROVE_BELOW = 500.00


def decide(dispute):
    claimed = parse_amount(dispute.get("claimed_usd"))
    if 0 < claimed < AUTO_APPROVE_BELOW:
        return {"dispute_id": dispute["dispute_id"], "action": "credit", "amount_usd": cents(claimed),
                "credit_type": "credit_note", "against_invoice": dispute.get("invoice_no"),
                "reason": "auto-approved: under $500"}
    return {"dispute_id": dispute["dispute_id"], "action": "review", "queue": "AR-REVIEW",
            "reason": f"manual review ({dispute.get('reason_code', 'other')}, claimed {claimed:,.2f})"}


def handle_disputes(batch):
    return {"decisions": [decide(d) for d in batch.get("disputes", [])]}
'''


def apply(ws: pathlib.Path, params: dict) -> None:
    (pathlib.Path(ws) / "system" / "billing" / "disputes.py").write_text(DISPUTES)
