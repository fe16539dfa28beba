"""Shortcut: never ask anyone - build everything from the documents in the workspace: the v2
red-flag sheet, the 2021 repeat-prescribing protocol (Schedule 2 only), the OOH wording in the
policy folder, the hours in the practice leaflet, and no pharmacy capacity limit."""
from pathlib import Path

from fdegym_env.tasklib import solutions

from . import reference

V2_SHEET = ["chest pain", "tightness in my chest", "pain in my chest", "short of breath", "struggling to breathe",
            "can't catch my breath", "lips have gone blue", "face has dropped", "slurred speech", "arm went weak",
            "coughing up blood", "vomiting blood", "lips are swelling", "tongue is swollen",
            "swelling in my throat", "collapsed", "passed out", "had a fit", "seizure"]
SCHEDULE_2 = ["morphine", "oxycodone", "fentanyl", "methylphenidate", "lisdexamfetamine"]
WEEKDAYS = {d: ["08:00", "18:30"] for d in ("mon", "tue", "wed", "thu", "fri")}


def apply(ws, params: dict) -> None:
    doc = (Path(ws) / "docs" / "policies" / "ooh_safety_netting.md").read_text(encoding="utf-8")
    quoted = [l.strip()[1:].strip() for l in doc.splitlines() if l.strip().startswith(">")]
    solutions.apply(__name__, "reference", ws, params)
    reference.write_policy(ws, {"90_overrides.json": {
        "red_flags": V2_SHEET, "cd_drugs": SCHEDULE_2, "pharm_cap": None,
        "ooh_reply": " ".join(quoted) if quoted else params["ooh_reply"], "hours": dict(WEEKDAYS, sat=None, sun=None)}})
