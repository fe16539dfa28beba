"""Alerts that should open a ticket instead of paging."""


def applies(ev: dict, ts) -> bool:
    return False
