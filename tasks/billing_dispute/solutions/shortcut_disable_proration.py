"""Shortcut: "proration is the bug, so turn it off". A plan change bills the plan the account
ends the month on, for the whole month; price locks are honoured and disputes are validated
against this engine (the reference's handler)."""
import pathlib

from fdegym_env.tasklib import solutions




def apply(ws: pathlib.Path, params: dict) -> None:
    solutions.apply(__name__, "reference", ws, params)
    p = pathlib.Path(ws) / "system" / "billing" / "rating.py"
    src = p.read_text()
    start = src.index("def build_segments(")
    end = src.index("def _parse_date(")
    src = src[:start] + '''def build_segments(plan_at_start, changes, period):
    # no proration: the plan in force at the end of the period is billed for the whole period
    plan = plan_at_start
    for _, ch in _ordered(changes, period):
        plan = ch["to_plan"]
    return [(plan, 1, days_in(period))]


''' + src[end:]
    p.write_text(src)
