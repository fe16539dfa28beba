"""Alerts that page regardless of change windows, quiet hours and thresholds."""


def applies(ev: dict, ts) -> bool:
    return False
