"""Shortcut: 'the fridge limits are too tight in a heatwave' - the rule made cumulative and every
product held to the ambient limit the import should have given the misread lines (nothing below 25 °C),
so nothing is quarantined for a mere door opening. Releases every real fridge excursion."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/coldwatch/master.py",
                      '(_num(r["min_c"]), _num(r["max_c"]))',
                      '(None, max(25.0, _num(r["max_c"]) or 25.0))')
