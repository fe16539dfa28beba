"""One trial day for churn_offers: this Monday's scored base goes through a shadow copy of the
delivered campaign (no SMS sent, no discount applied) and the people who watch the campaign say
what they noticed, with counts and a few account numbers - never the answer key."""

from __future__ import annotations

from collections import Counter

from fdegym_env.tasklib import evaluation

from . import grader

SHOWN = 3


def _named(ids: list[str]) -> str:
    return evaluation.named(ids, SHOWN)


def _region(row: dict) -> str:
    """The region as Rhian's dashboard groups it (the CRM's spellings folded together)."""
    return " ".join(row["acc"]["region"].split()).title()


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    rows = out["_rows"]
    det = out["details"]
    offered = [x for x in rows if x["pct"]]
    by_region = Counter(_region(x) for x in offered)
    base_region = Counter(_region(x) for x in rows)
    ranked = sorted(base_region, key=lambda r: -by_region[r] / base_region[r])
    lines = [f"Shadow run (trial day {day}), this Monday's scored base through your build: {det['accounts']} accounts, "
             f"{det['save10']} would get 10%, {det['save20']} would get 20%.",
             f"Rhian's dashboard - offer rate in each of the {len(ranked)} regions: "
             + ", ".join(f"{r} {by_region[r] / base_region[r]:.0%}" for r in ranked) + "."]
    breach = {k: [x["acc"]["account_id"] for x in rows if x["breach"].startswith(k)] for k in ("term", "consent", "disclosure")}
    if breach["term"]:
        lines.append(f"Helen (RA): {len(breach['term'])} offer(s) to accounts still inside their minimum term would "
                     f"land on my exceptions report, e.g. {_named(breach['term'])}.")
    if breach["consent"]:
        lines.append(f"Adaeze: {len(breach['consent'])} offer(s) to accounts without marketing consent, "
                     f"e.g. {_named(breach['consent'])}. That's an ICO complaint waiting to happen.")
    if breach["disclosure"]:
        lines.append(f"Adaeze: {len(breach['disclosure'])} offer text(s) I could not approve as worded, "
                     f"e.g. {_named(breach['disclosure'])}.")
    heavy = [x for x in offered if x["p"] < 0.25]
    if heavy:
        where = Counter(_region(x) for x in heavy)
        lines.append(f"Leanne (save desk): going by last week, {len(heavy)} of these would go to customers who'd ring "
                     f"up puzzled - 'I'm not going anywhere' - e.g. {_named([x['acc']['account_id'] for x in heavy])}; by region: "
                     + ", ".join(f"{r} {n}" for r, n in where.most_common()) + ".")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [], "stats": det, "extra_cost": 0.0}
