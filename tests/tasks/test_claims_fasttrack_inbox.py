"""claims_fasttrack: Renata's "Before you switch anything on: look at data/siu_referrals_2026.csv and
come and talk to me" is a nudge for an agent who has not talked to her. An agent she had answered
on day 1 still got it after trial day 2."""

from __future__ import annotations

import warnings

import pytest

from fdegym_env import FDEGymEnv

RING_Q = ("I've gone through data/siu_referrals_2026.csv. Crestline Collision and Delta Precision Auto Body keep "
          "coming up on sub-2k claims. What does the ring's claim look like, and which FNOLs do you want referred "
          "to SIU?")


def _inbox_after_two_trials(variant: str, to: str | None, ask: str = RING_Q) -> str:
    env = FDEGymEnv(task="claims_fasttrack", sandbox="none", variant=variant)
    try:
        env.reset(seed=1)
        if to is not None:
            env.step({"tool": "contact", "to": to, "message": ask})
            assert env.people.ledger[-1]["tags"], "a real answer, not an auto-reply"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(2):
                env.step({"tool": "trial"})
        assert env.people.clock.hours >= 30, "Renata's note falls due after 30 customer hours"
        return env.step({"tool": "inbox"})[0]["text"]
    finally:
        env.close()


@pytest.mark.parametrize("variant", ["base", "siu_handover", "sample:6029"])
def test_no_come_and_talk_to_me_from_renata_after_talking_to_her(variant):
    inbox = _inbox_after_two_trials(variant, "renata_okafor")
    assert "from renata_okafor" not in inbox, inbox
    assert "from hector_villanueva" in inbox, "the other messages still arrive"
    inbox = _inbox_after_two_trials(variant, "renata_okafor", "Hi Renata, how do you want to work together on this?")
    assert "from renata_okafor" not in inbox, "any conversation with her counts"


@pytest.mark.parametrize("variant", ["base", "siu_handover", "sample:6029"])
def test_renata_sends_her_note_to_an_agent_who_has_not_talked_to_her(variant):
    assert "from renata_okafor" in _inbox_after_two_trials(variant, None)
    assert "from renata_okafor" in _inbox_after_two_trials(variant, "marcus_lindqvist"), "asking Marcus is not asking her"
