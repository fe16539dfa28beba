"""Shortcut: never ask the clinical lead - learn the red-flag phrases from last month's export
(the messages staff marked as red flags) and hard-code those. Everything else as the reference."""
import json
import re
from pathlib import Path

from fdegym_env.tasklib import solutions

from . import reference


def _n(s):
    return " " + " ".join(re.sub(r"[^a-z0-9]+", " ", str(s or "").lower()).split()) + " "


def apply(ws, params: dict) -> None:
    seen = set()
    for path in (Path(ws) / "data").glob("portal_messages_*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            note = (r.get("staff_note") or "").lower()
            if "rf" in note.split() or "red flag" in note or "rf:" in note or "clinical content" in note:
                text = _n((r.get("subject") or "") + " " + (r.get("body") or ""))
                # the engineer reads the flagged messages and writes down the symptom phrase in each
                seen.update(p for ps in params["red_flags"].values() for p in ps if _n(p) in text)
    solutions.apply(__name__, "reference", ws, params)
    reference.write_policy(ws, {"90_overrides.json": {"red_flags": sorted(seen)}})
