"""Diligent: every key fact found - the brand and its offset, the statutory rules, who the frequent
returners are, the wardrobing pattern, the goodwill terms - and shipped as: the whole brand moved
to the new offset (its knit and jersey, which fit the standard chart, now list a size too big), and
every flagged occasionwear return sent to inspection, never refused (the refusable ones after the
statutory period are left on the table). The reference, then this."""

import json
from pathlib import Path

from fdegym_env.tasklib import solutions


def apply(ws: Path, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    path = Path(ws) / "system" / "size_charts.json"
    charts = json.loads(path.read_text(encoding="utf-8"))
    entry = charts["brands"][params["problem_brand"]]
    entry["offset"] = int(params["true_offset"])
    entry["categories"] = {k: v for k, v in entry["categories"].items() if k not in ("dresses", "tailoring", "occasionwear")}
    path.write_text(json.dumps(charts, indent=2) + "\n", encoding="utf-8")
    solutions.replace(ws, "system/rma/authorise.py",
                      '        return {"rma_id": rid, "action": "refuse", "reason": "goodwill terms: unworn with tags (earlier grade C)"}\n',
                      '        return {"rma_id": rid, "action": "inspect", "reason": "occasionwear, earlier grade C - QC before refund"}\n')
