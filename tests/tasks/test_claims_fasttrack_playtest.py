"""claims_fasttrack, from the playtests.

- A trial day takes a customer day, but the report named the shadow day from the traffic (day 1 =
  Wed 04 Mar, day 2 = Thu 05 Mar) whatever the clock said: after two trials from Monday morning the
  clock was on Wed 04 Mar and the report already spoke of Thursday.
- Aileen (compliance) had the straight-through limit but nothing on manual 7.1's "automated payment
  not permitted", and the acknowledgement rule but nothing on whether setting photo-less claims up
  at once (PhotoDrop) meets it: a message asking both got neither."""

from __future__ import annotations


import pytest
import yaml

from fdegym_env import FDEGymEnv
from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router
from tests.tasks.trial_clock import trial_on_the_clock

TASK = load_task("claims_fasttrack")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:1737", "sample:0", "sample:1"]



@pytest.mark.parametrize("variant", ["base", "sample:1737"])
def test_trial_reports_name_no_day_the_clock_has_not_reached(variant):
    env = FDEGymEnv(task="claims_fasttrack", sandbox="none", variant=variant)
    try:
        env.reset(seed=1)
        for _ in range(2):
            text, after = trial_on_the_clock(env, "Shadow intake")
        # a reply after the trials is stamped on the clock the reports agree with
        reply = env.step({"tool": "contact", "to": "hector_villanueva", "message": "How many FNOLs come in a day?"})
        assert f"({after.strftime('%a %d %b')}" in reply[0]["text"]
    finally:
        env.close()


def _aileen(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    eng = People(spec, make_router(TASK.router, spec["people"]))
    eng.wait(24)                                    # back from the DOI hearing
    return eng


@pytest.mark.parametrize("variant", VARIANTS)
def test_aileen_answers_the_manual_and_the_photodrop_question_together_and_alone(variant):
    both = ("Two things from the intake work. The claims manual's payment authority section says automated "
            "payment isn't permitted - can fast track be switched on at all? And if photo-less claims were set "
            "up straight away with an upload link instead of waiting in PEND_PHOTO, would that keep us inside "
            "the acknowledgement deadline?")
    r = _aileen(variant).contact("aileen_park", both)
    assert sorted(r.tags) == ["ack_rule", "authority"], (r.tags, r.reply)
    r = _aileen(variant).contact("aileen_park", "Does manual 7.1 stop fast track from paying small claims straight through?")
    assert r.tags == ["authority"], (r.tags, r.reply)
    assert "7.1" in r.reply and "doesn't hold you up" in r.reply
    r = _aileen(variant).contact("aileen_park", "Would setting photo-less claims up at first notice through PhotoDrop satisfy the acknowledgement rule?")
    assert r.tags == ["ack_rule"], (r.tags, r.reply)
    assert "PhotoDrop" in r.reply and "fixes it from my side" in r.reply
