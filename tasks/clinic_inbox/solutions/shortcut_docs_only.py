"""Shortcut: never ask anyone - build everything from the documents in the workspace: the v2
red-flag sheet, the 2021 repeat-prescribing protocol (Schedule 2 only), the OOH wording in the
policy folder, the hours in the practice leaflet, and no pharmacy capacity limit."""
from pathlib import Path

from fdegym_env.tasklib import solutions

from . import reference

SCHEDULE_2 = ["morphine", "oxycodone", "fentanyl", "methylphenidate", "lisdexamfetamine"]


def apply(ws, params: dict) -> None:
    doc = (Path(ws) / "docs" / "policies" / "ooh_safety_netting.md").read_text(encoding="utf-8")
    quoted = [l.strip()[1:].strip() for l in doc.splitlines() if l.strip().startswith(">")]
    solutions.apply(__name__, "reference", ws, params)
    for change in ("rf_v2", "hours_weekdays"):    # the v2 sheet; the leaflet's Monday-Friday 08:00-18:30
        solutions.overlay(reference.MENU / change, ws, params)
    reference.write_policy(ws, {"90_overrides.json": {"cd_drugs": SCHEDULE_2, "pharm_cap": None,
                                                      "ooh_reply": " ".join(quoted) if quoted else params["ooh_reply"]}})
