"""outage_notify: Tom is off from Saturday for two weeks, and the next Tuesday deploy window falls inside his
leave. Whoever speaks of the Tuesday window (Tom, Marisol, the L3 brief) says who deploys while he is away
(the CS IT on-call, from his notes) instead of "Tom deploys it on Tuesday's window", in every variant; asked who
deploys while he is out, Tom answers it."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
import yaml

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of

TASK = load_task("outage_notify")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:3263", "sample:0", "sample:8142"]


def _texts(variant: str) -> list[str]:
    spec = TASK.people_spec(TASK.variant(variant))
    out = [m["text"] for m in spec["inbox"]]
    for p in spec["people"]:
        out += [p.get("blurb", ""), p.get("gone_reply", "")]
        for t in p.get("topics") or []:
            out += [t.get("answer", ""), t.get("recap", "")]
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_next_tuesday_window_falls_in_toms_leave_and_everyone_says_who_covers(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    start = datetime.fromisoformat(spec["clock"]["start"])
    tom = next(p for p in spec["people"] if p["id"] == "tom_bergeron")
    gone = start + timedelta(hours=tom["gone_after_hours"])
    tuesday = start + timedelta(days=(1 - start.weekday()) % 7 or 7)
    assert gone < tuesday < gone + timedelta(days=14), (start, gone, tuesday)   # the premise of the finding
    said = [t for t in _texts(variant) if "Tuesday" in t]
    assert said
    for t in said:
        assert not re.search(r"Tom (can )?deploys? (it )?on (a |the )?Tuesday", t), t
        assert re.search(r"on-?call", t) and re.search(r"while (I'm|he's|he is) (out|away|on vacation)", t), t
    brief = (TASK.path / "briefs" / "L3.md").read_text(encoding="utf-8")
    assert "Tom can deploy" not in brief


ASKS = [
    # the question a careful agent asks once it has read Tom's "I deploy on the Tuesday window" and his leave
    "Hi Tom, quick one before your leave. You said you deploy on the Tuesday window, but you're off from Saturday for "
    "two weeks - so who deploys the new ONS planner on the next Tuesday window while you're away?",
    "Who deploys while you're on vacation?",
    "If I hand over on Friday, who actually puts the new planner live next Tuesday, given you're on leave?",
    "When's the deploy window, and who does the deploy when you're out?",
]


@pytest.mark.parametrize("ask", ASKS)
@pytest.mark.parametrize("variant", ["base", "sample:3263"])
def test_tom_says_who_deploys_while_he_is_away(variant, ask):
    r = people_of("outage_notify", variant).contact("tom_bergeron", ask)
    assert r.tags == ["planner_runtime"], (r.tags, r.reply)
    assert "#cs-it-oncall" in r.reply and "Tuesday" in r.reply, r.reply
