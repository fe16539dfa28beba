"""returns_desk: Shaun answers for his bench (inspection capacity, cost, when inspecting is a bad idea);
the trial report names no week before the clock; the portal log and the returns extract agree."""

from __future__ import annotations

import csv
import re
import warnings
from datetime import datetime

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("returns_desk")


def people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


INSPECT = [
    "If the RMA service sent more returns to inspect, for customers with an earlier grade C, could the bench "
    "grade them before the 14-day refund deadline? Any reason inspecting them is a bad idea?",
    "Can the bench cope with more inspect RMAs?",
    "What does an inspect cost you compared with an approve?",
]


@pytest.mark.parametrize("variant", ["base", "warehouse_knows", "sample:4260"])
@pytest.mark.parametrize("message", INSPECT)
def test_shaun_answers_for_inspection_on_his_bench(variant, message):
    r = people(variant).contact("shaun_whitaker", message)
    assert {"inspection", "reverse_logistics"} & set(r.tags), (r.tags, r.reply)
    assert "dont_know" not in r.tags


def test_shauns_inspection_answer_agrees_with_the_grader():
    shop = TASK.module("shop")
    r = people("base").contact("shaun_whitaker", INSPECT[0])
    assert "inspection" in r.tags
    assert f"£{shop.QC:.2f}" in r.reply                   # bench time per inspected parcel
    assert "half" in r.reply and shop.DEDUCT == 0.5         # a worn C has its refund cut by half
    assert "mint" in r.reply and shop.DELAY_CLV > 0         # an unworn return only waits longer for its refund


@pytest.mark.parametrize("variant", ["base", "warehouse_knows"])
def test_the_trial_report_names_no_week_before_the_clock(variant):
    from fdegym_env import FDEGymEnv
    env = FDEGymEnv(task="returns_desk", sandbox="none", variant=variant)
    try:
        env.reset(seed=1)
        clock = env.people.clock.now()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = env.step({"tool": "trial"})[0]["text"]
    finally:
        env.close()
    assert "Trial day 1" in text and "trial day 1" in text, text
    for m in re.finditer(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{2}) (Jan|Feb|Mar|Apr)\b", text):
        named = datetime.strptime(f"{m.group(2)} {m.group(3)} {clock.year}", "%d %b %Y").date()
        assert named >= clock.date(), (m.group(0), clock, text)
    assert "Shadow week from" not in text


@pytest.mark.parametrize("variant", ["base", "sample:4260"])
def test_the_portal_log_shows_the_extracts_decisions(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    rows = list(csv.DictReader((ws / "data" / "returns_extract.csv").open(encoding="utf-8")))
    log = (ws / "logs" / "rma_portal.log").read_text(encoding="utf-8")
    batches = [(int(n), int(k)) for n, k in re.findall(r"rma\.authorise batch n=(\d+) refused=(\d+)", log)]
    assert sum(n for n, _ in batches) == len(rows)
    assert sum(k for _, k in batches) == sum(1 for r in rows if r["decision"] == "refuse")
    assert "every return request" in (ws / "data" / "README.md").read_text(encoding="utf-8")
