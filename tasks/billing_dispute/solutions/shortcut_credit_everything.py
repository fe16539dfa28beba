"""Shortcut: fix the engine (proration + price locks, as the reference does), then stop
validating disputes: every dispute is credited for what the customer claims, up to the approval
limit (above it, the review queue). Skips the question of which disputes are valid."""
from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    solutions.patch(__name__, ws, "menu/credit_everything.patch")
