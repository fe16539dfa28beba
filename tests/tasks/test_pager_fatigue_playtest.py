"""pager_fatigue, from the playtests.

- Femi's blurb (and the on-call rota) put his month-end close on 2-3 March, but his stall ran 20 hours
  from the first time he was asked: first contacted on Wed 04 Mar, he still said "month-end close
  today". The close ends with 3 March: asked from the 4th he answers, asked during the close he
  stalls, and what the stall says agrees with the blurb."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("pager_fatigue")
VARIANTS = sorted(TASK.variants) + ["sample:3317", "sample:0"]
SCHEDULE = "When do the nightly settlement and clearing ingest jobs run in Control-M, and is that UK local time?"
HOLIDAYS = "Which nights does the settlement batch not run at all - bank holidays over Easter, for instance?"


def _femi(variant: str, wait_h: float) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    eng = People(spec, make_router(TASK.router, spec["people"]))
    if wait_h:
        eng.wait(wait_h)
    return eng


@pytest.mark.parametrize("variant", VARIANTS)
def test_femi_answers_once_month_end_close_is_over(variant):
    eng = _femi(variant, 48)                                   # Wed 04 Mar, morning
    assert eng.clock.now().strftime("%a %d %b") == "Wed 04 Mar"
    r = eng.contact("femi_adebayo", SCHEDULE)
    assert r.tags == ["batch_schedule"], (r.tags, r.reply)
    assert "F_batch_windows" in r.facts and "Month-end close" not in r.reply
    r = eng.contact("femi_adebayo", HOLIDAYS)
    assert r.tags == ["calendar_exceptions"], (r.tags, r.reply)


@pytest.mark.parametrize("variant", ["base", "sample:3317"])
def test_femi_stalls_during_the_close_and_the_stall_agrees_with_his_blurb(variant):
    eng = _femi(variant, 0)                                    # Mon 02 Mar
    femi = eng.people["femi_adebayo"]
    assert "2–3 March" in femi["blurb"]
    r = eng.contact("femi_adebayo", SCHEDULE)
    assert r.tags == ["batch_schedule:stalled"], (r.tags, r.reply)
    assert "2–3 March" in r.reply and "Wednesday" in r.reply and not r.facts
    eng.wait(28)                                               # Tue 03 Mar afternoon: still closing
    assert eng.clock.now().strftime("%a %d %b") == "Tue 03 Mar"
    r = eng.contact("femi_adebayo", SCHEDULE)
    assert r.tags == ["batch_schedule:too_soon"], (r.tags, r.reply)
    eng.wait(18)
    assert eng.clock.now().strftime("%a %d %b") == "Wed 04 Mar"
    r = eng.contact("femi_adebayo", SCHEDULE)                 # Wednesday, as he said
    assert r.tags == ["batch_schedule"], (r.tags, r.reply)
