"""Literal: what the VP Finance asked for, done well. Disputes claiming under $500 get an
automatic credit note for the amount claimed (against the original invoice, never a re-issue);
everything else still goes to AR review. Billing itself is untouched."""
from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.patch(__name__, ws, "menu/literal.patch")
