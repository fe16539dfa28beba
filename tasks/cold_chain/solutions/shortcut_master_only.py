"""Shortcut: the product master fixed and nothing else - every single reading above 8 °C on a 2-8 line
still quarantines it (door openings included), as the old drop check did."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.patch(__name__, ws, "menu/master_ranges.patch")
