"""Inbox nudges that would repeat a conversation the agent has already had are not sent
(``unless_asked``): Kerry's live out-of-hours wording (clinic_inbox), Aisling's Schedule 4 reminder
(pager_fatigue), Shaun's "talk to me before you block" (returns_desk)."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

CASES = [  # task, variant, message id, who and topic the agent asked, someone else asked meanwhile, hours to wait
    ("clinic_inbox", "base", "m2", "kerry_ashdown", "ooh_reply", "dawn_hollis", 4),
    ("clinic_inbox", "ooh_text_2026", "m2", "kerry_ashdown", "ooh_reply", "dawn_hollis", 4),
    ("pager_fatigue", "base", "m_aisling_warn", "aisling_brennan", "contract_alerts", "graham_tulloch", 0),
    ("returns_desk", "base", "m3_shaun", "shaun_whitaker", "worn_returns", "gemma_ashworth", 20),
]


def _engine(task_id: str, variant: str) -> People:
    task = load_task(task_id)
    spec = task.people_spec(task.variant(variant))
    return People(spec, make_router(task.router, spec["people"]))


def _question(eng: People, pid: str, tid: str) -> str:
    return next(t for t in eng.people[pid]["topics"] if t["id"] == tid)["examples"][0]


def _inbox_ids(eng: People, ask: tuple[str, str] | None, other: str, hours: float) -> list[str]:
    if ask:
        r = eng.contact(ask[0], _question(eng, *ask))
        assert ask[1] in r.tags, (r.tags, r.reply)
    while sum(eng.asked.values()) < 3:                     # Aisling writes after three questions
        eng.contact(other, "Quick one - what does a normal week look like for you?")
    if hours:
        eng.wait(hours)
    return [m["id"] for m in eng.read_inbox()]


@pytest.mark.parametrize("task_id, variant, msg, pid, tid, other, hours", CASES)
def test_no_nudge_once_the_sender_has_answered_it(task_id, variant, msg, pid, tid, other, hours):
    assert msg not in _inbox_ids(_engine(task_id, variant), (pid, tid), other, hours)


@pytest.mark.parametrize("task_id, variant, msg, pid, tid, other, hours", CASES)
def test_the_nudge_comes_to_an_agent_who_has_not_asked(task_id, variant, msg, pid, tid, other, hours):
    assert msg in _inbox_ids(_engine(task_id, variant), None, other, hours)
