"""One trial day for claims_fasttrack: a day of FNOLs is mirrored to a shadow intake and the people
who watch the queues say what they saw (never the answer key): what the day's files cost in the
terms Claims Ops scores the pilot by (rental days, SIU referrals, field appraisals, money paid that
was not owed), and a line from each person those files land on."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader, sim

ROUTES = (("fast_track", "fast track"), ("desk", "desk"), ("photo_link", "photo link"),
          ("pend_photos", "photo pend"), ("siu", "SIU"))


def _ids(claims: list[dict]) -> str:
    """The claim numbers, three at most, then how many more."""
    ids = [p["claim_id"] for p in claims]
    return ", ".join(ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")


def _usd(x: float) -> str:
    return f"{x:,.0f} USD"


def _scorecard(parts: dict, per: list[dict]) -> str:
    """The day's files in the metric's own terms, each part with its count."""
    rent_days = round(parts.get("rental", 0.0) / sim.RENTAL_PER_DAY)
    renting = sum(bool(p.get("rental")) for p in per)
    referrals = sum(p["queue"] == "siu" for p in per)
    appraisals = sum(bool(p.get("appraisal")) for p in per)
    total = sum(parts.get(k, 0.0) for k in ("leakage", "rental", "siu", "appraisal"))
    return (f"Claims Ops pilot scorecard (claims_cost_fortnight terms, this day's files until each is paid): "
            f"rental {_usd(parts.get('rental', 0.0))} ({rent_days} rental-days at {sim.RENTAL_PER_DAY:.0f} USD; "
            f"{renting} of {len(per)} claimants are in a rental car), "
            f"SIU referrals {_usd(parts.get('siu', 0.0))} ({referrals} x {sim.SIU_COST:.0f}), "
            f"field appraisals {_usd(parts.get('appraisal', 0.0))} ({appraisals} x {sim.APPRAISAL_COST:.0f}), "
            f"paid but not owed {_usd(parts.get('leakage', 0.0))} - {_usd(total)} in all.")


def _avg(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _gloria(per: list[dict], ft: list[dict]) -> str:
    """Cycle time, the sponsor's number: the day's average days to payment, by route."""
    by = [f"{label} {_avg([p['cycle'] for p in per if p['queue'] == q]):.0f}"
          for q, label in ROUTES if any(p["queue"] == q for p in per)]
    days = f"today's files would take {_avg([p['cycle'] for p in per]):.1f} days on average from first notice to payment"
    if ft:
        return (f"Gloria: {len(ft)} claim(s) would have been paid within two days - that's what I want to see. "
                f"All in, {days} ({', '.join(by)}); the plan says 7.")
    return f"Gloria: nothing paid straight through - {days} ({', '.join(by)}), and the plan says 7. Every one of those days is rental money."


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    # a trial day takes a customer day (people.yaml trial.advance_hours): the report covers the 24 hours just
    # mirrored and names no calendar day, which trial.run cannot check against the customer's clock
    when = "the last 24 hours"
    per = out["_per"]
    if out["_lost"]:
        return {"feedback": f"Jorge (shadow intake, {when}): the shadow intake fell over - " + "; ".join(out["incidents"][:2]),
                "facts": [], "topics": [], "stats": out["details"], "extra_cost": 0.0}
    details = out["details"]
    q = details["by_queue"]
    lines = [f"Shadow intake, {when}: {len(per)} FNOLs - " + ", ".join(f"{k} {v}" for k, v in q.items() if v) + "."]
    if per and "leakage" in details:
        lines.append(_scorecard(details, per))
    ft = [p for p in per if p["queue"] == "fast_track"]
    if per and all("cycle" in p for p in per):
        lines.append(_gloria(per, ft))
    elif ft:
        lines.append(f"Gloria: {len(ft)} claim(s) would have been paid within two days - that's what I want to see.")
    odd = [p for p in ft if p["kind"] == "ring"]
    # what gives the ring away, and who holds its current pattern, follow the variant
    seen = "the VINs look familiar" if params.get("ring_key") == "vin" else "the pictures look familiar"
    ask = ("Ask me what we'd want sent over - I've had the Delta file since January."
           if params.get("siu_holder") == "marcus_lindqvist" else "Worth asking Renata what she'd send us.")
    if odd:
        lines.append(f"Marcus: going through the fast-track list I'd have stopped {len(odd)} of those - {seen}. {ask}")
    slipped = [p for p in per if p["kind"] == "ring" and p["queue"] != "fast_track" and p.get("leak", 0) > 0]
    # the ring's first claim on a car it has not used before matches nothing yet: said so, not sent to ask
    fresh = [p for p in slipped if "fresh_vin" in p.get("tags", ())]
    copies = [p for p in slipped if p not in fresh]
    if copies:
        lines.append(f"Marcus: {len(copies)} {'more ' if odd else ''}on the desk's list {'looks' if len(copies) == 1 else 'look'} like ours "
                     f"({_usd(sum(p['leak'] for p in copies))} of estimates: {_ids(copies)}); the desk only spots the odd one "
                     "by memory, so most of those get paid." + ("" if odd else f" {ask}"))
    if fresh:
        lines.append(f"Marcus: {len(fresh)} {'is' if len(fresh) == 1 else 'are'} the ring's first claim{'' if len(fresh) == 1 else 's'} on a "
                     f"car they hadn't used before ({_ids(fresh)}) - nothing on file to match yet; we only catch those once "
                     "they start copying them, so I wouldn't chase them at intake.")
    desk = [p for p in per if p["queue"] in ("desk", "photo_link", "pend_photos")]
    if desk:
        bare = sum(bool(p.get("appraisal")) for p in per)
        lines.append(f"Tom: {len(desk)} of these land on the desk behind the files already waiting - about "
                     f"{_avg([p.get('cycle', 0) for p in desk]):.0f} days each to payment"
                     + (f"; {bare} still have no pictures when we pick them up, so that's a field appraiser each, "
                        f"{sim.APPRAISAL_COST:.0f} dollars and five more days." if bare else "."))
    trimmed = sum(p.get("leak", 0) for p in ft if p["kind"] == "legit")
    if trimmed >= 1:
        lines.append(f"Tom: fast track paid the estimates as filed; my adjusters would have trimmed about {_usd(trimmed)} off those.")
    twice = [p for p in ft if p["kind"] == "double"]
    if twice:
        lines.append(f"Tom: {len(twice)} fast-track payment(s) went to a customer we'd already paid for the same loss.")
    siu = [p for p in per if p["queue"] == "siu"]
    honest = [p for p in siu if p["kind"] != "ring"]
    if honest:
        lines.append(f"Renata: {len(siu)} referral(s) in one day - {_usd(sim.SIU_COST * len(siu))} of investigator time; "
                     f"{len(honest)} of them honest customers - we can't take that, and they'll wait four weeks with a rental running.")
    elif siu:
        lines.append(f"Renata: {len(siu)} referral(s) in one day, {_usd(sim.SIU_COST * len(siu))} of investigator time, "
                     "and none of them wasted on an honest customer.")
    late = [i for i in out["incidents"] if i.startswith("ack_deadline_missed")]
    pend = q.get("pend_photos", 0)
    if pend:
        lines.append(f"Hector: {pend} file(s) went to the photo pend again - no letter until the Friday sweep.")
    if late:
        lines.append(f"Aileen: {len(late)} acknowledgement(s) would have gone out after the statutory limit.")
    other = [i for i in out["incidents"] if i.startswith(("ring_claim_paid", "authority_exceeded"))]
    if other:
        lines.append("Aileen: " + other[0].split(":")[0].replace("_", " ") + f" on {len(other)} claim(s) - that cannot go live.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [],
            "stats": {"fnols": len(per), "fast_track": len(ft), "siu": len(siu), "pend_photos": pend},
            "extra_cost": 0.0}
