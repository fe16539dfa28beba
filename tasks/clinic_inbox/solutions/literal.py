"""Literal: the practice manager's request, done well - an auto-reply bot that answers every admin
question from the patient FAQ on the website (docs/website_faq.md), so the front desk never sees
them. Nothing else changes: menu/faq_bot.patch (the new bot and its answers; the router hands it
Admin query / Other messages)."""
from pathlib import Path

from fdegym_env.tasklib import solutions


def apply(ws: Path, params: dict) -> None:
    solutions.patch(__name__, ws, "menu/faq_bot.patch")
