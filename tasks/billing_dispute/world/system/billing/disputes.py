"""Dispute handler. Production: called hourly by the Zendesk bridge with new billing disputes
(tickets tagged `billing_dispute`), each joined with the disputed invoice and the billing
context of that invoice (account, plan changes, usage, contract record).

Entry point: handle_disputes(batch) -> {"decisions": [...]}, one decision per dispute:

    {"dispute_id": ..., "action": "credit",  "amount_usd": 120.00, "reason": "..."}   # issue a credit note
    {"dispute_id": ..., "action": "reject",  "reason": "..."}                        # reply with explanation
    {"dispute_id": ..., "action": "review",  "queue": "AR-REVIEW", "reason": "..."}  # manual AR review
    {"dispute_id": ..., "action": "reissue", "new_total_usd": ..., "void_original": bool}

Credit notes are posted to NetSuite against the original invoice. The AR review queue is
worked by the AR team; anything they approve above the approval limit goes to the Controller.

Current behaviour (since the bridge went live, 3.6.0): everything goes to manual review.
"""
import json
import sys

from .money import parse_amount


def decide(dispute: dict) -> dict:
    claimed = parse_amount(dispute.get("claimed_usd"))
    return {"dispute_id": dispute["dispute_id"], "action": "review", "queue": "AR-REVIEW",
            "reason": f"manual review ({dispute.get('reason_code', 'other')}, claimed {claimed:,.2f})"}


def handle_disputes(batch: dict) -> dict:
    """Entry point. batch = {"as_of", "approval_queue", "disputes": [...]}."""
    return {"decisions": [decide(d) for d in batch.get("disputes", [])]}


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(json.dumps(handle_disputes(json.load(f)), indent=1))
