"""Shortcut: take the sponsor's word on the wash-downs ("only satay really needs a strip-down") and fix
the new filler's times from the changeover log - never check the allergen rules with QA."""

from pathlib import Path

from . import reference


def apply(ws: Path, params: dict) -> None:
    reference.set_matrix(ws, params["new_line"], params["new_flavour_min"], params["new_swap_min"], params["new_purge"])
    reference.set_config(ws, params, washlist=["peanuts"])
