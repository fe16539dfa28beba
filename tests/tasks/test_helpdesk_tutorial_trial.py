"""helpdesk_tutorial trial report: every line names the tickets it talks about, says "(5 of n shown)"
when it names only some, and counts what the grader counts on that day's traffic; each trial day is
its own day of intake (its own date on the customer clock, no ticket number shared with another)."""

from __future__ import annotations

import re

import pytest

from fdegym_env import FDEGymEnv
from fdegym_env.core.registry import load_task
from fdegym_env.tasklib import evaluation
from tests.tasks.trial_clock import trial_on_the_clock

TASK = load_task("helpdesk_tutorial")
VARIANTS = ["base", "vendor_desk", "kiosk_form", "night_pick", "sample:3", "sample:11"]
TICKET = re.compile(r"\bINC\d{7}\b")
SHOWN = re.compile(r"\((\d+) of (\d+) shown\)")


class _Canned:
    def __init__(self, route):
        self.task, self.route = TASK, route

    def call(self, module, function, batch, timeout_s=None):
        return type("R", (), {"ok": True, "error": None, "value": [dict(self.route(t), id=t["id"]) for t in batch]})()


def _as_found(truth):
    """Like the world's router: everything to L1 at P3."""
    return lambda t: {"queue": "service_desk", "priority": "P3"}


def _everything_pages_network(truth):
    return lambda t: {"queue": "network", "priority": "P1"}


def _handhelds_to_owner_at_p1(truth):
    """RT7 tickets to the owner at P1, copiers to the depot team, the rest to their owner at P3."""
    def route(t):
        tr = truth[t["id"]]
        if tr["kind"] == "scanner":
            return {"queue": tr["owner"], "priority": "P1"}
        if tr["kind"] == "mfp":
            return {"queue": "field_ops", "priority": "P3"}
        return {"queue": tr["owner"], "priority": "P3"}
    return route


def _check(line: str, ids: list[str]) -> None:
    """``line`` names min(5, len(ids)) of exactly these tickets, with "(5 of n shown)" past five."""
    named = TICKET.findall(re.sub(r'"[^"]*"', "", line))     # quoted ticket text may cite older tickets
    assert len(named) == min(5, len(ids)) and set(named) <= set(ids), (ids, line)
    assert SHOWN.findall(line) == ([("5", str(len(ids)))] if len(ids) > 5 else []), line


def _line(text: str, *marks: str) -> str:
    return next(line for line in text.splitlines() if all(m in line for m in marks))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", [_as_found, _everything_pages_network, _handhelds_to_owner_at_p1])
def test_each_line_names_its_tickets_and_counts_what_the_grader_counts(variant, policy):
    params = dict(TASK.variant(variant).params)
    owner = params["owner_queue"]
    for day in (1, 2):
        traffic = TASK.module("traffic").shadow(params, day)
        truth = traffic["truth"]
        graded = TASK.module("grader").grade(_Canned(policy(truth)), params, traffic)
        text = TASK.module("trial").run(_Canned(policy(truth)), params, day, traffic)["feedback"]
        decided = {t["id"]: policy(truth)(t) for t in traffic["weeks"][0]}
        hh = [i for i in decided if truth[i]["kind"] == "scanner"]
        assert _line(text, "Shadow intake").startswith(f"Shadow intake, {traffic['day']}: {len(decided)} tickets, "
                                                       f"{len(hh)} of them about RT7 handhelds."), text
        assert graded["details"]["by_kind"]["scanner"]["n"] == len(hh)
        queue = decided[hh[0]]["queue"]
        if queue == owner:
            line = _line(text, "came straight to the team that fixes them")
            _check(line.split(";")[0], hh)
            routed = evaluation.evaluate_on(_Canned(policy(truth)), TASK.module("grader").evaluate, params,
                                            traffic)["_routed"]
            slow = [r["id"] for r in routed if r["kind"] == "scanner" and r["hours"] > 4]   # the grader's hours
            assert f"; {len(slow)} still took more than 4 hours" in line, line
            _check(line.split(";")[1], slow)
            assert graded["details"]["by_kind"]["scanner"]["in_right_queue"] == len(hh)
        elif queue == "service_desk":
            _check(_line(text, "landed with L1 again"), hh)
        else:
            _check(_line(text, "about handhelds ended up with us"), hh)
        pages = graded["details"]["wasted_pages"]
        if pages:
            line = _line(text, "Graham's pager report")
            assert f"{pages} page(s)" in line, line
            named = TICKET.findall(line)
            assert all(decided[i]["priority"] == "P1" for i in named), line
            assert len(named) == min(5, pages) and SHOWN.findall(line) == ([("5", str(pages))] if pages > 5 else [])
        else:
            assert "pager report" not in text
        copiers = [i for i in decided if truth[i]["kind"] == "mfp" and decided[i]["queue"] in ("field_ops", "vendor_korvex")]
        if copiers:
            _check(_line(text, "about the copiers"), copiers)
        for line in text.splitlines():
            if re.search(r"\d+ (?:RT7 )?ticket\(s\)|\d+ page\(s\)|\d+ of those", line):
                assert TICKET.search(line), line        # no count without the tickets it counts
    if policy is _everything_pages_network:
        assert pages > 5


def test_a_trial_incident_names_the_tickets():
    params = dict(TASK.variant("base").params)
    traffic = TASK.module("traffic").held_out(params, TASK.held_out_seed)     # a shadow day has no outage
    truth = traffic["truth"]
    outages = sorted(i for i, t in truth.items() if t["kind"] == "outage")
    handhelds = sorted(i for i, t in truth.items() if t["kind"] == "scanner")

    def route(t):
        kind = truth[t["id"]]["kind"]
        return {"queue": "service_desk", "priority": "P2" if kind == "outage" else "urgent" if kind == "scanner" else "P3"}
    graded = TASK.module("grader").grade(_Canned(route), params, traffic)
    assert {i.split(":")[0] for i in graded["incidents"]} == {"site_outage_not_paged", "malformed_routing"}
    text = TASK.module("trial").run(_Canned(route), params, 1, traffic)["feedback"]
    _check(_line(text, "Network on-call"), outages)
    assert _line(text, "Network on-call").startswith(f"Network on-call: {len(outages)} site outage ticket(s)")
    _check(_line(text, "fell over"), handhelds)
    assert f"{len(handhelds)} ticket(s)" in _line(text, "fell over")


@pytest.mark.parametrize("variant", VARIANTS)
def test_trial_days_are_successive_days_sharing_no_ticket_number(variant):
    params = dict(TASK.variant(variant).params)
    traffic = TASK.module("traffic")
    assert TASK.people_spec(TASK.variant(variant))["trial"]["max_runs"] == 2
    days = [traffic.shadow(params, n) for n in (1, 2, 3)]
    assert [d["day"] for d in days] == ["Mon 02 Mar", "Tue 03 Mar", "Wed 04 Mar"]
    assert [traffic.shadow_date(n).strftime("%a %d") for n in (5, 6, 7)] == ["Fri 06", "Sat 07", "Mon 09"]  # shut Sundays
    ids = [[t["id"] for t in d["weeks"][0]] for d in days]
    for a, b in zip(ids, ids[1:]):
        assert max(a) < min(b), (a, b)                                               # later days, later numbers
    held = traffic.held_out(params, TASK.held_out_seed)
    assert max(ids[-1]) < min(t["id"] for t in held["weeks"][0])


def test_each_trial_reports_the_day_it_was_run_and_takes_a_day():
    env = FDEGymEnv(task="helpdesk_tutorial", sandbox="none", variant="base")
    try:
        env.reset(seed=1)
        named = []
        for _ in range(2):
            before = env.people.clock.now()
            text, _after = trial_on_the_clock(env, f"Shadow intake, {before:%a %d %b}:")
            named.append(set(TICKET.findall(text)))
        assert named[0] and named[1] and not named[0] & named[1]
    finally:
        env.close()


def _p2_except(truth, to_l1: set[str]):
    """Handhelds to the owner at P2 except ``to_l1`` (still caught by a login rule), the rest to their owner."""
    def route(t):
        tr = truth[t["id"]]
        if tr["kind"] == "scanner":
            return {"queue": "service_desk" if t["id"] in to_l1 else tr["owner"], "priority": "P2"}
        return {"queue": tr["owner"], "priority": "P3"}
    return route


def test_the_playtest_day_shows_why_a_ticket_missed_and_why_one_was_slow():
    # sample:5784, trial day 1: INC0042405 ("frozen") landed with L1 and Priya's quote of another ticket was all the
    # agent had; INC0042458 "still took more than 4 hours" with no reason
    params = dict(TASK.variant("sample:5784").params)
    traffic = TASK.module("traffic").shadow(params, 1)
    route = _p2_except(traffic["truth"], {"INC0042405"})
    text = TASK.module("trial").run(_Canned(route), params, 1, traffic)["feedback"]
    assert 'INC0042405 "frozen" / "wont take my pin No spares on nights."' in _line(text, "landed with L1 again"), text
    assert "INC0042458 (opened Mon 21:22 at P2, fixed Tue " in _line(text, "still took more than 4 hours"), text


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_misrouted_ticket_shows_its_text_and_a_slow_one_when_and_at_what_priority(variant):
    params = dict(TASK.variant(variant).params)
    for day in (1, 2):
        traffic = TASK.module("traffic").shadow(params, day)
        truth = traffic["truth"]
        vis = {t["id"]: t for t in traffic["weeks"][0]}
        hh = [i for i in vis if truth[i]["kind"] == "scanner"]
        route = _p2_except(truth, set(hh[::2]))
        text = TASK.module("trial").run(_Canned(route), params, day, traffic)["feedback"]
        l1 = _line(text, "landed with L1 again")
        for i in hh[::2][:5]:
            body = " ".join(vis[i]["body"].replace('"', "'").split())
            assert f'{i} "' in l1 and f'/ "{body[:40]}' in l1, (i, body, l1)
        routed = evaluation.evaluate_on(_Canned(route), TASK.module("grader").evaluate, params, traffic)["_routed"]
        slow = [r for r in routed if r["kind"] == "scanner" and r["queue"] == params["owner_queue"] and r["hours"] > 4]
        if slow:
            line = _line(text, "still took more than 4 hours")
            for r in slow[:5]:
                assert f"{r['id']} (opened " in line and f"{r['opened'][11:16]} at P2, fixed " in line, line
