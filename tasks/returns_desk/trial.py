"""One trial day for returns_desk: a week of orders is mirrored to a shadow copy of the delivered
catalogue sizing and returns service (nothing listed, no emails sent) and the people who watch
the returns say what they noticed, naming the RMAs they talk about - never the answer key."""

from __future__ import annotations

from . import grader, shop

SHOWN = 5           # RMAs named per line; the rest are counted
REASONS = 4         # inspection reasons listed one by one; any further ones share a line
WHY_CHARS = 80      # a longer reason is cut at a word boundary, with '...'


def _named(ids: list[str], say=None) -> str:
    """'RMA-1, RMA-2' or, past SHOWN, 'RMA-1, ... (5 of 11 shown)'; ``say(id)`` adds a note to each."""
    ids = sorted(ids)
    return (", ".join(f"{i} ({say(i)})" if say else i for i in ids[:SHOWN])
            + (f" ({SHOWN} of {len(ids)} shown)" if len(ids) > SHOWN else ""))


def _clip(text: str, n: int = WHY_CHARS) -> str:
    """``text`` on one line, or its words up to ``n`` characters and '...' (never half a word)."""
    s = " ".join(text.split())
    if len(s) <= n:
        return s
    cut = s[:n - 3]
    if not s[n - 3].isspace() and " " in cut:      # the cut falls inside a word: drop that word
        cut = cut[:cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "..."


def _refusal(x: dict) -> str:
    """What a refusal looked like from the request: its reason, the UK days since delivery, the tier,
    and the reason the delivered service gave for refusing it."""
    r = x["req"]
    why = _clip(x.get("why") or "") or "no reason given"
    return f"{r['reason']}, day {shop.days(r)}" + (", Plus" if r["tier"] == "plus" else "") + f"; your service: '{why}'"


def _inspections(rows: list[dict]) -> list[str]:
    """One line per reason the service gave for 'inspect' (most used first), RMAs named."""
    by: dict[str, list[str]] = {}
    for x in rows:
        if x["action"] == "inspect":
            by.setdefault(_clip(x["why"]) or "no reason given", []).append(x["req"]["rma_id"])
    ranked = sorted(by.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    if len(ranked) > REASONS:
        rest = [i for _, ids in ranked[REASONS - 1:] for i in ids]
        ranked = ranked[:REASONS - 1] + [(f"{len(ranked) - REASONS + 1} other reasons", rest)]
    return [f"  inspect, '{why}': {len(ids)} - {_named(ids)}" for why, ids in ranked]


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = grader.run(deploy, params, traffic)
    rows = out["_rows"]
    det = out["details"]
    # the trial is one customer day: a week's orders (and the returns they bring) are replayed through
    # the shadow copy that day, so the report names no calendar week of its own
    lines = [f"Shadow run (trial day {day}), a week's orders replayed through your build: {det['returns']} return "
             f"requests, {det.get('inspect', 0)} to inspection, {det.get('refuse', 0)} refused."]
    refused = [x for x in rows if x["action"] == "refuse"]
    by_id = {x["req"]["rma_id"]: x for x in rows}
    if refused:
        lines.append(f"Refused ({len(refused)}) - the request's reason, the day it came in (counting the UK "
                     "delivery day as day 0) and the reason your service gave: "
                     + _named([x["req"]["rma_id"] for x in refused], lambda i: _refusal(by_id[i])) + ".")
    if det.get("inspect"):
        lines.append(f"Sent to inspection ({det['inspect']}), by the reason your service gave:")
        lines += _inspections(rows)
    if any(i.startswith(("malformed", "entry_point")) for i in out["incidents"]):
        lines.append("Ollie (platform): the shadow job got errors back - part of the range would have dropped off the "
                     "site or RMAs sat without a decision.")
    unlawful = [x["req"]["rma_id"] for x in refused if x["unlawful"]]
    if unlawful:
        lines.append(f"Kayleigh: {len(unlawful)} of the {len(refused)} refusal emails in the preview queue would have "
                     f"gone to people we can't refuse - I'd have Priya on the phone: {_named(unlawful)}.")
    angry = [x["req"]["rma_id"] for x in refused if not x["worn"] and x["req"]["reason"] != "faulty"
             and shop.days(x["req"]) <= 28]
    if len(angry) >= 3:
        lines.append(f"Kayleigh: {len(angry)} refused customers would have come straight to us; most of them are "
                     f"regulars: {_named(angry)}.")
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
    worn_ok = [x["req"]["rma_id"] for x in rows if x["worn"] and x["action"] == "approve" and x["req"]["qc_c_12m"]]
    if worn_ok:
        lines.append(f"Shaun: {len(worn_ok)} grade C party piece(s) came in already refunded, from customers who'd "
                     f"had a C before - nothing I could do once the money's gone: {_named(worn_ok)}.")
    lost = det["lost_sales"]
    if lost > 20:
        lines.append(f"Tomasz: {lost} shoppers left without buying - no size listed that fitted them.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [],
            "stats": {k: v for k, v in det.items()}, "extra_cost": 0.0}
