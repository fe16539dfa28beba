"""Shortcut: the reference's rules with the statutory period counted the quick way - 14 days from
the order date, UTC - instead of from the delivery scan in UK dates."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/rma/authorise.py",
                      '    start = req.get("delivered_at") or req.get("dispatched_at") or req["ordered_at"]\n'
                      '    return (uk_date(req["requested_at"]) - uk_date(start)).days\n',
                      '    return (date.fromisoformat(req["requested_at"][:10]) - date.fromisoformat(req["ordered_at"][:10])).days\n')
