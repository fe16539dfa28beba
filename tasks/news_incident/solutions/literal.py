"""Literal: the sponsor's request, done well. A keyword blocklist in front of the auto-publisher
(literal.patch on rules.py): anything that mentions a risky word (court, police, allegations,
deaths... and embargoes, as Dana suggested in INC-2026-034) is held for an editor. Kill notices and
versions are left as they were."""

from pathlib import Path

from fdegym_env.tasklib import solutions

BLOCKLIST = ["court", "courts", "police", "arrest", "arrested", "charged", "charge", "alleged", "allegation",
             "allegations", "accused", "trial", "jury", "inquest", "murder", "manslaughter", "rape", "assault",
             "stabbing", "stabbed", "fraud", "lawsuit", "sued", "libel", "defamation", "defamatory", "died",
             "death", "killed", "jailed", "guilty", "convicted", "scandal", "abuse", "embargo", "embargoed"]


def apply(ws, params):
    (Path(ws) / "system" / "config").mkdir(exist_ok=True)
    (Path(ws) / "system" / "config" / "blocklist.txt").write_text(
        "# Risky words: stories mentioning any of these are held for an editor (one per line)\n"
        + "\n".join(BLOCKLIST) + "\n", encoding="utf-8")
    solutions.patch(__name__, ws, "literal.patch")
