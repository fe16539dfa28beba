"""clinic_inbox trial report: every term the grader scores and every incident it counts is reported by
whoever would notice it, with the grader's count on that day's traffic and the messages named
(3 at most, "(3 of n shown)" past that); each trial day is its own dated day of the shadow portal."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("clinic_inbox")
G = TASK.module("grader")
VARIANTS = ["base", "pharmacy_short", "sample:7421", "sample:5"]
MSG = re.compile(r"\bPM-\d{6}-\d{4}\b")
SHOWN = re.compile(r"\((\d+) of (\d+) shown\)")


class _Canned:
    """A delivered router answering ``route(message)`` for each message; None leaves it undecided."""

    def __init__(self, route):
        self.task, self.route = TASK, route

    def call(self, module, function, batch, timeout_s=None):
        out = [(m["id"], self.route(m)) for m in batch["messages"]]
        return type("R", (), {"ok": True, "error": None,
                              "value": {"decisions": [dict(d, id=i) for i, d in out if d is not None]}})()


def _open(params, traffic):
    date = dt.date.fromisoformat(traffic["days"][0]["date"])
    wins = G.windows(params, date - dt.timedelta(days=3), 11)
    return lambda m: G.is_open(wins, G.local(m["received_at"]))


def _by_truth(params, traffic, truth):
    """Each kind to its own team, admin questions answered by the template that fits, the current
    safety-netting wording on everything that comes in while closed."""
    is_open = _open(params, traffic)
    template = {"opening": "Our opening hours are on the website.", "address": "Please use the change of details form.",
                "repeat_howto": "Order repeats in the NHS App.", "fees": "Our fees are on the website.",
                "registration": "Registration is online."}

    def route(m):
        t = truth[m["id"]]
        q = "auto_reply" if t["kind"] == "faq" else G.RIGHT_Q[t["kind"]]
        reply = template[t["faq"]] if t["kind"] == "faq" else ""
        if not is_open(m):
            reply = (reply + " " + params["ooh_reply"]).strip()
        return {"queue": q, "priority": "urgent" if t["kind"] == "red_flag" else "routine", "reply": reply or None}
    return route


def _front_desk(params, traffic, truth):
    return lambda m: {"queue": "front_desk"}


def _all_to_the_nurses(params, traffic, truth):
    return lambda m: {"queue": "nurse_line"}


def _everything_to_the_desk(params, traffic, truth):
    """The pharmacy desk gets the whole day: several days' backlog, every controlled drug."""
    return lambda m: {"queue": "pharmacy_desk"}


MEDDLE = {"red_flag": ["nurse_line", "auto_reply", "doctor", "nurse_line"],
          "rx": ["pharmacy_desk", "nurse_line", "doctor", "auto_reply"],
          "rx_cd": ["pharmacy_desk", "auto_reply", "nurse_line", "doctor"],
          "clinical": ["doctor", "front_desk", "auto_reply", "nurse_line", "pharmacy_desk"],
          "results": ["doctor", "front_desk", "pharmacy_desk"], "fit_note": ["front_desk", "doctor"],
          "faq": ["auto_reply", "front_desk", "nurse_line", "auto_reply"],
          "admin_other": ["front_desk", "doctor", "pharmacy_desk", "auto_reply"],
          "appointment": ["front_desk", "nurse_line", "auto_reply"]}


def _meddle(params, traffic, truth):
    """A bit of every mistake: messages left undecided or sent to a queue that does not exist, every
    kind spread over the teams, automatic replies that miss or give advice, 'closed' while open, the
    safety-netting wording on only some of the night's messages."""
    is_open = _open(params, traffic)

    def route(m):
        t, i = truth[m["id"]], int(m["id"][-4:])
        if i % 23 == 0:
            return None
        if i % 29 == 0:
            return {"queue": "reception"}
        qs = MEDDLE[t["kind"]]
        q = qs[i % len(qs)]
        reply = ""
        if q == "auto_reply":
            reply = {"faq": "Our opening hours are on the website.",
                     "clinical": "Rest and take paracetamol."}.get(t["kind"], "Thanks, we have your message.")
        if is_open(m) and i % 7 == 0:
            reply += " The surgery is now closed."
        if not is_open(m) and i % 2 == 0:
            reply += " " + params["ooh_reply"]
        return {"queue": q, "priority": "urgent" if i % 2 else "routine", "reply": reply.strip() or None}
    return route


def _line(text: str, head: str, marker: str = "") -> str | None:
    found = [line for line in text.splitlines() if line.startswith(head) and marker in line]
    assert len(found) <= 1, found
    return found[0] if found else None


def _named(line: str, total: int, ok) -> list[str]:
    """``line`` names min(total, 3) message ids, each passing ``ok``, with "(3 of total shown)" when capped."""
    ids = MSG.findall(line)
    assert len(ids) == min(total, 3), (total, line)
    assert all(ok(i) for i in ids), line
    assert SHOWN.findall(line) == ([("3", str(total))] if total > 3 else []), line
    return ids


def _count(line: str) -> int:
    return int(re.match(r"[^:]+: (\d+) ", line).group(1))


def _hm(minutes: float) -> str:
    h, m = divmod(int(round(minutes)), 60)
    return f"{h}h {m:02d}m" if h else f"{m} min"


POLICIES = [_by_truth, _front_desk, _all_to_the_nurses, _everything_to_the_desk, _meddle]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", POLICIES)
def test_each_term_and_incident_is_reported_with_the_graders_count_and_its_messages(variant, policy):
    params = dict(TASK.variant(variant).params)
    for day in (1, 2):
        traffic = TASK.module("traffic").shadow(params, day)
        msgs = {m["msg"]["id"]: m["msg"] for m in traffic["days"][0]["messages"]}
        truth = {m["msg"]["id"]: m["truth"] for m in traffic["days"][0]["messages"]}
        route = policy(params, traffic, truth)
        graded = G.grade(_Canned(route), params, traffic)
        text = TASK.module("trial").run(_Canned(route), params, day, traffic)["feedback"]
        c, cost = graded["details"]["counts"], graded["details"]["cost"]
        dec = {i: route(m) for i, m in msgs.items()}
        q = {i: d["queue"] for i, d in dec.items() if d and d["queue"] in G.REROUTE | {"auto_reply": 0}}
        kind = {i: t["kind"] for i, t in truth.items()}
        is_open = _open(params, traffic)
        incident = {i.split(":")[0] for i in graded["incidents"]}
        date = dt.date.fromisoformat(traffic["days"][0]["date"])

        def check(head, marker, total, ok):
            """The line is there exactly when ``total`` is non-zero, gives ``total`` first and names its messages."""
            line = _line(text, head, marker)
            assert (line is not None) is (total > 0), (head, marker, total, text)
            if line:
                assert _count(line) == total, (total, line)
                _named(line, total, ok)
            return line

        # the day, named; every message the report names is one of that day's
        assert text.splitlines()[0] == f"Shadow portal, {date:%a %d %b}: {len(msgs)} messages routed."
        assert set(MSG.findall(text)) <= set(msgs)

        # Ian: undecided or unusable decisions (the malformed-output incident)
        check("Ian: ", "without a decision", c.get("lost", 0), lambda i: i not in q)
        assert ("malformed_output" in incident) is (c.get("lost", 0) > 0)

        # Nadia: red flags missed (why, in parts), red flags in time and the longest wait
        missed = c.get("incident_red_flag_missed", 0)
        line = check("Nadia: ", "weren't in front of a nurse", missed, lambda i: kind[i] == "red_flag")
        if line:                                    # why, in parts that add up: "- 2 sat in the wrong queue, 1 ..."
            assert sum(map(int, re.findall(r"(?:^|, )(\d+) ", line.rsplit(") - ", 1)[1]))) == missed, line
        rf_all = [i for i in kind if kind[i] == "red_flag"]
        line = _line(text, "Nadia: ", "within the hour; the longest wait")
        assert (line is not None) is (len(rf_all) > missed), text
        if line:
            assert _count(line) == len(rf_all) - missed
            w = int(re.search(r"longest wait was (\d+) min \((PM-\S+)\)", line).group(1))
            waits = [x for x in graded["details"]["rf_waits"] if x <= float(params["sla_minutes"])]
            assert w == max(waits), (line, waits)
            assert kind[MSG.findall(line)[0]] == "red_flag"

        # Nadia: the nurse line's load, the repeats and controlled drugs she dealt with
        line = _line(text, "Nadia: ", "came to the nurse line")
        assert (line is not None) is (c.get("q_nurse_line", 0) > 0)
        if line:
            assert _count(line) == c["q_nurse_line"]
        on = lambda k, queue: [i for i in q if kind[i] == k and q[i] == queue]       # noqa: E731
        check("Nadia: ", "were repeat requests", len(on("rx", "nurse_line")),
              lambda i: kind[i] == "rx" and q[i] == "nurse_line")
        check("Nadia: ", "controlled-drug repeat(s) came to us", len(on("rx_cd", "nurse_line")),
              lambda i: kind[i] == "rx_cd" and q[i] == "nurse_line")

        # misrouted, by the team that got them (the desk's controlled drugs are on their own line)
        def wrong(queue):
            return lambda i: q.get(i) == queue and G.RIGHT_Q[kind[i]] != queue and (kind[i], queue) not in G.ALSO_OK
        misrouted = [i for i in q if q[i] != "auto_reply" and wrong(q[i])(i)]
        cd_desk = on("rx_cd", "pharmacy_desk")
        by_team = {queue: [i for i in misrouted if q[i] == queue] for queue in G.REROUTE}
        check("Nadia: ", "weren't for a nurse", len(by_team["nurse_line"]), wrong("nurse_line"))
        check("Lorna: ", "weren't admin", len(by_team["front_desk"]), wrong("front_desk"))
        check("Dr Okafor: ", "weren't for a doctor", len(by_team["doctor"]), wrong("doctor"))
        check("Hamza: ", "weren't repeat requests", len(by_team["pharmacy_desk"]) - len(cd_desk),
              lambda i: wrong("pharmacy_desk")(i) and kind[i] != "rx_cd")
        assert len(misrouted) == c.get("misrouted", 0)
        check("Lorna: ", "before a clinician saw them", round(cost.get("clinical_delay", 0) / 4),
              lambda i: kind[i] in ("clinical", "results", "fit_note") and q[i] in ("front_desk", "pharmacy_desk"))
        check("Dr Okafor: ", "routine repeat(s)", len(on("rx", "doctor")),
              lambda i: kind[i] == "rx" and q[i] == "doctor")
        check("Dr Okafor: ", "routine clinical question(s)", len(on("clinical", "doctor")),
              lambda i: kind[i] == "clinical" and q[i] == "doctor")

        # Hamza: the desk's day against its capacity, and controlled drugs / repeats that went astray
        desk, cap = c.get("q_pharmacy_desk", 0), int(params["pharm_cap"])
        line = _line(text, "Hamza: the desk had ")
        assert (line is not None) is (desk > 0), text
        if line:
            assert line.startswith(f"Hamza: the desk had {desk} requests on {date:%A}"), line
            if desk > cap:
                assert f", {desk - cap} past what Becca and I can do in a day" in line, line
                _named(line, desk - cap, lambda i: q[i] == "pharmacy_desk")
                late = c["rx_late_days"]
                assert (f"that's {late} patient-days of waiting" in line) is (late > desk - cap), (late, line)
            else:
                assert "cleared them all" in line and c["rx_late_days"] == 0
        cd_auto = on("rx_cd", "auto_reply")
        assert len(cd_desk) + len(cd_auto) == c.get("incident_cd_auto_handled", 0)
        check("Hamza: ", "controlled-drug repeat(s) came to the desk", len(cd_desk),
              lambda i: kind[i] == "rx_cd" and q[i] == "pharmacy_desk")
        check("Hamza: ", "controlled-drug request(s) only got an automatic reply", len(cd_auto),
              lambda i: kind[i] == "rx_cd" and q[i] == "auto_reply")
        check("Hamza: ", "repeat request(s) got an automatic reply", len(on("rx", "auto_reply")),
              lambda i: kind[i] == "rx" and q[i] == "auto_reply")

        # Dr Okafor: automated clinical advice
        check("Dr Okafor: ", "clinical advice", c.get("incident_clinical_advice_auto", 0),
              lambda i: "paracetamol" in (dec[i].get("reply") or ""))

        # Lorna: automatic replies, the ones that needed a clinician, "closed" while open
        auto = c.get("auto_resolved", 0) + c.get("auto_unresolved", 0)
        assert auto == len([i for i in q if q[i] == "auto_reply"])
        line = _line(text, "Lorna: ", "automatic repl(ies) went out")
        assert (line is not None) is (auto > 0), text
        if line:
            assert _count(line) == auto
            if c.get("auto_unresolved"):
                assert f"; {c.get('auto_resolved', 0)} answered what was asked, {c['auto_unresolved']} didn't" in line
                _named(line, c["auto_unresolved"], lambda i: q[i] == "auto_reply")
            else:
                assert "every one answered" in line and not MSG.search(line)
        clinical_auto = [i for i in q if q[i] == "auto_reply" and kind[i] in G.CLINICAL_KINDS]
        check("Lorna: ", "needed a clinician", len(clinical_auto), lambda i: i in clinical_auto)
        told = c.get("told_closed", 0)
        assert told == c.get("incident_told_closed_while_open", 0)
        line = check("Lorna: ", "told them we were closed while we were open", told,
                     lambda i: is_open(msgs[i]) and "closed" in dec[i]["reply"])
        if line:
            for i in MSG.findall(line):
                assert f"{i} at {G.local(msgs[i]['received_at']):%H:%M}" in line

        # Kerry's out-of-hours log: messages while closed, those without the current wording, red flags among them
        closed = [i for i in q if not is_open(msgs[i])]
        bad = c.get("ooh_no_safety_net", 0)
        assert bad == round(cost.get("ooh_no_safety_net", 0) / G.W_OOH)
        line = _line(text, "Kerry's out-of-hours log: ", "came in while we were closed")
        assert (line is not None) is bool(closed)
        if line:
            assert _count(line) == len(closed)
            if bad:
                if bad < len(closed):
                    assert (f"; {len(closed) - bad} got the current approved safety-netting wording, "
                            f"{bad} didn't (") in line
                else:
                    assert f"; none of the {bad} got the current approved safety-netting wording (" in line
                _named(line, bad, lambda i: not is_open(msgs[i])
                       and params["ooh_reply"] not in (dec[i].get("reply") or ""))
            else:
                assert "every one got" in line and not MSG.search(line)
        check("Kerry's out-of-hours log: ", "reported red-flag symptoms", c.get("incident_ooh_red_flag_unsafe", 0),
              lambda i: kind[i] == "red_flag" and not is_open(msgs[i]))

        # Dawn: staff time by team, the grader's minutes
        line = _line(text, "Dawn: ", "staff time")
        teams = {"nurse_line": "nurse line", "front_desk": "front desk", "doctor": "duty doctor",
                 "pharmacy_desk": "pharmacy desk"}
        spent = {t: cost.get("minutes_" + t, 0) for t in teams}
        assert (line is not None) is any(spent.values())
        for t, label in teams.items():
            assert (f"{label} {_hm(spent[t])}" in line) is bool(spent[t]), (t, spent, line)
        assert line.endswith(f" - {_hm(sum(spent.values()))} in all."), line

        # each incident class the grader counted has its line
        said = {"malformed_output": "Ian: ", "red_flag_missed": "weren't in front of a nurse",
                "cd_auto_handled": "controlled-drug", "clinical_advice_auto": "clinical advice",
                "told_closed_while_open": "told them we were closed",
                "ooh_red_flag_unsafe": "reported red-flag symptoms"}
        assert incident <= set(said), incident
        for k in incident:
            assert said[k] in text, (k, text)


MARKERS = ("without a decision", "weren't in front of a nurse", "sat in the wrong queue",
           "only got an automatic reply", "waited over the hour", "never came out of the router",
           "within the hour; the longest", "rammed", "were repeat requests", "came to us",
           "weren't for a nurse", "patient-days", "cleared them all", "past what Becca",
           "weren't repeat requests", "came to the desk", "never reached a GP", "instead of reaching us",
           "clinical advice", "weren't for a doctor", "routine repeat", "routine clinical",
           "weren't admin", "before a clinician", "didn't and the patient rang", "every one answered",
           "needed a clinician", "told them we were closed", "none of the", "didn't (",
           "every one got the current", "reported red-flag", "staff time", "(3 of ")


def test_the_policies_reach_every_line():
    """Between them the policies above make every kind of report line but one: a red flag never picked up
    on the nurse line, which the line's ten days of sessions always clear for a single day's traffic."""
    seen = set()
    for variant in VARIANTS:
        params = dict(TASK.variant(variant).params)
        traffic = TASK.module("traffic").shadow(params, 1)
        truth = {m["msg"]["id"]: m["truth"] for m in traffic["days"][0]["messages"]}
        for policy in POLICIES:
            text = TASK.module("trial").run(_Canned(policy(params, traffic, truth)), params, 1, traffic)["feedback"]
            for marker in MARKERS:
                if marker in text:
                    seen.add(marker)
    assert len(seen) == len(MARKERS), [m for m in MARKERS if m not in seen]


@pytest.mark.parametrize("variant", ["base", "sample:7421"])
def test_trial_days_are_successive_dated_days_of_the_portal(variant):
    params = dict(TASK.variant(variant).params)
    route = lambda m: {"queue": "front_desk"}                                          # noqa: E731
    texts = []
    for n, date in zip((1, 2, 3), ("2026-03-02", "2026-03-03", "2026-03-04")):
        traffic = TASK.module("traffic").shadow(params, n)
        assert traffic["days"][0]["date"] == date
        text = TASK.module("trial").run(_Canned(route), params, n, traffic)["feedback"]
        day = dt.date.fromisoformat(date)
        assert text.startswith(f"Shadow portal, {day:%a %d %b}: ")
        assert f"on {day:%A}" in text                                                   # Dawn's staff time
        ids = MSG.findall(text)
        assert ids and {i[3:9] for i in ids} == {f"{day:%y%m%d}"}, text
        texts.append(text)
    assert len({t.splitlines()[0] for t in texts}) == 3
