"""Shortcut: "if in doubt, a nurse reads it" - every message to the nurse line (Medical question
flagged urgent), with the current OOH wording. Skips finding out what the nurse line can absorb."""
from pathlib import Path

from ..solkit import reference_policy, write_router


def apply(ws: Path, params: dict) -> None:
    p = reference_policy(params)
    p.update(everything_to="nurse_line", urgent_categories=["Medical question"], auto_reply_admin=False)
    write_router(ws, p)
