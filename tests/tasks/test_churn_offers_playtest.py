"""churn_offers findings of the first two playtests: Callum, shown the ingest log and asked when the
feed would be fixed, said in one reply that nothing had landed since the 27th and "Fixed? I'm not aware
anything's broken"; Compliance, sent the copy to approve, recapped the rule; the sponsor, who owns the
campaign budget, referred a budget question to Compliance; the job log's last run disagreed with the
scored base of that run, and a ticket and the sponsor's memo claimed what the log did not show."""

from __future__ import annotations

import csv

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from tests.tasks.people_of import people_of, told

TASK = load_task("churn_offers")
FEED = ("Hi Callum - FDE on the save campaign. mediation_ingest.log shows region=MID files=0 every night since 28 Nov "
        "(after the DATA-1187 SFTP key rotation on 26 Nov). (1) Is the MID usage feed still down, and when will it be "
        "fixed / backfilled? (2) In cvm.scored_base, how do MID accounts look while it is down - are data_gb_30d / "
        "data_gb_prev_30d just summed over fewer days, zeros, or nulls? (3) Any other region affected?")


def test_one_reply_does_not_say_the_feed_is_down_and_that_nothing_is_broken():
    r = people_of("churn_offers", "midlands_recent").contact("callum_reid", FEED)
    assert told(r) == ["usage_feed", "feed_fix"] and "not aware anything's broken" not in r.reply
    assert "F_stale_feed" in r.facts and "early in the new year" in r.reply


COPY = ("Thanks Adaeze - consent stays Y/Yes only. Please approve this updated save SMS (used for both 10% and 20%, "
        "filled per account): \"Brindle: thanks for being with us. Take 20% off your SIM Only 40GB for 6 months: £11.20 "
        "a month, then £14.00 a month after that. Your monthly price goes up by £1.80 each April. No new contract. Reply "
        "SAVE20 by 14 Dec to accept.\" Is that OK to send from the next run, and is the 20% version covered by the same approval?")


def test_compliance_approves_a_copy_sent_for_approval():
    r = people_of("churn_offers", "rise_in_sms").contact("adaeze_nwosu", COPY)
    assert told(r)[0] == "copy_signoff" and r.reply.startswith("Approved") and "April rise" in r.reply


def test_the_sponsor_answers_on_her_own_budget():
    r = people_of("churn_offers").contact("rhian_cadogan", "Is there a weekly cap on discount spend or on the number of save offers we can send?")
    assert told(r) == ["budget"] and "no cap" in r.reply


@pytest.mark.parametrize("variant", list(TASK.variants) + ["sample:4906"])
def test_the_log_and_the_scored_base_agree_on_the_last_run(variant):
    world = world_snapshot(TASK, TASK.variant(variant))
    rows = list(csv.DictReader(open(world / "data" / "scored_base_2026-11-30.csv", encoding="utf-8")))
    share = sum(r["flag"] == "Y" for r in rows) / len(rows)
    last = [line for line in (world / "logs" / "save_campaign.log").read_text().splitlines() if "run=2026-11-30" in line]
    assert last and f"({share:.1%})" in last[0]
    memo = (world / "docs" / "rhian_request.md").read_text()
    assert "more of the base than any week" not in memo


def test_a_ticket_calls_the_flag_rate_up_only_where_the_last_run_shows_it():
    for variant, up in [("base", True), ("midlands_recent", False)]:
        world = world_snapshot(TASK, TASK.variant(variant))
        ticket = next(r for r in csv.DictReader(open(world / "data" / "tickets_export.csv", encoding="utf-8")) if r["key"] == "RET-412")
        assert ("flagged % way up" in ticket["summary"]) is up, (variant, ticket)


def test_the_save_desk_says_who_the_puzzled_customers_are():
    r = people_of("churn_offers").contact("leanne_price", "Who are the customers who ring up puzzled by a save text?")
    assert "save_calls" in told(r) and "never going" in r.reply


def test_revenue_assurance_confirms_a_boundary_without_a_bare_no():
    """Round 15b: asked to confirm 'min_term_end on or before the run date', Helen opened "No." and then
    confirmed it."""
    r = people_of("churn_offers").contact(
        "helen_bain", "The campaign offers only to out-of-term accounts, defined as min_term_end on or before the run "
                      "date - is that the right boundary?")
    assert "minimum_term" in told(r) and not r.reply.startswith("No.") and "min_term_end on or before the run date" in r.reply
