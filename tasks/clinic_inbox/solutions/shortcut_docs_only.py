"""Shortcut: never ask anyone - build everything from the documents in the workspace: the v2
red-flag sheet, the 2021 repeat-prescribing protocol (Schedule 2 only), the OOH wording in the
policy folder, the core weekday hours of the FAQ and the rota, and the desk capacity on the rota."""
import re
from pathlib import Path

from fdegym_env.tasklib import solutions

from . import reference

SCHEDULE_2 = ["morphine", "oxycodone", "fentanyl", "methylphenidate", "lisdexamfetamine"]


def apply(ws, params: dict) -> None:
    doc = (Path(ws) / "docs" / "policies" / "ooh_safety_netting.md").read_text(encoding="utf-8")
    quoted = [l.strip()[1:].strip() for l in doc.splitlines() if l.strip().startswith(">")]
    rota = (Path(ws) / "docs" / "rota" / "portal_cover_rota_2026-03.md").read_text(encoding="utf-8")
    cap = re.search(r"about (\d+) repeat requests a working day", rota)
    solutions.apply(__name__, "reference", ws, params)
    for change in ("rf_v2", "hours_weekdays"):    # the v2 sheet; the FAQ's Monday-Friday 08:00-18:30
        solutions.overlay(reference.MENU / change, ws, params)
    reference.write_policy(ws, {"90_overrides.json": {"cd_drugs": SCHEDULE_2, "pharm_cap": int(cap.group(1)) if cap else None,
                                                      "ooh_reply": " ".join(quoted) if quoted else params["ooh_reply"]}})
