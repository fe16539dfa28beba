"""Shortcut: fix the engine (proration + price locks, as the reference does), then stop
validating disputes: every dispute is credited for what the customer claims, up to the approval
limit (above it, the review queue). Skips the question of which disputes are valid."""
import pathlib

from fdegym_env.tasklib import solutions



DISPUTES = r'''"""Dispute handler: customer is always right (credit the claim, up to the approval limit)."""
from . import rating
from .money import cents, parse_amount

LIMIT = float(rating.POLICY["approval_limit_usd"])


def decide(dispute):
    claimed = parse_amount(dispute.get("claimed_usd"))
    if claimed > LIMIT:
        return {"dispute_id": dispute["dispute_id"], "action": "review", "queue": "AR-REVIEW"}
    return {"dispute_id": dispute["dispute_id"], "action": "credit", "amount_usd": cents(claimed),
            "credit_type": "credit_note", "against_invoice": dispute.get("invoice_no")}


def handle_disputes(batch):
    return {"decisions": [decide(d) for d in batch.get("disputes", [])]}
'''


def apply(ws: pathlib.Path, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    (pathlib.Path(ws) / "system" / "billing" / "disputes.py").write_text(DISPUTES)
