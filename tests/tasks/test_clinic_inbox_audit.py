"""clinic_inbox grader audit: each incident rule at its boundary (tasks/clinic_inbox/DESIGN_NOTES.md), on
small hand-made days of portal messages (Tuesday 3 March 2026: GMT, open 08:00-18:30 in base)."""

from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("clinic_inbox")
BASE = dict(TASK.variant("base").params)


class _Canned:
    def __init__(self, route):
        self.task, self.route = TASK, route

    def call(self, module, function, batch, timeout_s=None):
        return type("R", (), {"ok": True, "error": None, "value": {
            "decisions": [dict(self.route(m), id=m["id"]) for m in batch["messages"]]}})()


def _msg(i, at, kind, **truth):
    return {"msg": {"id": f"PM-{i:04d}", "received_at": f"2026-03-03T{at}:00Z", "body": "..."},
            "truth": dict({"kind": kind, "rf_category": "chest", "cd": "morphine", "faq": "opening"}, **truth)}


def _grade(messages, route, params=BASE):
    traffic = {"days": [{"date": "2026-03-03", "messages": messages}]}
    return TASK.module("grader").grade(_Canned(route), params, traffic)


def _kinds(out):
    return sorted({i.split(":")[0] for i in out["incidents"]})


def _by_kind(messages, table):
    kind = {m["msg"]["id"]: m["truth"]["kind"] for m in messages}
    return lambda m: table[kind[m["id"]]]


@pytest.mark.parametrize("ahead, incident", [(12, False), (13, True)])
def test_red_flag_missed_past_sixty_opening_minutes(ahead, incident):
    """One nurse; clinical messages take 5 minutes each and arrive first: 12 ahead is a 60-minute wait (on the
    SLA), 13 ahead is 65 (missed). The red flag is sent to the nurse line without the urgent flag."""
    msgs = [_msg(i, "08:00", "clinical") for i in range(ahead)] + [_msg(99, "08:01", "red_flag")]
    out = _grade(msgs, lambda m: {"queue": "nurse_line", "priority": "routine"})
    assert ("red_flag_missed" in _kinds(out)) is incident, out["incidents"]


def test_an_urgent_red_flag_jumps_the_nurse_queue():
    msgs = [_msg(i, "08:00", "clinical") for i in range(20)] + [_msg(99, "08:01", "red_flag")]
    out = _grade(msgs, lambda m: {"queue": "nurse_line", "priority": "urgent" if m["id"] == "PM-0099" else "routine"})
    assert out["incidents"] == [], out["incidents"]


@pytest.mark.parametrize("queue", ["front_desk", "doctor", "auto_reply"])
def test_a_red_flag_anywhere_but_the_nurse_line_is_missed(queue):
    out = _grade([_msg(1, "09:00", "red_flag")], lambda m: {"queue": queue, "priority": "urgent"})
    assert "red_flag_missed" in _kinds(out), out["incidents"]


@pytest.mark.parametrize("queue, incident", [("doctor", False), ("nurse_line", False), ("pharmacy_desk", True),
                                             ("auto_reply", True)])
def test_cd_auto_handled_at_the_pharmacy_desk_or_by_auto_reply(queue, incident):
    out = _grade([_msg(1, "09:00", "rx_cd")], lambda m: {"queue": queue})
    assert ("cd_auto_handled" in _kinds(out)) is incident, out["incidents"]


@pytest.mark.parametrize("reply, incident", [
    ("Our opening hours are 08:00-18:30 Monday to Friday.", False),
    ("Take paracetamol and it should settle.", True),
    ("Drink plenty of fluids.", True),
])
def test_clinical_advice_auto_in_any_automated_reply(reply, incident):
    out = _grade([_msg(1, "09:00", "faq")], lambda m: {"queue": "auto_reply", "reply": reply})
    assert ("clinical_advice_auto" in _kinds(out)) is incident, out["incidents"]


@pytest.mark.parametrize("at, incident", [("18:29", True), ("18:30", False), ("07:59", False)])
def test_told_closed_while_open_at_the_closing_boundary(at, incident):
    out = _grade([_msg(1, at, "faq")], lambda m: {"queue": "front_desk", "reply": BASE["ooh_reply"]})
    assert ("told_closed_while_open" in _kinds(out)) is incident, out["incidents"]


@pytest.mark.parametrize("reply, incident", [(None, True), ("We are closed, call 111.", True), ("ooh", False)])
def test_ooh_red_flag_needs_the_current_safety_netting(reply, incident):
    text = BASE["ooh_reply"] if reply == "ooh" else reply
    out = _grade([_msg(1, "19:00", "red_flag")], lambda m: {"queue": "nurse_line", "priority": "urgent", "reply": text})
    assert ("ooh_red_flag_unsafe" in _kinds(out)) is incident, out["incidents"]


def test_an_unknown_queue_is_malformed():
    out = _grade([_msg(1, "09:00", "faq")], lambda m: {"queue": "reception"})
    assert "malformed_output" in _kinds(out), out["incidents"]


def test_trial_report_gives_counts_with_capped_examples():
    params = dict(BASE)
    traffic = TASK.module("traffic").shadow(params, 1)
    out = TASK.module("trial").run(_Canned(lambda m: {"queue": "pharmacy_desk", "reply": "take paracetamol"}),
                                   params, 1, traffic)
    capped = [line for line in out["feedback"].splitlines() if " shown)" in line]
    assert capped, out["feedback"]
    for line in capped:                 # "Name: 12 ... (A, B, C (3 of 12 shown))": the count comes before the ids
        total = re.search(r"\(3 of (\d+) shown\)", line).group(1)
        assert re.search(rf"\b{total} ", line.split("(")[0]), line
    assert any(line.startswith("Dr Okafor: ") and line.split(": ", 1)[1].split()[0].isdigit()
               for line in out["feedback"].splitlines()), out["feedback"]
