"""Shortcut: fix the red flags and move every repeat request to the pharmacy desk - without asking
the pharmacist which requests the desk may not issue (no controlled-drug rule, no capacity)."""
from pathlib import Path

from ..solkit import reference_policy, write_router


def apply(ws: Path, params: dict) -> None:
    p = reference_policy(params)
    p["cd_drugs"] = None
    p["pharm_cap"] = None
    write_router(ws, p)
