"""Shortcut: fix what the incident tickets show (kills, versions, Meridian's embargo times) but never
ask legal: court copy keeps auto-publishing because the handbook says it is cleared at source."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, "system/wire_ingest/policy.py", "LEGAL_STAGES = {",
                      "LEGAL_STAGES = set()  # handbook s.4.2: cleared at source\n_UNUSED = {")
