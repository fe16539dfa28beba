"""Helpers the AR team uses from the ops notebook. Not called by the invoice run."""
from .money import cents


def reissue(dispute: dict, corrected_total: float) -> dict:
    """Build a re-issue decision: a corrected invoice replaces the disputed one.

    NB: voiding the original in NetSuite is done by RevOps by hand (see runbook 'Re-issues').
    """
    return {"dispute_id": dispute["dispute_id"], "action": "reissue",
            "new_total_usd": cents(corrected_total), "void_original": False}


def credit(dispute: dict, amount: float, reason: str = "") -> dict:
    return {"dispute_id": dispute["dispute_id"], "action": "credit", "amount_usd": cents(amount), "reason": reason}
