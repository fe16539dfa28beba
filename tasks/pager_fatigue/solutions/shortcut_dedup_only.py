"""Shortcut: fix the obvious bug (fired_at in the dedup key) and stop there. No change windows,
no batch-window knowledge, no hand-silence list, no contract list: nobody was asked anything.
The reference's dedup change only."""
from . import reference


def apply(ws, params: dict) -> None:
    reference.apply_change(ws, reference.changes(params)["dedup"])
