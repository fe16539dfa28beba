"""The customer's calendar: simulated, never the wall clock, so a seeded episode replays exactly.

It moves only when the agent does something that takes the customer's time: each message costs
``ask_minutes``, a trial a day, and the agent can wait.

Example:
    >>> c = Clock("2026-03-02T09:00")
    >>> c.advance(90); c.stamp(), c.hours
    ('Mon 02 Mar 10:30', 1.5)
    >>> c.advance(-30); c.minutes        # time never runs backwards
    90.0
"""

from __future__ import annotations

import datetime as dt

FORMAT = "%Y-%m-%dT%H:%M"
STAMP_FORMAT = "%a %d %b %H:%M"        # how the customer's time is shown: 'Mon 02 Mar 10:30'


def parse_time(value: str) -> dt.datetime:
    return dt.datetime.strptime(value, FORMAT)


class Clock:
    def __init__(self, start: str | None = "2026-03-02T09:00"):
        self.enabled = start is not None
        self.start = parse_time(start) if start else parse_time("2026-03-02T09:00")
        self.minutes = 0.0

    def advance(self, minutes: float) -> None:
        self.minutes += max(0.0, float(minutes))

    @property
    def hours(self) -> float:
        return self.minutes / 60.0

    def now(self) -> dt.datetime:
        return self.start + dt.timedelta(minutes=self.minutes)

    def stamp(self) -> str:
        return self.now().strftime(STAMP_FORMAT)
