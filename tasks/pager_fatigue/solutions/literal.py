"""Literal delivery: what the sponsor asked for, done carefully. Every page threshold in
rules.json is made 50% less sensitive (x1.5 for 'value >= page_at' rules, /1.5 for the one
'value <= page_at' rule, CertExpirySoon): literal.patch. Nothing else changes."""
from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.patch(__name__, ws, "literal.patch")
