"""One trial day for cold_chain: a day's drops mirrored to a shadow copy of the delivered drop check
(the vans run on the live one). Anjali's QA team and Halden's QP go through what the shadow copy would
have quarantined, and customer services count the runs it would have cost - counts and load ids,
never the rule."""

from __future__ import annotations

from collections import Counter

from fdegym_env.tasklib import evaluation

from . import grader

SHOWN = 4


def _named(ids: list[str]) -> str:
    return evaluation.named(ids, SHOWN)


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = grader.run(deploy, params, traffic)
    rows = out["_rows"]
    q = [r for r in rows if r["action"] == "quarantine"]
    cleared = [r for r in q if not r["exc"]]
    kept = [r for r in q if r["exc"]]
    missed = [r for r in rows if r["exc"] and r["action"] == "release"]
    by_product = Counter(r["load"]["product_code"] for r in cleared)
    lines = [f"Shadow day {day}: {len(rows)} product lines checked across the day's drops; your build would have "
             f"quarantined {len(q)}."]
    if q:
        lines.append(f"Anjali (QA): Halden's QP went through the {len(q)} traces - {len(kept)} upheld as excursions, "
                     f"{len(cleared)} would have been released back to stock."
                     + (f" Released ones, e.g. {_named([r['load']['load_id'] for r in cleared])}." if cleared else ""))
        if by_product:
            lines.append("  By product, released: " + ", ".join(f"{c} x{n}" for c, n in by_product.most_common()) + ".")
    if missed:
        lines.append(f"Anjali (QA): {len(missed)} line(s) the QP would have called an excursion went out to the "
                     f"pharmacy on your build: {_named([r['load']['load_id'] for r in missed])}. That is a recall.")
    lines.append(f"Sophie (customer services): that's {len(q)} replacement run(s) to book.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [], "stats": out["details"], "extra_cost": 0.0}
