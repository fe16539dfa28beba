"""Reference: correct the one brand's woven lines in the size chart (the brand's knit and jersey
fit the standard chart and keep it) and authorise returns by the rules in ``returns_rules/`` and ``menu/rma_rules.patch``
(statutory period in UK dates from delivery, faulty always, no block rule, flagged occasionwear
inspected inside the period and refused after it unless the member terms forbid it). Written from
the facts (params), not from held-out orders."""

import json
from pathlib import Path

from fdegym_env.tasklib import solutions

WOVEN = ("dresses", "tailoring", "occasionwear")


def fix_chart(ws: Path, brand: str, offset: int, categories=WOVEN) -> None:
    path = Path(ws) / "system" / "size_charts.json"
    charts = json.loads(path.read_text(encoding="utf-8"))
    entry = charts["brands"][brand]
    entry.setdefault("categories", {}).update({c: int(offset) for c in categories})
    entry["source"] = f"{entry['source']}; woven re-measured on the fit model, Mar 2026"
    path.write_text(json.dumps(charts, indent=2) + "\n", encoding="utf-8")


def returns_rules(ws: Path, params: dict) -> None:
    """The returns side: config from the variant's facts (``returns_rules/``) and the rules in
    system/rma/authorise.py (``menu/rma_rules.patch``)."""
    solutions.apply(__name__, "returns_rules", ws, params)
    solutions.patch(__name__, ws, "menu/rma_rules.patch")


def apply(ws: Path, params: dict) -> None:
    returns_rules(ws, params)
    fix_chart(ws, params["problem_brand"], params["true_offset"])
