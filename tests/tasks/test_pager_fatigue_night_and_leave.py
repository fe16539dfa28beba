"""pager_fatigue: one night and one leave, wherever the agent looks.

- The workspace's ``tools/replay.py`` counted night pages from 22:00, while the handbook, the trial
  and the grader's ``hour_weight`` put night at 23:00-07:00 (UK time). The replay now counts the
  grader's night, checked at its boundaries against ``hour_weight`` itself.
- Tomás is on annual leave until Thursday 5 March 09:00 (the rota page): the directory said he was
  reachable, and a message he had no topic for was a paid question before his list came unprompted.
  His ``away_until`` makes the directory, his out-of-office, referrals to him and his "back from
  leave" message agree with the clock."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
import textwrap

import pytest

from fdegym_env import FDEGymEnv
from fdegym_env.core.clock import parse_time
from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("pager_fatigue")
GRADER = TASK.module("grader")
VARIANTS = sorted(TASK.variants) + ["sample:3317"]
LEAVE = "[away: on annual leave until Thu 05 Mar 09:00]"
SILENCES = "Which alerts do you silence by hand every shift, and which of those are ever real?"
OFF_TOPIC = "Quick one: who else on the team has been on call this year?"


# --- the night ------------------------------------------------------------------------------------------
def _grader_night(ts: str) -> bool:
    """Night as the grader weighs it: the heaviest hour weight of the day."""
    heaviest = max(GRADER.hour_weight(dt.datetime(2026, 2, 17, h, tzinfo=dt.timezone.utc)) for h in range(24))
    return GRADER.hour_weight(GRADER._ts(ts)) == heaviest


def _grader_window() -> str:
    """``23:00-07:00`` from ``hour_weight``: the first and the first-after night hours (GMT day)."""
    night = [_grader_night(f"2026-02-17T{h:02d}:00:00Z") for h in range(24)]
    start = next(h for h in range(24) if night[h] and not night[h - 1])
    end = next(h for h in range(24) if not night[h] and night[h - 1])
    return f"{start:02d}:00-{end:02d}:00"


# GMT in February; BST from 29 March (22:30 UTC is 23:30 UK time)
BOUNDARIES = {"2026-02-17T22:30:00Z": False, "2026-02-17T23:00:00Z": True, "2026-02-18T06:59:00Z": True,
              "2026-02-18T07:00:00Z": False, "2026-04-01T21:30:00Z": False, "2026-04-01T22:30:00Z": True,
              "2026-04-02T05:59:00Z": True, "2026-04-02T06:00:00Z": False}

_RUN_REPLAY = textwrap.dedent("""
    import sys
    sys.path.insert(0, sys.argv[1])
    import replay
    # every event pages: what is counted is when the page fell
    replay.router.route_batch = lambda batch: {"decisions": [
        {"id": e["id"], "action": "page", "dedup_key": "A|svc|i|x"} for e in batch["events"]]}
    replay.main(sys.argv[2:])
""")


def test_the_grader_night_is_the_handbooks():
    assert _grader_window() == "23:00-07:00"
    assert {ts: _grader_night(ts) for ts in BOUNDARIES} == BOUNDARIES


def test_replay_counts_the_graders_night_pages(tmp_path):
    tools = world_snapshot(TASK, TASK.variant("base")) / "system" / "tools"
    files = []
    for k, ts in enumerate(BOUNDARIES):
        f = tmp_path / f"{k}.jsonl"
        f.write_text(json.dumps({"id": f"e{k}", "ts": ts, "alert": "A", "service": "svc", "instance": "i"}) + "\n")
        files.append(str(f))
    out = subprocess.run([sys.executable, "-c", _RUN_REPLAY, str(tools), *files], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    window = _grader_window()
    counts = dict(re.findall(r"^(\d+)\.jsonl: .*; pages " + window + r": (\d)$", out.stdout, re.MULTILINE))
    assert len(counts) == len(BOUNDARIES), out.stdout          # the summary names the grader's window
    got = {ts: counts[str(k)] == "1" for k, ts in enumerate(BOUNDARIES)}
    assert got == {ts: _grader_night(ts) for ts in BOUNDARIES}


# --- Tomás's leave ------------------------------------------------------------------------------------
def _people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router(TASK.router, spec["people"]))


def _tomas_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("- tomas_ferreira:"))


def test_the_directory_shows_tomas_away_until_thursday_and_not_after():
    with FDEGymEnv(task="pager_fatigue", sandbox="none") as env:
        env.reset(seed=0)
        line = _tomas_line(env.step({"tool": "directory"})[0]["text"])
        assert line.endswith(LEAVE), line
        env.step({"tool": "wait", "hours": 71})                 # Thu 05 Mar 08:00
        assert _tomas_line(env.step({"tool": "directory"})[0]["text"]).endswith(LEAVE)
        env.step({"tool": "wait", "hours": 1})                  # Thu 05 Mar 09:00: back
        text = env.step({"tool": "directory"})[0]["text"]
        assert "It is Thu 05 Mar 09:00" in text and _tomas_line(text).endswith("[reachable]")


@pytest.mark.parametrize("variant", VARIANTS)
def test_tomas_leave_agrees_with_the_rota_and_his_back_message(variant):
    eng = _people(variant)
    tomas = eng.people["tomas_ferreira"]
    until = parse_time(tomas["away_until"])
    assert until == dt.datetime(2026, 3, 5, 9, 0)
    rota = (world_snapshot(TASK, TASK.variant(variant)) / "docs" / "oncall_rota.md").read_text()
    assert "back **Thursday 5 March**" in rota
    assert "Thursday 5 March" in tomas["away_reply"] and "leave" not in tomas["role"]
    back = next(m for m in eng.inbox_msgs if m["id"] == "m_tomas_back")
    assert eng.clock.start + dt.timedelta(hours=back["after_hours"]) == until   # "Back from leave" when he is
    eng.wait(71.9)
    assert "m_tomas_back" not in {m["id"] for m in eng.read_inbox()}
    eng.wait(0.1)
    assert "m_tomas_back" in {m["id"] for m in eng.read_inbox()}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", [SILENCES, OFF_TOPIC])
def test_a_message_to_tomas_on_leave_costs_nothing_and_gets_his_out_of_office(variant, message):
    eng = _people(variant)
    r = eng.contact("tomas_ferreira", message)
    assert r.reply == eng.people["tomas_ferreira"]["away_reply"]
    assert r.tags == ["away", "auto_reply"] and r.cost == 0 and not r.facts
    assert eng.clock.minutes == 0 and eng.contact_cost == 0 and eng.asked["tomas_ferreira"] == 0


@pytest.mark.parametrize("variant", ["base", "sample:3317"])
def test_tomas_answers_his_silence_list_once_back(variant):
    eng = _people(variant)
    eng.wait(72)
    r = eng.contact("tomas_ferreira", SILENCES)
    assert r.tags == ["hand_silences"] and "F_hand_silence" in r.facts and r.cost > 0, (r.tags, r.reply)
    assert "automatic reply" not in r.reply


def test_a_referral_to_tomas_says_he_is_on_leave_until_thursday():
    ask = "What's in Tomás's silence list exactly?"
    eng = _people("base")
    r = eng.contact("graham_tulloch", ask)
    assert "refer:tomas_ferreira" in r.tags, (r.tags, r.reply)
    assert "Tomás is on annual leave until Thu 05 Mar 09:00" in r.reply
    eng = _people("base")
    eng.wait(72)
    r = eng.contact("graham_tulloch", ask)
    assert "refer:tomas_ferreira" in r.tags and "leave" not in r.reply, r.reply
