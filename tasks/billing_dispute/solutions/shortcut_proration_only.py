"""Shortcut: fix the double proration (and validate disputes against the fixed engine) but leave
pricing catalogue-driven: the price locks nobody mentioned in the code are never looked up."""
from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/billing/rating.py", "    lock = price_lock(contract, period)\n", "    lock = None\n")
