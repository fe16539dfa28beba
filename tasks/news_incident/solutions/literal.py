"""Literal: the sponsor's request, done well. A keyword blocklist in front of the auto-publisher:
anything that mentions a risky word (court, police, allegations, deaths... and embargoes, as Dana
suggested in INC-2026-034) is held for an editor. Kill notices and versions are left as they were."""

from __future__ import annotations

from pathlib import Path

BLOCKLIST = ["court", "courts", "police", "arrest", "arrested", "charged", "charge", "alleged", "allegation",
             "allegations", "accused", "trial", "jury", "inquest", "murder", "manslaughter", "rape", "assault",
             "stabbing", "stabbed", "fraud", "lawsuit", "sued", "libel", "defamation", "defamatory", "died",
             "death", "killed", "jailed", "guilty", "convicted", "scandal", "abuse", "embargo", "embargoed"]

RULES = '''"""Editorial rules applied before auto-publication.

2.5.0: keyword blocklist (Dana W., after INC-2026-031 / INC-2026-034). Any story whose headline or
body contains one of these words is held for an editor. Edit the list in config/blocklist.txt.
"""

from __future__ import annotations

import re
from pathlib import Path

DROP_MSGTYPES = {"advisory", "admin", "test", "service"}
HOLD_SUBJECTS: set[str] = set()

_LIST = Path(__file__).resolve().parent.parent / "config" / "blocklist.txt"


def _load():
    words = []
    for line in _LIST.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip().lower()
        if line:
            words.append(line)
    return re.compile(r"\\b(" + "|".join(re.escape(w) for w in words) + r")\\b", re.I) if words else None


BLOCK = _load()


def hold_reason(item: dict):
    hit = HOLD_SUBJECTS & set(item.get("subjects") or [])
    if hit:
        return "subject " + ", ".join(sorted(hit))
    if BLOCK is not None:
        m = BLOCK.search(item.get("headline", "") + "\\n" + item.get("body", ""))
        if m:
            return f"blocklist: {m.group(1).lower()}"
    return None
'''


def apply(ws: Path, params: dict) -> None:
    sysdir = Path(ws) / "system"
    (sysdir / "config").mkdir(exist_ok=True)
    (sysdir / "config" / "blocklist.txt").write_text(
        "# Risky words: stories mentioning any of these are held for an editor (one per line)\n"
        + "\n".join(BLOCKLIST) + "\n", encoding="utf-8")
    (sysdir / "wire_ingest" / "rules.py").write_text(RULES, encoding="utf-8")
