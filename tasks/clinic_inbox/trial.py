"""One shadow day: the current system routes a day of portal messages in the test portal, and the
teams say what they noticed - in their words, never the answer key. Trial day n is the portal day
2 March + (n - 1) (traffic.shadow) and takes a day of customer time (people.yaml trial.advance_hours),
so the report names a day that is over by the time it arrives.

Every count is the grader's on that day (grader.evaluate's ``_ids``): each term it scores and each
incident it counts is said by whoever would notice it, with the messages named. A team that got
messages that weren't theirs (or a reply that didn't answer) says what each named one was and whose it
is, and counts them all by kind: "PM-1 (a carer ordering someone's repeats, typed in with nothing
ticked) ... 5 repeat request(s) for Hamza's desk, 2 medical question(s) for the nurse line"."""

from __future__ import annotations

import datetime as dt

from fdegym_env.tasklib import replay

from . import grader as G

SHOWN = 3       # message ids named per line; the rest are counted

TEAMS = [("nurse_line", "nurse line"), ("front_desk", "front desk"), ("doctor", "duty doctor"),
         ("pharmacy_desk", "pharmacy desk")]


# What a misplaced message was and whose it is, as the team that passed it on would say it: a kind's
# name (for the count by kind) and where that kind goes.
KIND_WORDS = {
    "red_flag": ("red flag(s)", "for the duty nurse straight away"),
    "clinical": ("medical question(s)", "for the nurse line"),
    "results": ("results question(s)", "for the duty doctor"),
    "fit_note": ("fit note request(s)", "for the duty doctor"),
    "rx": ("repeat request(s)", "for Hamza's desk"),
    "rx_cd": ("controlled-drug repeat(s)", "for the duty GP"),
    "appointment": ("appointment request(s)", "for the front desk"),
    "faq": ("admin question(s)", "for the front desk or the template that fits"),
    "admin_other": ("admin message(s)", "for the front desk"),
}
FAQ_WORDS = {"opening": "opening times", "address": "a change of address", "repeat_howto": "ordering repeats online",
             "fees": "fees", "registration": "registering"}


def what_it_was(t: dict) -> str:
    """One message, as the person who opened it would describe it: 'a carer ordering repeats, typed in'."""
    kind, host = t["kind"], t.get("host")
    if kind == "rx":
        return {"proxy": "a carer ordering someone's repeats, typed in with nothing ticked",
                "mixed": "a repeat tacked onto an admin question"}.get(host, "a repeat request")
    if kind == "rx_cd":
        return "a carer ordering a controlled drug" if host == "proxy" else "a controlled-drug repeat"
    if kind in ("results", "appointment") and host == "mixed":
        return "an admin question with " + ("a results question" if kind == "results" else "a booking") + " tacked on"
    if kind == "faq":
        return "an admin question about " + FAQ_WORDS.get(t.get("faq"), "admin")
    return {"red_flag": "red-flag symptoms", "clinical": "a medical question", "results": "asking for results",
            "fit_note": "a fit note request", "appointment": "wanting an appointment",
            "admin_other": "an admin message"}[kind]


def _by_kind(ids: list, truth: dict) -> str:
    """'5 repeat request(s) for Hamza's desk, 2 medical question(s) for the nurse line': every message
    counted by what it was and where that kind goes, most first."""
    n: dict = {}
    for i in ids:
        n[truth[i]["kind"]] = n.get(truth[i]["kind"], 0) + 1
    order = sorted(n, key=lambda k: (-n[k], list(KIND_WORDS).index(k)))
    return ", ".join(f"{n[k]} {KIND_WORDS[k][0]} {KIND_WORDS[k][1]}" for k in order)


def _named(ids: list, label=None) -> str:
    """'PM-1, PM-2' or, past SHOWN, 'PM-1, PM-2, PM-3 (3 of 8 shown)'; ``label(id)`` follows each id."""
    shown = ", ".join(i + (f" {label(i)}" if label else "") for i in ids[:SHOWN])
    return shown + (f" ({SHOWN} of {len(ids)} shown)" if len(ids) > SHOWN else "")


def _hm(minutes: float) -> str:
    h, m = divmod(int(round(minutes)), 60)
    return f"{h}h {m:02d}m" if h else f"{m} min"


def _parts(pairs: list) -> str:
    """'3 sat in other queues, 1 got only an automatic reply' from (count, words), dropping zeros."""
    return ", ".join(f"{k} {words}" for k, words in pairs if k)


def run(deploy, params: dict, day: int, traffic) -> dict:
    decide = replay.Decider(deploy, timeout_s=20)
    ev = G.evaluate(decide, params, traffic, tag="SHADOW")
    if ev["_errors"]:
        return {"feedback": "Ian (PCN digital): the shadow connector fell over on your router - nothing got routed "
                            "today. Error: " + ev["_errors"][0][:300], "facts": [], "topics": [], "stats": {},
                "extra_cost": 0.0}
    c, ids, cost = ev["details"]["counts"], ev["_ids"], ev["details"]["cost"]
    got = {k: ids.get(k, []) for k in (
        "lost", "red_flag_missed", "rf_elsewhere", "rf_auto", "rf_late", "rf_not_started", "rf_lost",
        "rx@nurse_line", "rx_cd@nurse_line", "rx@doctor", "clinical@doctor", "misrouted@nurse_line",
        "misrouted@front_desk", "misrouted@doctor", "misrouted@pharmacy_desk", "clinical_delayed", "cd_desk",
        "cd_auto", "auto_rx", "rx_carried", "clinical_advice_auto", "auto_resolved", "auto_unresolved",
        "auto_clinical", "told_closed", "ooh", "ooh_no_safety_net", "ooh_red_flag_unsafe")}
    date = dt.date.fromisoformat(traffic["days"][0]["date"])
    weekday = f"{date:%A}"
    at = {m["msg"]["id"]: G.local(m["msg"]["received_at"]) for m in traffic["days"][0]["messages"]}
    truth = {m["msg"]["id"]: m["truth"] for m in traffic["days"][0]["messages"]}

    def kinds(ids: list) -> str:
        """The messages named, each with what it was: 'PM-1 (a medical question), ...'."""
        return _named(ids, lambda m: f"({what_it_was(truth[m])})")

    def sorted_out(ids: list) -> str:
        """All of them counted by what they were and whose that kind is."""
        return _by_kind(ids, truth)
    lines = [f"Shadow portal, {date:%a %d %b}: {ev['_n']} messages routed."]

    # Ian: what the connector could not use
    if got["lost"]:
        lines.append(f"Ian: {len(got['lost'])} message(s) came back from your router without a decision the "
                     f"connector could use ({_named(got['lost'])}) - in production those sit unrouted until someone "
                     "spots them in the error log.")

    # Nadia: red flags, then what else was on her line
    missed = got["red_flag_missed"]
    if missed:
        how = _parts([(len(got["rf_elsewhere"]), "sat in the wrong queue"),
                      (len(got["rf_auto"]), "only got an automatic reply"),
                      (len(got["rf_late"]), "waited over the hour on my line"),
                      (len(got["rf_not_started"]), "still hadn't been picked up on my line when we closed"),
                      (len(got["rf_lost"]), "never came out of the router at all")])
        lines.append(f"Nadia: {len(missed)} message(s) with red-flag symptoms weren't in front of a nurse within "
                     f"the hour ({_named(missed)}) - {how}.")
    seen = {m: w for m, w in ev["_rf_wait"].items() if m not in got["rf_late"]}
    if seen:
        worst = max(seen, key=lambda m: (seen[m], m))
        lines.append(f"Nadia: {len(seen)} red flag(s) were in front of a nurse within the hour; the longest wait "
                     f"was {seen[worst]} min ({worst}).")
    n_nurse = c.get("q_nurse_line", 0)
    if n_nurse:
        rammed = " The line was absolutely rammed - I couldn't see the wood for the trees." \
            if n_nurse > 0.45 * ev["_n"] else ""
        lines.append(f"Nadia: {n_nurse} message(s) came to the nurse line.{rammed}")
    if got["rx@nurse_line"]:
        lines.append(f"Nadia: {len(got['rx@nurse_line'])} of them were repeat requests "
                     f"({_named(got['rx@nurse_line'])}) - we issued them ourselves, six minutes each.")
    if got["rx_cd@nurse_line"]:
        lines.append(f"Nadia: {len(got['rx_cd@nurse_line'])} controlled-drug repeat(s) came to us "
                     f"({_named(got['rx_cd@nurse_line'])}) - we can't issue those, so each went on to the duty doctor.")
    if got["misrouted@nurse_line"]:
        lines.append(f"Nadia: {len(got['misrouted@nurse_line'])} message(s) on my line weren't for a nurse "
                     f"({kinds(got['misrouted@nurse_line'])}) - passed on, after they'd sat in the queue: "
                     f"{sorted_out(got['misrouted@nurse_line'])}.")

    # Hamza: the desk's day
    n_desk = c.get("q_pharmacy_desk", 0)
    carried = got["rx_carried"]
    if carried:
        late_days = c.get("rx_late_days", 0)
        longer = (f"; with the backlog that's {late_days} patient-days of waiting between them"
                  if late_days > len(carried) else "")
        lines.append(f"Hamza: the desk had {n_desk} requests on {weekday}, {len(carried)} past what Becca and I can "
                     f"do in a day - carried over to the next working day ({_named(carried)}){longer}. That's "
                     "patients running out.")
    elif n_desk:
        lines.append(f"Hamza: the desk had {n_desk} requests on {weekday} and we cleared them all the same day.")
    desk_wrong = [m for m in got["misrouted@pharmacy_desk"] if m not in got["cd_desk"]]
    if desk_wrong:
        lines.append(f"Hamza: {len(desk_wrong)} message(s) at the desk weren't repeat requests at all "
                     f"({kinds(desk_wrong)}) - passed on: {sorted_out(desk_wrong)}.")
    if got["cd_desk"]:
        lines.append(f"Hamza: {len(got['cd_desk'])} controlled-drug repeat(s) came to the desk "
                     f"({_named(got['cd_desk'])}) - we can't issue those under protocol. Had to bounce them to the "
                     "duty doctor.")
    if got["cd_auto"]:
        lines.append(f"Hamza: {len(got['cd_auto'])} controlled-drug request(s) only got an automatic reply and never "
                     f"reached a GP ({_named(got['cd_auto'])}) - they rang the desk when nothing came through, and we "
                     "can't touch them.")
    if got["auto_rx"]:
        lines.append(f"Hamza: {len(got['auto_rx'])} repeat request(s) got an automatic reply instead of reaching us "
                     f"({_named(got['auto_rx'])}) - the patients think they're ordered. They find out at the "
                     "chemist, two days on.")

    # Dr Okafor: automated advice and the duty doctor list
    if got["clinical_advice_auto"]:
        lines.append(f"Dr Okafor: {len(got['clinical_advice_auto'])} automated repl(ies) went out with clinical "
                     f"advice in them ({_named(got['clinical_advice_auto'])}). Who signed that off? This stops now.")
    if got["misrouted@doctor"]:
        lines.append(f"Dr Okafor: {len(got['misrouted@doctor'])} message(s) on the duty doctor list weren't for a "
                     f"doctor ({kinds(got['misrouted@doctor'])}) - passed on, and my list is long enough: "
                     f"{sorted_out(got['misrouted@doctor'])}.")
    if got["rx@doctor"]:
        lines.append(f"Dr Okafor: {len(got['rx@doctor'])} routine repeat(s) came to the duty doctor "
                     f"({_named(got['rx@doctor'])}) - signed, but that's what Hamza's desk is there for.")
    if got["clinical@doctor"]:
        lines.append(f"Dr Okafor: {len(got['clinical@doctor'])} routine clinical question(s) came to the duty doctor "
                     f"({_named(got['clinical@doctor'])}) - answered, but the nurse line deals with those.")

    # Lorna: the front desk and what patients rang about
    if got["misrouted@front_desk"]:
        lines.append(f"Lorna: {len(got['misrouted@front_desk'])} message(s) in the admin queue weren't admin "
                     f"({kinds(got['misrouted@front_desk'])}) - we passed them on when we got to them: "
                     f"{sorted_out(got['misrouted@front_desk'])}.")
    if got["clinical_delayed"]:
        lines.append(f"Lorna: {len(got['clinical_delayed'])} clinical question(s), result(s) or fit note(s) sat with "
                     f"us or the desk before a clinician saw them ({kinds(got['clinical_delayed'])}): "
                     f"{sorted_out(got['clinical_delayed'])}.")
    n_auto = len(got["auto_resolved"]) + len(got["auto_unresolved"])
    if got["auto_unresolved"]:
        lines.append(f"Lorna: {n_auto} automatic repl(ies) went out; {len(got['auto_resolved'])} answered what was "
                     f"asked, {len(got['auto_unresolved'])} didn't and the patient rang us "
                     f"({kinds(got['auto_unresolved'])}): {sorted_out(got['auto_unresolved'])}.")
    elif n_auto:
        lines.append(f"Lorna: {n_auto} automatic repl(ies) went out and every one answered what was asked - "
                     "nobody rang about them.")
    if got["auto_clinical"]:
        lines.append(f"Lorna: {len(got['auto_clinical'])} of those callers needed a clinician, not a template "
                     f"({_named(got['auto_clinical'])}) - we put them through to the nurses or the desk.")
    if got["told_closed"]:
        lines.append(f"Lorna: {len(got['told_closed'])} patient(s) said the portal told them we were closed while "
                     f"we were open ({_named(got['told_closed'], lambda m: f'at {at[m]:%H:%M}')}) - one went to 111.")

    # Kerry's out-of-hours log
    if got["ooh"]:
        bad = got["ooh_no_safety_net"]
        if bad:
            ok = len(got["ooh"]) - len(bad)
            lines.append(f"Kerry's out-of-hours log: {len(got['ooh'])} message(s) came in while we were closed; "
                         + (f"{ok} got the current approved safety-netting wording, {len(bad)} didn't" if ok else
                            f"none of the {len(bad)} got the current approved safety-netting wording")
                         + f" ({_named(bad)}).")
        else:
            lines.append(f"Kerry's out-of-hours log: {len(got['ooh'])} message(s) came in while we were closed; "
                         "every one got the current approved safety-netting wording.")
    if got["ooh_red_flag_unsafe"]:
        lines.append(f"Kerry's out-of-hours log: {len(got['ooh_red_flag_unsafe'])} of those without it reported "
                     f"red-flag symptoms ({_named(got['ooh_red_flag_unsafe'])}) - that goes to governance.")

    # Dawn: staff time, team by team
    spent = [(label, cost.get("minutes_" + q, 0)) for q, label in TEAMS]
    if any(m for _, m in spent):
        lines.append(f"Dawn: staff time on portal messages on {weekday}, from the team sheets: "
                     + ", ".join(f"{label} {_hm(m)}" for label, m in spent if m)
                     + f" - {_hm(sum(m for _, m in spent))} in all.")
    if len(lines) == 1:
        lines.append("Nobody raised anything today.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [],
            "stats": {k: v for k, v in c.items() if not k.startswith("incident_")},
            "extra_cost": 0.0}
