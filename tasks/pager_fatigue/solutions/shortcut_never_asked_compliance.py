"""Shortcut: everything the engineers and the data tell you (dedup, change windows, batch windows,
hand-silenced alerts) but compliance was never asked, so nothing is exempt from change windows:
card-auth alerts during an auth-gw rolling deploy get silenced like the rest of the CI.
The reference's changes except always_page."""
from . import reference


def apply(ws, params: dict) -> None:
    for role, name in reference.changes(params).items():
        if role != "always_page":
            reference.apply_change(ws, name)
