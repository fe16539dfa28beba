"""Reference: the storage ranges the June import got wrong put back from the label text (every
ambient line whose wording mentions a refrigerator, not only 'do not refrigerate'), and the drop
check rewritten to Halden's SOP - cumulative minutes above the upper limit against the allowance of
the revision in force, the peak cap where the SOP has one, each logger model's readings in °C.
Written from the facts (params), not from held-out traces."""

import json
from pathlib import Path

from fdegym_env.tasklib import solutions

from .. import coldchain


def write_json(ws: Path, rel: str, data: dict) -> None:
    (Path(ws) / rel).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def vaccines(params: dict) -> dict:
    """The SOP's own allowance for the vaccines, where it has one (vaccine_window)."""
    if not params.get("vaccine_min"):
        return {}
    return {"max_minutes_by_product": {c: params["vaccine_min"] for c in sorted(coldchain.VACCINES)}}


def apply(ws: Path, params: dict) -> None:
    solutions.patch(__name__, ws, "menu/master_ranges.patch")
    solutions.patch(__name__, ws, "menu/cumulative_rule.patch")
    write_json(ws, "system/coldwatch/sop.json", {"sop": f"QA-SOP-014 {params['sop_rev']}",
                                                 "max_cumulative_minutes": params["window_min"],
                                                 "peak_c": params["peak_c"] or None,
                                                 **vaccines(params)})
    write_json(ws, "system/coldwatch/loggers.json", {"tenths_of_a_degree": ["K2"] if params["k2_tenths"] else []})
