"""trial_screening findings of the first two playtests: the metric was named in the brief but
defined nowhere in the workspace; the protocol's bracketed SI figures (53 mmol/mol is 6.9995 %) were
the limit as far as any document said; the CRA, asked whether the activation letter had gone out,
answered only who sets the date; and nothing said the monitor's message counts as written activation."""

from __future__ import annotations

import re

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from tests.tasks.people_of import people_of

TASK = load_task("trial_screening")
SCREENING = TASK.module("screening")
WORLD = world_snapshot(TASK, TASK.variant("base"))


def test_the_scorecard_gives_the_weights_the_grader_uses():
    card = (WORLD / "docs" / "site_scorecard_q3.md").read_text()
    assert "screening yield" in card
    points = [float(x) for x in re.findall(r"\| ([+-][\d.]+)", card)]
    assert points == [SCREENING.ENROL, -SCREENING.SCREEN_FAIL_COST, -SCREENING.REVIEW_COST]
    assert "half" in card and SCREENING.REVIEW_DROP == 0.5


def test_the_protocol_says_the_bracketed_si_figures_are_not_the_limit():
    text = (WORLD / "docs" / "protocol_synopsis_v3.md").read_text()
    assert "SI figures in brackets are rounded" in text


def test_the_cra_says_whether_the_letter_has_come():
    ppl = people_of("trial_screening")
    ppl.wait(26)                                                     # back Tuesday 09:00
    r = ppl.contact("brianna_walsh", "Has the site activation letter for Amendment 3 been issued yet? If so, what effective date does it give?")
    assert "No activation letter" in r.reply and "Lars" in r.reply


def test_the_monitors_message_is_the_written_confirmation():
    r = people_of("trial_screening").contact(
        "lars_engebretsen", "SCR-1634 was screened with creatinine 1.62 mg/dL. Which protocol version governs her, and from what date is v4.0 active?")
    assert "F_amendment" in r.facts and "written confirmation" in r.reply


def test_with_the_monitor_away_the_binder_email_says_so():
    """Round 15b: in monitor_away Rosa's email sent the player to the monitor, whose out-of-office sent them to
    the CRA; her email now says where he is and who has the letters, and the CRA's letter is with her today."""
    ppl = people_of("trial_screening", "monitor_away")
    ppl.contact("rosa_delgado", "Has IRB approved Amendment 3, and has Parallax sent the written site activation letter?")
    ppl.wait(6)
    mail = [m["text"] for m in ppl.read_inbox() if m["id"] == "m3_rosa_binder"]
    assert mail and "Lisbon" in mail[0] and "Brianna" in mail[0]
    ppl.wait(24)
    r = ppl.contact("brianna_walsh", "Do you have the activation letter for Amendment 3 - what date does it give?")
    assert "with me today" in r.reply and "in my bag" not in r.reply
