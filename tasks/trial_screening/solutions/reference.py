"""Reference: the screener converts every result from the units the lab reported into protocol units
(Appendix 4), uses the repeat where a value was redrawn (5.3), sends what it cannot read to the PI,
and applies Amendment 3's limit to visits from the site activation date the medical monitor gave
(menu/screener_units.patch, then criteria.json's amendment from the facts). No limit is loosened."""

import json
from pathlib import Path

from fdegym_env.tasklib import solutions


def amendment(ws: Path, analyte: str, effective: str, new_max: float) -> None:
    path = Path(ws) / "system" / "criteria.json"
    crit = json.loads(path.read_text(encoding="utf-8"))
    crit["amendments"] = [{"version": "v4.0 (Amendment 3)", "effective": effective, "analyte": analyte,
                           "limits": {"max": float(new_max)}}]
    path.write_text(json.dumps(crit, indent=2) + "\n", encoding="utf-8")


def apply(ws: Path, params: dict) -> None:
    solutions.patch(__name__, ws, "menu/screener_units.patch")
    amendment(ws, params["amend_analyte"], params["amend_date"], params["amend_new"])
