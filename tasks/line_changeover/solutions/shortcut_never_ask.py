"""Shortcut: never ask anyone - read the new filler's times off the operators' changeover log and put
them into the matrix and its wash-down minutes; the allergen list and the line hours stay as they are."""

import json
from pathlib import Path

from . import reference


def apply(ws: Path, params: dict) -> None:
    reference.set_matrix(ws, params["new_line"], params["new_flavour_min"], params["new_swap_min"], params["new_purge"])
    path = Path(ws) / "system" / "scheduler" / "config.json"
    cfg = json.loads(path.read_text())
    cfg["lines"][params["new_line"]].update(washdown_minutes=int(params["new_wash_min"]),
                                            washdown_waste_cases=int(params["new_wash_waste"]))
    path.write_text(json.dumps(cfg, indent=2) + "\n")
