"""Shortcut: never ask anyone - build everything from the documents in the workspace: the v2
red-flag sheet, the 2021 repeat-prescribing protocol (Schedule 2 only), the OOH wording in the
policy folder, the hours in the practice leaflet, and no pharmacy capacity limit."""
from pathlib import Path

from ..solkit import reference_policy, write_router

V2_SHEET = ["chest pain", "tightness in my chest", "pain in my chest", "short of breath", "struggling to breathe",
            "can't catch my breath", "lips have gone blue", "face has dropped", "slurred speech", "arm went weak",
            "coughing up blood", "vomiting blood", "lips are swelling", "tongue is swollen",
            "swelling in my throat", "collapsed", "passed out", "had a fit", "seizure"]
SCHEDULE_2 = ["morphine", "oxycodone", "fentanyl", "methylphenidate", "lisdexamfetamine"]


def apply(ws: Path, params: dict) -> None:
    p = reference_policy(params)
    p["red_flags"] = V2_SHEET
    p["cd_drugs"] = SCHEDULE_2
    p["pharm_cap"] = None
    doc = (Path(ws) / "docs" / "policies" / "ooh_safety_netting.md").read_text(encoding="utf-8")
    quoted = [l.strip()[1:].strip() for l in doc.splitlines() if l.strip().startswith(">")]
    p["ooh_reply"] = " ".join(quoted) if quoted else p["ooh_reply"]
    p["hours"] = {"mon": ["08:00", "18:30"], "tue": ["08:00", "18:30"], "wed": ["08:00", "18:30"],
                  "thu": ["08:00", "18:30"], "fri": ["08:00", "18:30"], "sat": None, "sun": None}
    write_router(ws, p)
