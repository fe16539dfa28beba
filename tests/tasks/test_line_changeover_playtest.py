"""line_changeover findings of the first playtests: nobody said how the weekly number counts held jobs and
binned mixes (the planner recapped his Friday routine); the commissioning note left the new filler's CIP
allergen validation "open" and QA never said whether the CIP is the wash-down on that line."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from tests.tasks.people_of import people_of, told

TASK = load_task("line_changeover")
PLANT = TASK.module("plant")


def test_the_planner_says_how_the_week_is_counted():
    r = people_of("line_changeover").contact(
        "wes_faulkner", "How is net_cases_per_week counted - do held jobs and binned mixes count against the plan?")
    assert told(r) == ["plan_measure"]
    assert "the whole mix" in r.reply and "holds to next week packs nothing" in r.reply and "wastes nothing" in r.reply


def test_a_run_that_cannot_finish_bins_its_mix_and_a_held_job_costs_nothing():
    """What the planner says is what the model counts."""
    params = dict(TASK.variant("base").params)
    product = next(iter(PLANT.PRODUCTS))
    line = next(ln for ln in ("L1", "L2", "L3") if PLANT.eligible(ln, product))
    huge = {"job_id": "J1", "product": product, "cases": 10 ** 6}
    out = PLANT.run_line(line, [(huge, False)], params)
    assert out["packed"] == 0 and out["waste"] == huge["cases"]
    assert PLANT.run_line(line, [], params)["waste"] == 0


@pytest.mark.parametrize("variant", ["base", "line1_filler"])
def test_qa_says_the_new_fillers_cip_is_the_wash_down(variant):
    ppl = people_of("line_changeover", variant)
    new_line = TASK.variant(variant).params["new_line"]
    r = ppl.contact("rukhsana_begum", "Which allergens need a full wash-down now? Can tomato salsa SAL-TOM follow "
                                      "classic houmous HUM-CLS, and is the new filler's CIP accepted as the allergen clean?")
    assert "allergen_washdown" in told(r) and f"On {new_line} the new filler's CIP cycle is the wash-down" in r.reply
    note = (world_snapshot(TASK, TASK.variant(variant)) / "docs" / "filler_commissioning.md").read_text()
    assert "CIP allergen validation done" in note


@pytest.mark.parametrize("variant", ["base", "line1_filler"])
def test_the_new_fillers_line_logs_nothing_while_it_was_being_swapped(variant):
    """The commissioning note has the old filler out w/c 12 Oct and the new one running from Wed 14 Oct; the
    changeover sheet had the new line at work on the 12th and 13th."""
    import csv
    from datetime import date, datetime
    world = world_snapshot(TASK, TASK.variant(variant))
    new_line = TASK.variant(variant).params["new_line"]

    def day(text: str) -> date:
        return datetime.strptime(text, "%d/%m/%Y").date() if "/" in text else date.fromisoformat(text)

    rows = list(csv.DictReader(open(world / "data" / "changeover_log.csv", encoding="utf-8")))
    on_line = [r for r in rows if r["line"].replace("Line ", "L").upper() == new_line]
    assert on_line and not [r for r in on_line if date(2026, 10, 12) <= day(r["date"]) < date(2026, 10, 14)]


def test_the_planners_new_code_warning_was_followed_up():
    log = (world_snapshot(TASK, TASK.variant("base")) / "logs" / "plan_week.log").read_text()
    assert "check NPD spec" in log and "allergens confirmed against NPD spec (QA, R. Begum)" in log
