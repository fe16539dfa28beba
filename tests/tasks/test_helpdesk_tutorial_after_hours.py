"""helpdesk_tutorial, sample:7170 (Korvex owns the RT7s): asked a second, different question - why three
after-hours RT7 tickets were all fixed around 10:44 the next morning - Tomasz only recapped where the
tickets go ("As I said: ... queue vendor_korvex"). The resolver's hours are his area: he answers it, in the
variant's terms (Korvex: 7 till 8, no on-call, nothing in routing changes it; night_pick: a P1 does). The
trial says so too: a slow ticket raised while a team with no on-call was closed is named as such, and
its counts agree in number ("1 of those was")."""

from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.tasklib import evaluation
from tests.tasks.people_of import people_of

TASK = load_task("helpdesk_tutorial")
FIRST = ("In triage.log INC004812 was an RT7 enrolment fault that R20 caught and L1 reassigned. Which queue should "
         "RT7 tickets go to?")
ASKS = [
    # the playtest's message, as the brief gives it
    "why were three after-hours RT7 tickets all fixed around 10:44 next morning; would priority or wording get them "
    "worked at 07:00?",
    "Thanks - the shadow run sent the RT7s where you said. But three after-hours RT7 tickets (INC0042405 raised 02:29, "
    "INC0042410 at 06:06, INC0042451 at 21:19) were all fixed around 10:44 next morning. Why is that, and would a "
    "different priority or wording get them worked at 07:00?",
    "Why did the after-hours RT7 tickets only get fixed at 10:44 the next morning? Would priority or wording get them "
    "worked at 07:00?",
    "Three RT7 tickets raised overnight all got fixed mid-morning the next day. Is there anything in the routing, "
    "priority or wording that would get them picked up first thing when the team opens?",
    "RT7 ticket raised at 21:19 wasn't fixed till 10:45 the following morning. Can routing get that turned round "
    "faster?",
]


@pytest.mark.parametrize("ask", ASKS)
@pytest.mark.parametrize("variant", ["sample:7170", "vendor_desk", "base", "night_pick"])
def test_tomasz_answers_the_after_hours_turnaround_after_the_owner_question(variant, ask):
    people = people_of("helpdesk_tutorial", variant)
    assert people.contact("tomasz_wierzbicki", FIRST).tags == ["handheld_owner"]
    r = people.contact("tomasz_wierzbicki", ask)
    assert r.tags == ["after_hours_turnaround"], r.reply
    params = TASK.variant(variant).params
    if params["owner_queue"] == "vendor_korvex":
        assert "7 till 8" in r.reply and "no on-call" in r.reply and "nothing in the bot" in r.reply
    elif params["scanner_priority"] == "P1":
        assert "on-call phone out inside half an hour" in r.reply
    else:
        assert "06:00 to 22:00" in r.reply and "not worth" in r.reply


class _Canned:
    def __init__(self, route):
        self.task, self.route = TASK, route

    def call(self, module, function, batch, timeout_s=None):
        return type("R", (), {"ok": True, "error": None, "value": [dict(self.route(t), id=t["id"]) for t in batch]})()


def _to_owner(truth):
    return lambda t: {"queue": truth[t["id"]]["owner"],
                      "priority": "P2" if truth[t["id"]]["kind"] in ("scanner", "outage") else "P3"}


def test_the_playtest_trial_says_the_slow_tickets_waited_for_korvex_to_open():
    """At the reference's routing, the 3 slow RT7 tickets were all raised while Korvex was closed."""
    params = dict(TASK.variant("sample:7170").params)
    traffic = TASK.module("traffic").shadow(params, 1)
    text = TASK.module("trial").run(_Canned(_to_owner(traffic["truth"])), params, 1, traffic)["feedback"]
    line = next(x for x in text.splitlines() if "still took more than 4 hours" in x)
    assert "; 3 still took more than 4 hours" in line, line
    assert "INC0042451 (opened Mon 21:19 at P2, fixed Tue 10:45, Korvex closed till 07:00)" in line, line
    assert line.endswith("- all raised while Korvex was closed: Korvex has no on-call, so those wait for the morning "
                         "whatever the route or priority."), line
    assert "Shona: 1 of those was raised on nights (INC0042405); 1 of them wasn't sorted till the morning" in text


@pytest.mark.parametrize("variant", ["base", "vendor_desk", "night_pick", "sample:7170", "sample:3"])
def test_an_after_hours_note_only_where_the_ticket_came_in_while_the_team_was_closed(variant):
    params = dict(TASK.variant(variant).params)
    trial, sim = TASK.module("trial"), TASK.module("sim")
    for day in (1, 2):
        traffic = TASK.module("traffic").shadow(params, day)
        route = _to_owner(traffic["truth"])
        text = trial.run(_Canned(route), params, day, traffic)["feedback"]
        routed = evaluation.evaluate_on(_Canned(route), TASK.module("grader").evaluate, params, traffic)["_routed"]
        for r in routed:
            if r["kind"] != "scanner" or r["hours"] <= 4:
                continue
            opened = sim.parse_ts(r["opened"])
            closed = sim.CAL[r["queue"]].next_open(opened) > opened
            m = re.search(rf"{r['id']} \(opened [^)]*\)", text)
            if m:
                assert ("closed till" in m.group(0)) == closed, m.group(0)
        line = next((x for x in text.splitlines() if "still took more than 4 hours" in x), "")
        assert ("no on-call" in line) == (params["owner_queue"] == "vendor_korvex" and "closed till" in line), line
        for m in re.finditer(r"(\d+) of those (was|were) raised on nights", text):
            assert (m.group(2) == "was") == (m.group(1) == "1"), text
