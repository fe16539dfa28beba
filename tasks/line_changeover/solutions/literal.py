"""Literal: what Craig asked for - minimise the number of changeovers. Every job of a product goes to
the same line (one campaign per product), and the sequencer counts changeovers instead of minutes;
the allergen wash-down logic is kept as it is."""

from pathlib import Path

from fdegym_env.tasklib import solutions


def apply(ws: Path, params: dict) -> None:
    solutions.patch(__name__, ws, "menu/fewest_changeovers.patch")
