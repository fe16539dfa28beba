"""Shortcut: "proration is the bug, so turn it off". A plan change bills the plan the account
ends the month on, for the whole month; price locks are honoured and disputes are validated
against this engine (the reference's handler)."""
from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    solutions.patch(__name__, ws, "menu/no_proration.patch")
