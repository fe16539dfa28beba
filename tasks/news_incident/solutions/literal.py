"""Literal: the sponsor's request, done well. A keyword blocklist in front of the auto-publisher:
anything that mentions a risky word (court, police, allegations, deaths... and embargoes, as Dana
suggested in INC-2026-034) is held for an editor. Kill notices and versions are left as they were.
Kept once in solutions/menu/ (menu.yaml's blocklist item): blocklist/ (the word list) and
blocklist.patch (rules.py reads it)."""

from pathlib import Path

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.overlay(Path(__file__).resolve().parent / "menu" / "blocklist", ws, params)
    solutions.patch(__name__, ws, "menu/blocklist.patch")
