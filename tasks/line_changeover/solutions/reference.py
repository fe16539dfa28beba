"""Reference: put the new filler's real changeover and CIP times into the scheduler's data (matrix rows
for its line, its wash-down minutes and waste), plan wash-downs for exactly the allergens QA's
validated cleans do not cover, and give a line on overtime its real hours. Written from the facts
(params): the engineering manager's and team leader's times, QA's list, the planner's line status."""

import csv
import io
import json
from pathlib import Path

SCHED = ("system", "scheduler")


def set_matrix(ws: Path, line: str, same_min, swap_min, purge) -> None:
    """The line's rows: ``same_min`` within a family, ``swap_min`` between chunky and smooth (None keeps
    the row's minutes)."""
    path = Path(ws).joinpath(*SCHED, "changeover_matrix.csv")
    head = [ln for ln in path.read_text().splitlines(keepends=True) if ln.startswith("#")]
    rows = list(csv.DictReader(ln for ln in path.read_text().splitlines() if not ln.startswith("#")))
    for r in rows:
        if r["line"] == line:
            m = same_min if r["from_family"] == r["to_family"] else swap_min
            r["minutes"] = r["minutes"] if m is None else str(m)
            r["purge_cases"] = str(purge)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=["line", "from_family", "to_family", "minutes", "purge_cases"], lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    path.write_text("".join(head) + f"# {line}: new servo piston filler (Oct 2026), timed on the floor; chunky<->smooth = nozzle kit swap.\n"
                    + buf.getvalue())


def set_config(ws: Path, params: dict, washlist=None, wash=True) -> None:
    path = Path(ws).joinpath(*SCHED, "config.json")
    cfg = json.loads(path.read_text())
    if wash:
        cfg["lines"][params["new_line"]].update(washdown_minutes=int(params["new_wash_min"]),
                                                washdown_waste_cases=int(params["new_wash_waste"]))
    cfg["washdown_allergens"] = sorted(washlist if washlist is not None else params["washdown_allergens"])
    if params["overtime_line"]:
        cfg["lines"][params["overtime_line"]]["hours"] = int(params["overtime_hours"])
    cfg["_note"] = "washdown_allergens: QA's current wash-down list (validated cleans cover the rest)."
    path.write_text(json.dumps(cfg, indent=2) + "\n")


def apply(ws: Path, params: dict) -> None:
    set_matrix(ws, params["new_line"], params["new_flavour_min"], params["new_swap_min"], params["new_purge"])
    set_config(ws, params)
