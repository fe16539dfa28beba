"""The drop check. The driver's handheld calls assess_loads() as the van pulls up at a drop, with the
product lines for that drop and the compartment logger's readings since loading. A line flagged
'quarantine' stays on the van, comes back to Brighouse and waits for Halden's QP.

Per QA-SOP-014: any reading outside the product's storage range is an excursion (see docs/)."""
import json
from pathlib import Path

from .master import load_ranges

RULES = json.loads((Path(__file__).parent / "rules.json").read_text(encoding="utf-8"))


def _outside(t, lo, hi):
    return (hi is not None and t > hi) or (lo is not None and t < lo)


def assess_loads(loads):
    ranges = load_ranges()
    out = []
    for load in loads:
        code = str(load.get("product_code", "")).strip().upper()
        if code not in ranges:
            out.append({"load_id": load["load_id"], "action": RULES["unknown_product"], "reason": "not in product master"})
            continue
        lo, hi = ranges[code]
        bad = [t for t in load.get("temps", []) if _outside(t, lo, hi)]
        if bad:
            worst = max(bad) if hi is not None and max(bad) > hi else min(bad)
            out.append({"load_id": load["load_id"], "action": "quarantine",
                        "reason": f"{len(bad)} reading(s) outside {lo}-{hi} C, worst {worst}"})
        else:
            out.append({"load_id": load["load_id"], "action": "release", "reason": ""})
    return out
