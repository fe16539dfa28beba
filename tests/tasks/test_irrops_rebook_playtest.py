"""irrops_rebook, from the playtests: what people own and were asked about, answered in their own
words and consistent with the grader; trial reports that agree with the customer's clock.

- Conor's CHANGELOG cites "the WCHR incident at CDG" as the reason every SSR goes to the desk, and
  nobody's script said what happened or what the rule still protects.
- Marek, asked which passengers the desk still wants once the tool rebooks more, had nothing: he
  had topics for minors and co-terminals only.
- Aoife's Art 8(3) answer said a same-city airport is allowed but not whether the tool may do it
  without an agent.
- The shadow run named its disruption day (2026-03-04) while the clock was still on 2 March, and a
  trial day took no customer time."""

from __future__ import annotations


import pytest
import yaml

from fdegym_env import FDEGymEnv
from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router
from tests.tasks.trial_clock import trial_on_the_clock

TASK = load_task("irrops_rebook")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:1242", "sample:0", "sample:1", "sample:2"]


def ask(variant: str, to: str, message: str):
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router(TASK.router, spec["people"])).contact(to, message)


@pytest.mark.parametrize("variant", VARIANTS)
def test_conor_says_why_every_ssr_goes_to_the_desk_and_what_the_rule_still_protects(variant):
    r = ask(variant, "conor_hegarty",
            "The changelog puts desk_if_any_ssr down to a wheelchair passenger at CDG back in 2023. What went wrong "
            "that time, and is there still a reason for every SSR to go to the desk?")
    assert r.tags == ["ssr_desk_rule"], (r.tags, r.reply)
    # consistent with the grader: an assisted passenger may be rebooked (the SSR follows the booking),
    # UMNRs must not be (the flag is what keeps them off today), connections need the OCS time (Niamh)
    for said in ("carries the SSRs", "UMNR", "Niamh"):
        assert said in r.reply


@pytest.mark.parametrize("variant", VARIANTS)
def test_marek_says_which_passengers_the_desk_wants_to_keep(variant):
    params = TASK.variant(variant).params
    r = ask(variant, "marek_zielinski",
            "Once the tool rebooks connecting passengers too, which passengers would you still want your agents "
            "to handle rather than getting an SMS?")
    assert r.tags == ["desk_keeps"], (r.tags, r.reply)
    assert params["recap_ypta"] in r.reply             # YPTA as the variant's UM procedure has it
    for said in ("UMNR", "accommodation", "together", "meal code", "OCS", "Gold and Silver", "LGW or ORY"):
        assert said in r.reply


@pytest.mark.parametrize("variant", ["base", "sample:1242"])
def test_aoife_says_whether_the_tool_may_use_the_other_airport_without_an_agent(variant):
    r = ask(variant, "aoife_brennan",
            "Can reaccom move a Heathrow passenger onto the Gatwick flight by itself and just text them, or does "
            "Article 8(3) need an agent to agree the change with the passenger?")
    assert r.tags == ["coterminal_policy"], (r.tags, r.reply)
    assert "Nothing in it needs an agent" in r.reply and "transfer" in r.reply





def test_a_trial_day_takes_a_customer_day_and_names_no_day_the_clock_has_not_reached():
    env = FDEGymEnv(task="irrops_rebook", sandbox="none", variant="sample:1242")
    try:
        env.reset(seed=1)
        for _ in range(3):
            text, after = trial_on_the_clock(env, "Shadow run")
    finally:
        env.close()
