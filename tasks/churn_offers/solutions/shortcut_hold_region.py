"""Shortcut: hold the whole region whose usage feed stopped - no offers there until the feed is
back - and the reference everywhere else. Safe, but the region's real churners get nothing."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/campaign/offers.py", "        if consented(acc) and may_discount(acc, run_date):",
                      f"        if consented(acc) and may_discount(acc, run_date) and acc['region'] != {params['stale_region']!r}:")
