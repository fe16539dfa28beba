"""One trial day for returns_desk: a week of orders is mirrored to a shadow copy of the delivered
catalogue sizing and returns service (nothing listed, no emails sent) and the people who watch
the returns say what they noticed - never the answer key."""

from __future__ import annotations

from . import grader, shop


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = grader.run(deploy, params, traffic)
    rows = out["_rows"]
    det = out["details"]
    # the trial is one customer day: a week's orders (and the returns they bring) are replayed through
    # the shadow copy that day, so the report names no calendar week of its own
    lines = [f"Shadow run (trial day {day}), a week's orders replayed through your build: {det['returns']} return "
             f"requests, {det.get('inspect', 0)} to inspection, {det.get('refuse', 0)} refused."]
    if any(i.startswith(("malformed", "entry_point")) for i in out["incidents"]):
        lines.append("Ollie (platform): the shadow job got errors back - part of the range would have dropped off the "
                     "site or RMAs sat without a decision.")
    refused = [x for x in rows if x["action"] == "refuse"]
    if any(i.startswith(("statutory", "plus_terms")) for i in out["incidents"]):
        lines.append(f"Kayleigh: a few of the refusal emails in the preview queue would have gone to people we can't "
                     f"refuse - I'd have Priya on the phone. {len(refused)} refusals in total.")
    angry = [x for x in refused if not x["worn"] and x["req"]["reason"] != "faulty"
             and shop.days(x["req"]) <= 28]
    if len(angry) >= 3:
        lines.append(f"Kayleigh: {len(angry)} refused customers would have come straight to us; most of them are regulars.")
    small = [x for x in rows if x["req"]["reason"] == "too_small"]
    big = [x for x in rows if x["req"]["reason"] == "too_big"]
    top = {}
    for x in small + big:
        key = (x["req"]["brand"], x["req"]["category"], x["req"]["reason"])
        top[key] = top.get(key, 0) + 1
    ranked = sorted(top.items(), key=lambda kv: -kv[1])
    worst = ranked[:2]
    if worst and worst[0][1] >= 5:
        lines.append(f"Shaun: {sum(top.values())} fit returns on the bench this week across {len(ranked)} "
                     "brand/category lines; the most - " + "; ".join(
            f"{b} {c} '{r.replace('_', ' ')}' x{n}" for (b, c, r), n in worst) + ".")
    worn_ok = [x for x in rows if x["worn"] and x["action"] == "approve" and x["req"]["qc_c_12m"]]
    if worn_ok:
        lines.append(f"Shaun: {len(worn_ok)} grade C party piece(s) came in already refunded, from customers who'd "
                     "had a C before - nothing I could do once the money's gone.")
    lost = det["lost_sales"]
    if lost > 20:
        lines.append(f"Tomasz: {lost} shoppers left without buying - no size listed that fitted them.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [],
            "stats": {k: v for k, v in det.items()}, "extra_cost": 0.0}
