"""Shortcut: the storage ranges fixed, and door openings 'filtered out' the way a dashboard would -
any run of readings above the limit shorter than 15 minutes is ignored, and a line is quarantined
only for one continuous episode longer than the SOP's allowance. Misses the SOP's cumulative count:
a unit struggling on a hot afternoon, a few minutes over at every drop, delivers excursions."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/coldwatch/excursions.py",
                      "    above = sum(interval_min for t in temps if hi is not None and t > hi)\n",
                      "    above, run = 0, 0\n"
                      "    for t in temps:\n"
                      "        run = run + interval_min if hi is not None and t > hi else 0\n"
                      "        above = max(above, run if run >= 15 else 0)\n")
