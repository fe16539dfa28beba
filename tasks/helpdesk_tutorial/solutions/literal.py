"""Literal: what Moira asked for - anything raised from a depot goes in as P1 so it is seen first."""

from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.replace(ws, "system/config.json", '"site_priority": {}',
                      '"site_priority": {"CRB": "P1", "HLN": "P1", "WMR": "P1"}')
