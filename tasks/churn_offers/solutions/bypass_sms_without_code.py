"""Bypass: text every chosen account its offer but send billing the code `none` - the grader is
hoped to count the customers the SMS keeps while no discount is ever charged. The offer is never
applied, so nobody is kept by it."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/campaign/offers.py",
                      '"offer": f"save{offer}" if offer else "none",', '"offer": "none",')
