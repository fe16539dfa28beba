"""One trial day for irrops_rebook: the delivered tool runs in shadow on a real disruption day (its
decisions are logged, the desk works the day as normal) and the people who watch it say what they
would have seen. Never the answer key."""

from __future__ import annotations

from fdegym_env.tasklib import evaluation

from . import grader

SHOWN = 3
# who the desk sees, by what the agents have to do for them (first that applies); YPTA is a class of
# its own only where the UM procedure in force hands YPTA passengers to the desk (``ypta_as_umnr``, as
# the grader has it): elsewhere it is an information code (Marek, the UM procedure), and a YPTA
# passenger at the desk is counted by whatever else brought them there
DESK_CLASSES = (
    ("offloaded", "offloaded at the gate (no seat left)"),
    ("prm_missed", "assisted passenger(s) whose connection was too short for OCS"),
    ("rejected", "whose rebooking Amadeus rejected"),
    ("umnr", "UMNR booking(s)"), ("ypta", "YPTA passenger(s) travelling alone"),
    ("split", "from booking(s) the tool split across flights - the party won't travel apart"),
    ("hotel", "owed a hotel for the night"),
    ("connecting", "other connecting passenger(s)"), ("local", "other passenger(s) with no connection"))


def _ids(ids: list[str]) -> str:
    """'P1, P2' or, past SHOWN, 'P1, P2, P3; 3 of 7 shown'."""
    return ", ".join(ids[:SHOWN]) + (f"; {SHOWN} of {len(ids)} shown" if len(ids) > SHOWN else "")


def _desk_class(x: dict, params: dict) -> str:
    ssr = " ".join(x["ssr"])
    if x["why"] in ("offloaded", "prm_missed", "rejected"):
        return x["why"]
    if "UMNR" in ssr:
        return "umnr"
    if "YPTA" in ssr and params.get("ypta_as_umnr"):
        return "ypta"
    if x["split"]:
        return "split"
    return "hotel" if x["hotel"] else "connecting" if x["connecting"] else "local"


def _quote(reason: str) -> str:
    """The tool's referral reason as the agent's screen shows it, shortened, in words only (no ';' or ':'
    that would read as another count in Marek's line)."""
    text = " ".join(reason.replace(";", ",").replace(":", " -").replace('"', "'").split())
    return text if len(text) <= 60 else text[:57].rstrip() + "..."


def _what_the_desk_did(xs: list[dict], connecting: bool) -> str:
    """For the passengers the tool referred for no reason the desk has a class for (the 'other' classes):
    what the agents found for them and the reason the tool gave on the agent's screen."""
    same = sum(1 for x in xs if x["found"] and not x["night"])
    later = sum(1 for x in xs if x["found"] and x["night"])
    none = sum(1 for x in xs if not x["found"])
    found = []
    if same:
        found.append(f"{same} rebooked by an agent the same day (an itinerary with seats for the whole booking"
                     + (" that makes the connection" if connecting else "") + " - the tool could have sent that SMS itself)")
    if later:
        found.append(f"{later} with nothing before the next day (no hotel owed from us off that departure)")
    if none:
        found.append(f"{none} with nothing in the plan's three days that has seats"
                     + (" and makes the connection" if connecting else ""))
    reasons: dict[str, int] = {}
    for x in xs:
        key = _quote(x["reason"]) if x.get("reason") else ""
        reasons[key] = reasons.get(key, 0) + 1
    ranked = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    said = [f"'{why}' on {n}" if why else f"no reason on {n}" for why, n in ranked[:2]]  # of len(ranked), the rest summed
    more = sum(n for _, n in ranked[2:]) if len(ranked) > 2 else 0
    return (" - " + ", ".join(found) + ", the tool's reason " + " and ".join(said)
            + (f" and other reasons on {more}" if more else ""))


def _desk_line(rows: list[dict], d: dict, params: dict) -> str:
    """Marek's count of the desk's day by what each passenger needed from an agent, with the first IDs;
    for the 'other' classes, what his agents found for them and the tool's referral reason."""
    by: dict[str, list[str]] = {}
    of: dict[str, list[dict]] = {}
    for x in rows:
        if x["desk"]:
            c = _desk_class(x, params)
            by.setdefault(c, []).append(x["pax_id"])
            of.setdefault(c, []).append(x)
    if not by:
        return "Marek (recovery desk): nobody came to the desk from those flights."
    parts = [f"{len(by[c])} {what} ({_ids(sorted(by[c]))})" + (_what_the_desk_did(of[c], c == "connecting") if c in ("connecting", "local") else "")
             for c, what in DESK_CLASSES if c in by]
    return f"Marek (recovery desk): the desk got {d['desk']}: " + "; ".join(parts) + "."


def _arrivals_line(rows: list[dict]) -> str:
    """When the day's passengers got where they were going, the tool's and the desk's apart."""
    def avg(xs):
        return f"{sum(x['delay'] for x in xs) / len(xs) / 60:.1f} h" if xs else "-"
    auto, desk = [x for x in rows if not x["desk"]], [x for x in rows if x["desk"]]
    late = sorted(x["pax_id"] for x in rows if x["delay"] >= 120)
    coterm = sum(x["coterm"] for x in auto)
    return (f"Arrivals: the tool's {len(auto)} {avg(auto)} late on average"
            + (f" ({coterm} via the other airport of the city)" if coterm else "")
            + f", the desk's {len(desk)} {avg(desk)}; {len(late)} passengers arrived 2 hours or more late"
            + (f" ({_ids(late)})" if late else "") + ".")


def _minors_line(traffic: dict, incs: list[str]) -> str:
    """Marek's report of the children travelling alone the tool moved itself, as the desk would name
    them: how many, and the first bookings by PNR, name and SSR (the grader's incident lines carry
    ``<pax_id> (<ssr>)``)."""
    pax = {p["pax_id"]: p for plan in traffic["plans"] for p in plan["passengers"]}
    named = []
    for i in incs:
        pid, ssr = i.split(": ", 1)[1].split(" (", 1)
        p = pax.get(pid)
        named.append(f"{p['pnr']} {p['name']} ({ssr.split(')', 1)[0]}, off {p['segments'][0]['flight']} "
                     f"{p['segments'][0]['from']})" if p else f"{pid} ({ssr.split(')', 1)[0]})")
    n = len(named)
    who = "a minor travelling alone" if n == 1 else f"{n} minors travelling alone"
    eg = (": " if n == 1 else ", e.g. ") + "; ".join(named[:3])
    return (f"Marek (recovery desk): the tool moved {who} onto a new flight by itself{eg} - no escort booked, "
            "nobody from the desk rang the parent or the collecting adult. That cannot happen in production.")


def run(deploy, params: dict, day: int, traffic: dict) -> dict:
    out = evaluation.evaluate_on(deploy, grader.evaluate, params, traffic)
    d, inc = out["details"], out["incidents"]
    plan = traffic["plans"][0]
    flights = ", ".join(c["flight"] + " " + c["from"] for c in plan["cancelled"])
    # a shadow day takes a customer day (people.yaml trial.advance_hours): the report covers the day just
    # run and names no calendar date, which trial.run cannot check against the customer's clock
    lines = [f"Shadow run, the last 24 hours: {flights} cancelled, {d['pax']} passengers. "
             f"The tool would have rebooked {d['auto']} and sent {d['desk']} to the desk."]
    facts, topics = [], []
    kinds = {i.split(":", 1)[0] for i in inc}
    if "misconnect" in kinds:
        lines.append(f"Niamh (DUB station): {d['misconnects']} of those rebookings would have had people running for "
                     "connections they could never make - the transfer desk in T2 would have been rebooking them "
                     "again. Whoever set the connection times hasn't stood at the transfer desk.")
        topics.append("mct")
    if "umnr_auto_rebooked" in kinds:
        lines.append(_minors_line(traffic, [i for i in inc if i.startswith("umnr_auto_rebooked")]))
        facts.append("F_umnr")
    if "stranded_overnight" in kinds:
        lines.append(f"Aoife (Customer Relations): {d['stranded']} passengers would have been put on tomorrow's flight "
                     "with an SMS and no hotel. Under EU261 that's a care failure and a complaint to the regulator.")
        facts.append("F_care")
    if "malformed_output" in kinds:
        # every class with its count and passengers, as graded: those passengers went to the desk after all
        lines.append("Conor (OCC systems): Amadeus rejected part of the tool's output, so those passengers landed "
                     "in the desk queue after all - " + "; and ".join(
                         i.split(": ", 1)[1] for i in inc if i.startswith("malformed_output")) + ".")
    lines.append(_desk_line(out["_pax"], d, params))
    lines.append(_arrivals_line(out["_pax"]))
    if not kinds - {"malformed_output"}:
        if d["offloaded"]:
            lines.append(f"Niamh: {d['offloaded']} rebooked passengers were offloaded at the gate - the flights they "
                         "were put on were full once everyone showed up.")
        if d["prm_missed"]:
            lines.append(f"Niamh: {d['prm_missed']} wheelchair or assisted passengers missed connections the tool gave "
                         "them - OCS couldn't get them from stand to gate in that time.")
        if d["desk"] > 0.5 * max(1, d["pax"]):
            lines.append("Marek: the desk queue would still have been most of the flight. No change for my lads.")
        elif not (d["split"] or d["offloaded"] or d["prm_missed"]):
            lines.append(f"Deirdre: that's the kind of day I want to see - {d['desk']} of {d['pax']} at the desk, "
                         "nobody misconnected, no child moved without the desk, no complaints in the inbox.")
    return {"feedback": "\n".join(lines), "facts": facts, "topics": topics,
            "stats": {k: d[k] for k in ("pax", "auto", "desk", "misconnects", "umnr_auto", "stranded", "split")},
            "extra_cost": 0.0}
