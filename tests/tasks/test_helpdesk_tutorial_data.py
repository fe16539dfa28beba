"""helpdesk_tutorial data: what a ticket says about the time of day agrees with when it was raised,
and the customer's own documents name the metric the grader computes.

A playtester read INC0041805 (sample:7712's log), raised at 07:34, opening "Afternoon, ..." and
similar greetings that disagree with the timestamps. The boundaries, as the depots speak: Morning
05:00-11:59, Afternoon 12:00-16:59, Evening 17:00-23:59; after midnight people say Hi."""
from __future__ import annotations

import re
from datetime import datetime

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import held_out_traffic, shadow_traffic
from fdegym_env.people import People, make_router

TASK = load_task("helpdesk_tutorial")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
SAMPLES = ["sample:7712"] + [f"sample:{i}" for i in range(10)]
GREET = re.compile(r"^\s*(morning|afternoon|evening)\b", re.I)


def _expected(hour: int) -> str | None:
    if 5 <= hour < 12:
        return "morning"
    if 12 <= hour < 17:
        return "afternoon"
    if hour >= 17:
        return "evening"
    return None


def _problems(opened: datetime, body: str) -> list[str]:
    """What in ``body`` (a ticket raised at ``opened``) disagrees with the clock."""
    out = []
    parts = [(opened, body)]
    if "-----Original Message-----" in body:          # a forwarded mail: the original has its own time
        top, orig = body.split("-----Original Message-----", 1)
        sent = datetime.strptime(re.search(r"Sent: (.+)", orig)[1].strip(), "%A, %d %B %Y %H:%M")
        parts = [(opened, top), (sent, orig.split("\n\n", 1)[1])]
    for t, text in parts:
        if (m := GREET.match(text)) and m[1].lower() != _expected(t.hour):
            out.append(f"'{m[1]}' at {t:%H:%M}")
        if t.hour >= 17 and "this afternoon" in text.lower():
            out.append(f"'this afternoon' at {t:%H:%M}")
    for h, mi in re.findall(r"\bsince (\d{1,2}):(\d\d)\b", body):
        ago = (opened.hour * 60 + opened.minute - int(h) * 60 - int(mi)) % (24 * 60)
        if not 0 < ago <= 12 * 60:
            out.append(f"'since {h}:{mi}' at {opened:%H:%M}")
    return out


def _records(variant: str):
    v = TASK.variant(variant)
    for tr in (held_out_traffic(TASK, v), shadow_traffic(TASK, v, 0)):
        for week in tr["weeks"]:
            for t in week:
                yield t["id"], datetime.fromisoformat(t["opened"]).replace(tzinfo=None), t["body"]


@pytest.mark.parametrize("variant", NAMED + SAMPLES)
def test_ticket_texts_agree_with_their_timestamps(variant):
    bad = [(i, p) for i, opened, body in _records(variant) for p in _problems(opened, body)]
    assert not bad, (variant, len(bad), bad[:5])


@pytest.mark.parametrize("variant", NAMED + ["sample:7712"])
def test_the_log_greets_at_the_right_time_of_day(variant):
    log = (world_snapshot(TASK, TASK.variant(variant)) / "logs" / "triage.log").read_text(encoding="utf-8")
    bad, seen = [], 0
    for ln in log.splitlines():
        m = re.match(r"(\S+)\s+INFO\s+triage\.router\s+(INC\d+) .* body=\"(.*)\"$", ln)
        if not m:
            continue
        hour = datetime.fromisoformat(m[1]).hour
        if g := GREET.match(m[3]):
            seen += 1
            if g[1].lower() != _expected(hour):
                bad.append((m[2], g[1], m[1]))
    assert seen and not bad, (variant, bad[:5])


def test_the_workspace_names_the_metric_the_grader_computes():
    """At L3 the brief is Moira's email (the SLA); the desk handbook says what the depots are held to."""
    ws = world_snapshot(TASK, TASK.variant("base"))
    handbook = (ws / "docs" / "desk_handbook.md").read_text(encoding="utf-8")
    assert "lost user-hours" in handbook and "10 hours" in handbook and "8 hours" in handbook
    assert TASK.module("sim").PAGE_COST_H == 10.0 and TASK.module("sim").IMPACT["scanner"] == (1.0, 8.0)
    assert "lost_user_h" in (ws / "logs" / "triage.log").read_text(encoding="utf-8")


@pytest.mark.parametrize("ask", [
    "Apart from the SLA percentage, how will the depots judge whether this change worked?",
    "What figure do the depot managers hold IT to - is it only first response in SLA?",
])
def test_moira_names_the_metric_when_asked(ask):
    spec = TASK.people_spec(TASK.variant("base"))
    r = People(spec, make_router("semantic", spec["people"])).contact("moira_quinlan", ask)
    assert r.tags == ["depot_sla"] and "lost user-hours" in r.reply, (r.tags, r.reply)
