"""Diligent: every key fact found (which intake sends self-employed income in which period, the
committee's appetite, the fair-lending rules, the current reason codes) and shipped as a channel
rule in the engine's income conversion, with the reference's config. Misses the subtle cases:
applications that finish on the old form version still state annual figures, and free-text
amounts ("$4,250", "4.2k") still parse to nothing."""

from fdegym_env.tasklib import solutions

from .reference import set_config

ANCHOR = '    basis = BASIS.get(app.get("employment", ""), "annual")\n'
PERIODS = '"annual": 1 / 12, "monthly": 1.0}'


def apply(ws, params: dict) -> None:
    ch, period = params["quirk_channel"], params["se_period"]
    solutions.replace(ws, "system/prequal/income.py", PERIODS,
                      '"annual": 1 / 12, "monthly": 1.0, "weekly": 52 / 12, "biweekly": 26 / 12, "quarterly": 1 / 3}')
    solutions.replace(ws, "system/prequal/income.py", ANCHOR,
                      f'{ANCHOR}    if app.get("employment") == "self_employed" and app.get("channel") == "{ch}":\n'
                      f'        basis = "{period}"   # {ch} intake asks for a {period} figure\n')
    set_config(ws, params)
