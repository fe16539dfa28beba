"""helpdesk_tutorial: Tomasz's inbox note on who owns the RT7s is news only to an agent he has not
already told. After he had answered the ownership question, a "Heads up in case nobody told you -
since 1st March Korvex run the RT7 fleet" still arrived after trial day 2."""

from __future__ import annotations

import warnings

import pytest

from fdegym_env import FDEGymEnv

OWNER_Q = ("In triage.log, INC004812 was an RT7 enrolment fault caught by R20-login, sat in the L1 P3 queue and "
           "then got reassigned. Which team should handheld scanner tickets be routed to?")


def _inbox_after_two_trials(variant: str, ask: str | None) -> tuple[list[str], str]:
    """-> (the reply tags of the question to Tomasz, the inbox as the agent reads it after two trial days)."""
    env = FDEGymEnv(task="helpdesk_tutorial", sandbox="none", variant=variant)
    try:
        env.reset(seed=1)
        tags = []
        if ask is not None:
            env.step({"tool": "contact", "to": "tomasz_wierzbicki", "message": ask})
            tags = env.people.ledger[-1]["tags"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(2):
                env.step({"tool": "trial"})
        assert env.people.clock.hours >= 48, "Tomasz's note falls due after 48 customer hours"
        return tags, env.step({"tool": "inbox"})[0]["text"]
    finally:
        env.close()


@pytest.mark.parametrize("variant", ["base", "vendor_desk", "sample:5530"])
def test_no_heads_up_from_tomasz_once_he_has_answered_who_owns_the_handhelds(variant):
    tags, inbox = _inbox_after_two_trials(variant, OWNER_Q)
    assert "handheld_owner" in tags
    assert "from tomasz_wierzbicki" not in inbox, inbox
    assert "from priya_nair" in inbox, "the other messages still arrive"


@pytest.mark.parametrize("variant", ["base", "vendor_desk", "sample:5530"])
def test_tomasz_sends_his_note_to_an_agent_he_has_not_told(variant):
    _, inbox = _inbox_after_two_trials(variant, None)
    assert "from tomasz_wierzbicki" in inbox, inbox
    tags, inbox = _inbox_after_two_trials(variant, "Who looks after the handhelds?")   # no evidence: he won't say
    assert tags == ["handheld_owner:gated"], tags
    assert "from tomasz_wierzbicki" in inbox, inbox
