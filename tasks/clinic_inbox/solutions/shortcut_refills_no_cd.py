"""Shortcut: fix the red flags and move every repeat request to the pharmacy desk - without asking
the pharmacist which requests the desk may not issue (no controlled-drug rule, no capacity)."""
from fdegym_env.tasklib import solutions

from . import reference


def apply(ws, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    reference.write_policy(ws, {"90_overrides.json": {"cd_drugs": None, "pharm_cap": None}})
