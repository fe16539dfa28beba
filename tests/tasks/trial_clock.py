"""Shared by the trial-clock tests: a trial day takes a customer day, and its report names no day the
customer clock has not reached."""

from __future__ import annotations

import datetime as dt
import re
import warnings

_DAY = re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\w* (\d{1,2}) (Jan|Feb|Mar|Apr)\b")
_ISO = re.compile(r"\b(20\d\d)-(\d\d)-(\d\d)\b")
_MONTHS = ["Jan", "Feb", "Mar", "Apr"]


def named_days(text: str) -> list[dt.date]:
    """The calendar days ``text`` names ("Wed 04 Mar", "2026-03-04"), all in 2026."""
    return ([dt.date(2026, _MONTHS.index(m) + 1, int(d)) for d, m in _DAY.findall(text)]
            + [dt.date(int(y), int(m), int(d)) for y, m, d in _ISO.findall(text)])


def trial_on_the_clock(env, marker: str) -> tuple[str, dt.datetime]:
    """One trial step, checked: it took 24 customer hours, its report holds ``marker`` and names no
    day after the clock. -> (the observation text, the clock after it)."""
    before = env.people.clock.now()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = env.step({"tool": "trial"})[0]["text"]
    after = env.people.clock.now()
    assert after - before == dt.timedelta(hours=24), text
    assert marker in text
    for day in named_days(text):
        assert day <= after.date(), (day, after, text)
    return text, after
