"""pager_fatigue: a trial is one shadow shift (09:00 to 09:00) and takes a day of customer time, so
the shift a trial reports on has ended by the time its report arrives, and later replies are stamped
after it."""
from __future__ import annotations

import datetime as dt

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("pager_fatigue")


@pytest.mark.parametrize("variant", ["base", "sample:7"])
def test_each_trial_shift_is_over_before_its_report_and_the_clock_moves_a_day(variant):
    params = dict(TASK.variant(variant).params)
    spec = TASK.people_spec(TASK.variant(variant))
    p = People(spec, make_router("semantic", spec["people"]))
    assert p.trial_terms()["advance_hours"] == 24
    shifts = []

    def run_day(day):
        batch = TASK.module("traffic").shadow(params, day)["days"][0]["batch"]
        shifts.append((dt.datetime.fromisoformat(batch["shift_start"].replace("Z", "+00:00")),
                       dt.datetime.fromisoformat(batch["shift_end"].replace("Z", "+00:00"))))
        return {"feedback": "", "facts": []}

    for n in (1, 2, 3):                      # as early as they can be run: back to back from the first morning
        started = p.clock.now()
        p.trial(run_day)
        start, end = (t.replace(tzinfo=None) for t in shifts[-1])   # UTC; early March is GMT
        assert start <= started, f"trial {n} reports a shift that starts at {start}, after it was run ({started})"
        assert p.clock.now() >= end, f"trial {n}: report at {p.clock.now()} before the shift ended ({end})"
