"""Shortcut: "if in doubt, a nurse reads it" - every message to the nurse line (Medical question
flagged urgent), with the current OOH wording. Skips finding out what the nurse line can absorb."""
from fdegym_env.tasklib import solutions

from . import reference


def apply(ws, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    reference.write_policy(ws, {"90_overrides.json": {"everything_to": "nurse_line", "auto_reply_admin": False,
                                                      "urgent_categories": ["Medical question"]}})
