"""One shadow day: the current system routes a day of portal messages in the test portal, and the
teams say what they noticed - in their words, never the answer key. Trial day n is the portal day
2 March + (n - 1) (traffic.shadow) and takes a day of customer time (people.yaml trial.advance_hours),
so the report names a day that is over by the time it arrives."""

from __future__ import annotations

import datetime as dt

from fdegym_env.tasklib import replay

from . import grader as G


def _eg(ids: list, total: int) -> str:
    """'a, b' when they are all of them; 'e.g. a, b, c and 4 more' when capped."""
    rest = total - len(ids)
    return ", ".join(ids) if rest <= 0 else f"e.g. {', '.join(ids)} and {rest} more"


def run(deploy, params: dict, day: int, traffic) -> dict:
    ev = G.evaluate(replay.Decider(deploy, timeout_s=20), params, traffic, tag="SHADOW")
    if ev["_errors"]:
        return {"feedback": "Ian (PCN digital): the shadow connector fell over on your router - nothing got routed "
                            "today. Error: " + ev["_errors"][0][:300], "facts": [], "topics": [], "stats": {},
                "extra_cost": 0.0}
    msgs = traffic["days"][0]["messages"]
    c, ex = ev["details"]["counts"], ev["_examples"]
    day_name = dt.date.fromisoformat(traffic["days"][0]["date"]).strftime("%a %d %b")
    lines = [f"Shadow portal, {day_name}: {ev['_n']} messages routed."]
    if c.get("malformed"):
        lines.append("Ian: the connector rejected some of your decisions (unknown queue or missing id) - in "
                     "production those would just vanish.")
    rf_missed = c.get("incident_red_flag_missed", 0)
    waits = [w for w in ev["details"]["rf_waits"] if w < 9999]
    if rf_missed:
        lines.append(f"Nadia: {rf_missed} message(s) with red-flag symptoms weren't in front of a nurse within the hour "
                     f"({_eg(ex.get('red_flag_missed', []), rf_missed)}). Some were sitting in other queues, or behind the repeats on my line.")
    elif waits:
        lines.append(f"Nadia: every red flag today was in front of me within the hour (longest {max(waits)} min).")
    nurse_rx = sum(1 for m in msgs if m["truth"]["kind"] == "rx")
    if c.get("q_nurse_line", 0) > 0.45 * ev["_n"]:
        lines.append("Nadia: the line was absolutely rammed - I couldn't see the wood for the trees.")
    if c.get("q_pharmacy_desk", 0) == 0 and nurse_rx:
        lines.append("Nadia: still doing all the repeats on the nurse line.")
    n_cd = c.get("incident_cd_auto_handled", 0)
    if n_cd:
        lines.append(f"Hamza: {n_cd} controlled-drug repeat(s) came to the desk or got an automatic reply "
                     f"({_eg(ex.get('cd_auto_handled', []), n_cd)}) - we can't issue those under protocol. Had to "
                     "bounce them to the duty doctor.")
    if c.get("rx_late_days"):
        lines.append(f"Hamza: the desk couldn't get through today's repeats - {c['rx_late_days']} carried over "
                     "to tomorrow. Patients will be ringing.")
    n_adv = c.get("incident_clinical_advice_auto", 0)
    if n_adv:
        lines.append(f"Dr Okafor: {n_adv} automated repl(ies) went out with clinical advice in them "
                     f"({_eg(ex.get('clinical_advice_auto', []), n_adv)}). Who signed that off? This stops now.")
    if c.get("auto_unresolved", 0) >= 3:
        lines.append(f"Lorna: {c['auto_unresolved']} patients rang because the automatic answer didn't answer what "
                     "they'd asked.")
    if c.get("told_closed"):
        lines.append(f"Lorna: {c['told_closed']} patient(s) said the portal told them we were closed while we were "
                     "open - one went to 111.")
    if c.get("ooh_no_safety_net"):
        lines.append(f"Kerry's deputy: {c['ooh_no_safety_net']} out-of-hours messages got a reply without the current "
                     "approved safety-netting wording.")
    if len(lines) == 1:
        lines.append("Nobody raised anything today.")
    return {"feedback": "\n".join(lines), "facts": [], "topics": [],
            "stats": {k: v for k, v in c.items() if not k.startswith("incident_")},
            "extra_cost": 0.0}
