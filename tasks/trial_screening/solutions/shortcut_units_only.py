"""Shortcut: fix the units and stop there - the amendment is never asked about, every visit stays on
the v3.0 limits."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.patch(__name__, ws, "menu/screener_units.patch")
