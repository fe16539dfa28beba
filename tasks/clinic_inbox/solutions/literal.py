"""Literal: the practice manager's request, done well - an auto-reply bot that answers every admin
question from the patient FAQ on the website, so the front desk never sees them. Nothing else changes.

literal/ holds the new bot (system/portal_triage/faq_bot.py), literal.patch wires it into the
router; the bot's answers are the website FAQ, read from docs/website_faq.md."""
import json
import re
from pathlib import Path

from fdegym_env.tasklib import solutions


def parse_faq(md: str):
    out = []
    for block in re.split(r"\n### ", "\n" + md)[1:]:
        q, _, a = block.partition("\n")
        a = " ".join(l.strip() for l in a.strip().splitlines() if l.strip() and not l.startswith("#"))
        if a:
            out.append({"q": q.strip(), "a": a})
    return out


def apply(ws: Path, params: dict) -> None:
    faq = parse_faq((Path(ws) / "docs" / "website_faq.md").read_text(encoding="utf-8"))
    (Path(ws) / "system" / "config" / "faq_bot.json").write_text(json.dumps(faq, indent=1), encoding="utf-8")
    solutions.overlay(Path(__file__).with_suffix(""), ws, params)
    solutions.patch(__name__, ws, "literal.patch")
