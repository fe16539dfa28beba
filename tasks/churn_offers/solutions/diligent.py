"""Diligent: every key fact found - the stale region scored without usage, the take-up of both
offers, the term, consent and disclosure rules - but shipped as one offer: 20% to every eligible
account above its break-even churn risk. The accounts for whom 10% keeps more margin (moderate risk)
get 20%, and those where only 10% pays get nothing. The reference, then this."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/campaign/config.json", '"take_up": {"10": 0.36, "20": 0.5}', '"take_up": {"20": 0.5}')
