"""Alerts that are expected (and dropped) at certain times of day."""


def applies(ev: dict, ts) -> bool:
    return False
