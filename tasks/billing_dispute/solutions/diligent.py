"""Diligent delivery for billing_dispute: what a good engineer ships who found every key fact
(the removed reconciler, the proration convention, the price locks and where they are recorded,
the approval limit, credit notes only, invalid disputes, the charter) but read the data as the
documentation describes its common case:

- a plan change's day of month is taken as a day of the billed period, whatever month the
  effective date is in;
- a price lock is read from the register or the order form, not from the signed amendments in
  the contract feed that restate or end it;
- the overcharge on a disputed invoice is measured against the invoice total as issued, without
  the credit memos already posted against it.

Everything else is the reference's: the reference, then ``diligent.patch`` (those three readings).
"""
from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    solutions.patch(__name__, ws, "diligent.patch")
