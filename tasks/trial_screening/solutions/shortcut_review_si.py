"""Shortcut: hold what looks odd - the reference, except that any result not in mg/dL or percent goes
to the PI's Thursday queue instead of being converted (every Niagara referral waits a week)."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/screener/eligibility.py",
                      '    conv = table.get(unit_key(result.get("units")))\n',
                      '    conv = table.get(unit_key(result.get("units")))\n'
                      '    if conv is not None and conv["scale"] != 1.0:\n'
                      '        return None\n')
