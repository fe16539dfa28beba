"""line_changeover people: QA's wash-down answer is gated on naming the products and changes with the
variant's rule; the sponsor holds the misconception; the engineering manager is away and his
out-of-office sends the agent to someone who answers; the planner's promised log summary arrives; the
new filler's times people give agree with the grader's; the off-limits customer technologist costs
and releases nothing."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of, told

TASK = load_task("line_changeover")
PLANT = TASK.module("plant")
WASH_Q = "Which allergens need a full wash-down now - can SAL-TOM follow TZK-CLS or HUM-CLS on L1 with just a flavour change?"


def test_qa_gate_wants_the_products():
    r = people_of("line_changeover").contact("rukhsana_begum", "Which cleans need to be full wash-downs in the scheduler?")
    assert "allergen_washdown:gated" in r.tags or "Which products" in r.reply, (r.tags, r.reply)
    assert "F_washdown" not in r.facts


@pytest.mark.parametrize("variant, extra", [("base", None), ("celery_wash", "celery"), ("egg_wash", "eggs")])
def test_qa_answer_follows_the_variants_rule(variant, extra):
    r = people_of("line_changeover", variant).contact("rukhsana_begum", WASH_Q)
    assert "allergen_washdown" in told(r), (r.tags, r.reply)
    assert "F_washdown" in r.facts
    listed = TASK.variant(variant).params["washdown_allergens"]
    assert "sesame" in r.reply and "peanuts" in r.reply and "tree nuts" in r.reply
    if extra:
        assert extra in listed and extra.rstrip("s") in r.reply.lower()
    assert "only satay" not in r.reply.lower() or "wrong" in r.reply


def test_the_sponsor_believes_only_satay_needs_a_wash_down():
    r = people_of("line_changeover").contact("craig_mossop", "What exactly do you want the scheduler to do about changeovers?")
    assert "changeover_problem" in told(r)
    assert "satay" in r.reply and "belt and braces" in r.reply


@pytest.mark.parametrize("variant", ["base", "line1_filler"])
def test_lewis_is_away_and_points_to_someone_who_answers(variant):
    ppl = people_of("line_changeover", variant)
    r = ppl.contact("lewis_brannigan", "What are the new filler's real changeover times?")
    assert r.reply.startswith("(automatic reply)") and "Stacey" in r.reply
    params = TASK.variant(variant).params
    r = ppl.contact("stacey_pearson", "On the floor, how long do changeovers take on the new filler, and the nozzle swap?")
    assert "floor_changeovers" in told(r) and "F_new_filler" in r.facts
    assert f"{params['new_flavour_min']} minutes" in r.reply and f"{params['new_swap_min']} minutes" in r.reply


@pytest.mark.parametrize("variant", ["base", "hopper_recall"])
def test_times_people_give_are_the_graders(variant):
    params = TASK.variant(variant).params
    line = params["new_line"]
    assert PLANT.flavour_change(line, "HUM-CLS", "HUM-RPP", params)[0] == params["new_flavour_min"]
    assert PLANT.flavour_change(line, "HUM-CLS", "SAL-TOM", params)[0] == params["new_swap_min"]
    assert PLANT.washdown(line, params)[0] == params["new_wash_min"]


def test_the_planners_log_summary_arrives_after_his_stall():
    ppl = people_of("line_changeover")
    r = ppl.contact("wes_faulkner", "Can you pull the actual changeover durations the operators logged on L2 since October?")
    assert "changeover_log" in told(r) and "F_new_filler" not in r.facts
    ppl.wait(5)
    inbox = [m for m in ppl.read_inbox() if m.get("id") == "m3_wes_log"]
    assert inbox and "110" in inbox[0]["text"]


def test_line_hours_answer_changes_with_the_variant():
    base = people_of("line_changeover").contact("wes_faulkner", "How many hours a day does each line fill in December?")
    tw = people_of("line_changeover", "twilight_shift").contact("wes_faulkner", "How many hours a day does each line fill in December?")
    assert "sixteen" in base.reply and "nineteen" in tw.reply


def test_the_customer_technologist_is_off_limits():
    r = people_of("line_changeover").contact("claire_whitworth", "Does Tesco accept may contain labels instead of a wash-down?")
    assert "Rukhsana" in r.reply and all(f.startswith("F_off_limits") for f in r.facts) and r.cost > 0
