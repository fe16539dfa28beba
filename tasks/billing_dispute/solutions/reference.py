"""Reference delivery for billing_dispute, written from the facts:

- fix the root cause: a plan change closes the old segment (no overlap billed twice), under the
  contract's proration convention (daily actual/actual, or the mid-month convention);
- honour price protection: contracted fee for the locked plan while the lock runs, read from
  the source the deal desk says is authoritative (the register, or the order-form clause);
- dispute handler validates instead of rubber-stamping: re-rate the disputed invoice with the
  corrected engine, credit the proven overcharge as a credit note against the original invoice
  (no re-issue: revenue must not be recognised twice), route anything above the approval limit
  to the review queue for controller sign-off, reject disputes with no overcharge, and apply the
  customer charter's de-minimis rule where one exists.

The engine and the handler are the menu's patches (menu/engine.patch, menu/validating.patch);
system/billing/policy.json takes the convention, the lock source, the approval limit and the
de-minimis amount from the variant's params.
"""
import json
from pathlib import Path

from fdegym_env.tasklib import solutions

POLICY = ("proration", "lock_source", "approval_limit_usd", "de_minimis_usd")


def apply(ws, params: dict) -> None:
    solutions.patch(__name__, ws, "menu/engine.patch")
    solutions.patch(__name__, ws, "menu/validating.patch")
    policy = json.dumps({k: params[k] for k in POLICY}, indent=2)
    (Path(ws) / "system" / "billing" / "policy.json").write_text(policy + "\n", encoding="utf-8")
