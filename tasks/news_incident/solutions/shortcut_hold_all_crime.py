"""Shortcut: fix kills, versions and embargo times, and instead of asking legal what must be
reviewed, hold every crime/court story. Safe, but the desk overflows and the most-read copy is late."""

from fdegym_env.tasklib import solutions

PIPELINE = "system/wire_ingest/pipeline.py"


def apply(ws, params):
    solutions.apply(__name__, "reference", ws, params)
    solutions.replace(ws, PIPELINE, "def legal_hold(item):\n",
                      'def legal_hold(item):\n    return "crime" in set(item["subjects"])\n')
    solutions.replace(ws, PIPELINE, 'if item["priority"] >= policy.SPIKE_PRIORITY:', "if False:")
