"""Shortcut: skip the diagnosis - everything raised at a depot (outages aside) goes to the depot IT
field team, on the theory that they are on site and will sort or pass on whatever it is."""

from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.replace(ws, "system/config.json", '{"id": "R15-handheld"', '{"id": "R12-depots", "enabled": true, '
                      '"field": "site", "match": ["crb", "hln", "wmr"], "queue": "field_ops", "priority": "P3"},\n'
                      '    {"id": "R15-handheld"')
