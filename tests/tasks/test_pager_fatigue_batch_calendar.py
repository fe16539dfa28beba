"""pager_fatigue: the settlement run calendar, the trial's batch nights and its page times agree.

- Asked on Wednesday for the Control-M run calendar (which night is the first in the new slot, month-end
  and no-run nights, what ran on the 2-3 March night), Femi repeated Dev's windows word for word. He now
  gives the calendar night by night, and it matches the windows the traffic runs on each date.
- The shadow traffic ran the new settlement slot from 2 March while Dev and Femi said "from the N March
  run": trial nights before the move now run February's slot, as everyone says.
- Asked when her shadow shift's replica-lag pages fired, Kasia deflected to Dev; she now says where her
  note's times come from, and the note itself names every page it mentions (UK time, alert, instance),
  with "(5 of n shown)" past five and counts equal to the grader's."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router
from fdegym_env.tasklib.timeutil import local

TASK = load_task("pager_fatigue")
TRAFFIC, GRADER, TRIAL = TASK.module("traffic"), TASK.module("grader"), TASK.module("trial")
MOVED = ["dba_leave", "sample:4476", "sample:3317", "sample:0"]
VARIANTS = ["base"] + MOVED
CALENDAR = [
    "Hi Femi, for the alert router I need the Control-M run calendar for the overnight settlement batch. Between now and "
    "17 March, on which nights does it run in which slot (UK time) - in particular the exact first night of the new slot, "
    "and any nights with no run or a different window (month-end, weekends)?",
    "On the night of 2-3 March replica lag paged 3 times while settlement was running. From the Control-M calendar: what "
    "are the settlement run windows (UK time) for each night from 4 March to 17 March, including the first night of the "
    "new slot?",
    "Which night is the first settlement run in the new slot, and until when does it stay in the old one?",
    "What ran in Control-M on the night of 2-3 March, and at what times?",
]
LAG_TIMES = ("On the shadow shift the new router paged PgReplicationLagHigh 3 times overnight while settlement was "
             "running. At what times (UK) did those 3 pages fire, on which replica, and with what lag values?")
SHADOW_ASKS = [LAG_TIMES, "Which pages did the shadow router send on the trial night, and at what times?",
               "Your shadow-shift note says LBHealthCheckFailed paged 12 times. Which member, and when did they fire?"]


def _people(variant: str, wait_h: float = 0) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    eng = People(spec, make_router(TASK.router, spec["people"]))
    if wait_h:
        eng.wait(wait_h)
    return eng


def _hm(dt_utc) -> str:
    return local(dt_utc).strftime("%H:%M")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("ask", CALENDAR)
def test_femi_gives_the_run_calendar_that_the_traffic_runs(variant, ask):
    params = dict(TASK.variant(variant).params)
    r = _people(variant, 48).contact("femi_adebayo", ask)           # Wed 04 Mar, the close is over
    assert "batch_schedule" in r.tags and "F_batch_windows" in r.facts, (r.tags, r.reply)
    assert params["batch_windows_text"] not in r.reply               # his own words, not Dev's paragraph
    assert "every night, weekends included" in r.reply and "2–3 March was February's month-end run" in r.reply
    assert "Good Friday 3 April" in r.reply
    # the slot he names for each night is the one the traffic runs that night
    first = TRAFFIC.moved_on(params)
    for d in range(2, 18):
        day = date(2026, 3, d)
        (job, w0, w1) = TRAFFIC.batch_runs(params, day)[0]
        assert job == "settlement batch"
        start = _hm(w0)
        if first is None:
            assert f"{start}-{_hm(w1)}" in r.reply and "no change to the schedule" in r.reply, r.reply
        elif day < first:
            assert start == params["batch_windows_before"][0][0]
        else:
            assert start == params["batch_windows"][0][0]
    if first is not None:
        last_old = TRAFFIC.batch_runs(params, first - timedelta(days=1))[0][1]
        new = TRAFFIC.batch_runs(params, first)[0][1]
        assert f"last one starts {_hm(last_old)} {local(last_old):%a %-d March}" in r.reply, r.reply
        assert f"first one starting {_hm(new)} {local(new):%a %-d March}" in r.reply, r.reply
        assert f"night of {first.day - 1}–{first.day} March is the last" in params["batch_change_text"]   # Dev too


@pytest.mark.parametrize("variant", MOVED)
def test_trial_nights_before_the_move_run_the_old_slot(variant):
    """Trial nights are 2-4 March, before every drawn move (5-12 March): lag there is in February's slot."""
    params = dict(TASK.variant(variant).params)
    first = TRAFFIC.moved_on(params)
    assert first >= date(2026, 3, 5)
    for n in (1, 2, 3):
        tr = TRAFFIC.shadow(params, n)
        shift = tr["days"][0]
        day = date.fromisoformat(shift["batch"]["shift_start"][:10])
        runs = TRAFFIC.batch_runs(params, day)
        assert [(_hm(a), _hm(b)) for _j, a, b in runs] == [tuple(w) for w in params["batch_windows_before"]]
        lag = [e for e in shift["batch"]["events"] if e["alert"] == "PgReplicationLagHigh" and not shift["truth"][e["id"]]]
        assert lag
        for e in lag:                                                # batch noise sits inside that night's runs
            t = GRADER._ts(e["ts"])
            assert any(a <= t < b for _j, a, b in runs), (e["ts"], runs)
    # and from the move on, the new slot
    held = TRAFFIC.held_out(params, TASK.held_out_seed)["days"][0]["batch"]["shift_start"][:10]
    assert [(_hm(a), _hm(b)) for _j, a, b in TRAFFIC.batch_runs(params, date.fromisoformat(held))] == \
        [tuple(w) for w in params["batch_windows"]]


@pytest.mark.parametrize("variant", ["base", "sample:4476", "dba_leave", "sample:7"])
@pytest.mark.parametrize("ask", SHADOW_ASKS)
def test_kasia_says_where_her_shadow_page_times_come_from(variant, ask):
    r = _people(variant, 30).contact("kasia_wrona", ask)
    assert r.tags == ["shadow_pages"], (r.tags, r.reply)
    assert "UK time" in r.reply and "instance" in r.reply and "Dev" not in r.reply


class _Canned:
    def __init__(self, route):
        self.task, self.route = TASK, route

    def call(self, module, function, batch, timeout_s=None):
        return type("R", (), {"ok": True, "error": None, "value": {
            "decisions": [{"id": e["id"], "action": self.route(e)} for e in batch["events"]]}})()


def _everything(e):
    return "page"


def _new_slot_only(e):
    """A router that already quietens replica lag in 23:00-01:00 and 05:00-05:45 (the transcript's mistake)."""
    h = local(GRADER._ts(e["ts"])).strftime("%H:%M")
    quiet = h >= "23:00" or h < "01:00" or "05:00" <= h < "05:45"
    return "suppress" if e["alert"] == "PgReplicationLagHigh" and quiet else "page"


SHOWN = re.compile(r"\((\d+) of (\d+) shown\)")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", [_everything, _new_slot_only])
def test_trial_names_the_pages_it_mentions_and_counts_what_the_grader_counts(variant, policy):
    params = dict(TASK.variant(variant).params)
    for n in (1, 2):
        tr = TRAFFIC.shadow(params, n)
        graded = GRADER.grade(_Canned(policy), params, tr)["details"]
        text = TRIAL.run(_Canned(policy), params, n, tr)["feedback"]
        events = sorted((e for e in tr["days"][0]["batch"]["events"] if policy(e) == "page"),
                        key=lambda e: GRADER._ts(e["ts"]))
        assert text.startswith(f"Kasia: shadow shift -> {graded['pages']} pages"), text
        lag = [e for e in events if e["alert"] == "PgReplicationLagHigh"]
        n_lag = graded["pages_by_alert"].get("PgReplicationLagHigh", 0)
        assert len(lag) == n_lag
        if not n_lag:
            assert "PgReplicationLagHigh" not in text
            continue
        line = next(x for x in text.splitlines() if "PgReplicationLagHigh paged" in x)
        assert (f"paged {n_lag} times:" if n_lag > 1 else "paged once:") in line, line
        assert SHOWN.findall(line) == ([("5", str(n_lag))] if n_lag > 5 else []), line
        runs = TRAFFIC.batch_runs(params, date.fromisoformat(tr["days"][0]["batch"]["shift_start"][:10]))
        for e in lag[:5]:
            t = GRADER._ts(e["ts"])
            job = next((j for j, a, b in runs if a <= t < b), "no batch running")
            assert f"{_hm(t)} on {e['instance']}, lag {e['value']:.0f}s ({job})" in line, line
        assert "Femi says the settlement batch was running" not in text
        for x in text.splitlines():
            m = re.match(r"  (\w+) on (\S+) paged (\d+) times, at ([\d:; ]+)", x)
            if m:
                named = [e for e in events if e["alert"] == m[1] and e.get("instance") == m[2]]
                assert int(m[3]) == len(named)
                assert m[4].strip().split("; ") == [_hm(GRADER._ts(e["ts"])) for e in named[:5]], x
                assert SHOWN.findall(x) == ([("5", m[3])] if len(named) > 5 else []), x
