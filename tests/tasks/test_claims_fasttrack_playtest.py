"""claims_fasttrack, from the playtests.

- A trial day takes a customer day, but the report named the shadow day from the traffic (day 1 =
  Wed 04 Mar, day 2 = Thu 05 Mar) whatever the clock said: after two trials from Monday morning the
  clock was on Wed 04 Mar and the report already spoke of Thursday.
- Aileen (compliance) had the straight-through limit but nothing on manual 7.1's "automated payment
  not permitted", and the acknowledgement rule but nothing on whether setting photo-less claims up
  at once (PhotoDrop) meets it: a message asking both got neither."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import yaml

from fdegym_env import FDEGymEnv
from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
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


# - Renata's directory blurb said she works the Delta file while her answer, in the SIU-handover
#   variant, said she handed it over in January: the directory states her current role and what she
#   says (answer, inbox note) agrees with it, in every variant.
# - Hector's note "Friday sweep again this week" arrived on a Tuesday: it speaks of last Friday's
#   sweep, in figures the intake log's sweep line bears out.

def _people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router(TASK.router, spec["people"]))


@pytest.mark.parametrize("variant", VARIANTS + ["sample:4567"])
def test_renata_directory_line_agrees_with_what_she_says(variant):
    eng = _people(variant)
    handed_over = TASK.variant(variant).params["siu_holder"] == "marcus_lindqvist"
    blurb = eng.people["renata_okafor"]["blurb"]
    r = eng.contact("renata_okafor", "Three claims on data/siu_referrals_2026.csv are at Crestline Collision with the "
                                     "same damage photos on different policies. Which claims does SIU want referred?")
    assert r.tags == ["ring_pattern"], (r.tags, r.reply)
    quiet = _people(variant)                        # her note goes only to an agent she has not talked to
    quiet.wait(40)
    note = next(m["text"] for m in quiet.read_inbox() if m["from"] == "renata_okafor")
    if handed_over:
        assert "Delta" not in blurb and "Reno" in blurb, blurb
        assert "handed the Delta file to Marcus" in r.reply and "Reno" in r.reply, r.reply
        assert "Marcus" in note and "talk to me" not in note, note
    else:
        assert "Delta" in blurb and "Reno" not in blurb, blurb
        assert "handed" not in r.reply and "Reno" not in r.reply, r.reply
        assert "talk to me" in note, note


@pytest.mark.parametrize("variant", ["base", "siu_handover", "sample:4567"])
def test_hectors_sweep_note_fits_the_day_it_arrives(variant):
    eng = _people(variant)
    first = None
    for _ in range(48):
        if any(m["id"] == "m2_sweep" for m in eng.read_inbox()):
            first = eng.clock.now()
            break
        eng.wait(1)
    assert first is not None and first.weekday() < 4, first          # it lands Mon-Thu, before this week's sweep
    text = next(m["text"] for m in eng.read_inbox() if m["id"] == "m2_sweep")
    assert "last Friday" in text and "this week" not in text, text
    last_friday = first.date() - dt.timedelta(days=(first.weekday() - 4) % 7)
    log = (world_snapshot(TASK, TASK.variant(variant)) / "logs" / "intake.log").read_text(encoding="utf-8")
    sweep = re.search(rf"^{last_friday.isoformat()}T\S+ INFO  pend\.sweep +(\d+) .*oldest (\d+) days", log, re.M)
    assert sweep, last_friday                                         # the sweep he speaks of is in the log
    assert 24 <= int(sweep[1]) <= 60 and 12 <= int(sweep[2]) <= 16   # "a few dozen", "about two weeks"


@pytest.mark.parametrize("variant", ["base", "ring_vin", "siu_handover"])
def test_marcus_trial_line_names_the_giveaway_and_the_holder_of_the_variant(variant, monkeypatch):
    trial = TASK.module("trial")
    params = dict(TASK.variant(variant).params)
    out = {"_lost": 0, "incidents": [], "details": {"by_queue": {"fast_track": 2}},
           "_per": [{"queue": "fast_track", "kind": "ring"}, {"queue": "fast_track", "kind": "legit"}]}
    monkeypatch.setattr(trial.evaluation, "evaluate_on", lambda *a, **k: out)
    text = trial.run(None, params, 1, {})["feedback"]
    line = next(s for s in text.split("\n") if s.startswith("Marcus:"))
    assert "stopped 1 of those" in line
    assert ("VINs look familiar" in line) == (params["ring_key"] == "vin"), line
    assert ("pictures look familiar" in line) == (params["ring_key"] == "photo"), line
    assert ("asking Renata" in line) == (params["siu_holder"] == "renata_okafor"), line
