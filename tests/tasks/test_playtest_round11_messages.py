"""Messages strong agents sent in the round-11 playtests that fell short in the asked person's own area,
each sent again to a fresh episode of the variant it was played on (and the base variant): the person
now answers with the topic that holds the answer (docs/playtests.md, round 11)."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of, played_and_base, told

CASES = [
    # (task, variant played, person, message as sent, topic that answers it)
    ("outage_notify", "sample:7639", "ray_tolliver",
     "Hi Ray - I am fixing the outage texting service (ONS), which traces customers from the GIS normal state. Data "
     "says SLV-2101 sections behind R-2101B (SLV2101-04/05/06/07) are actually being fed from ORC-1202 via tie T-101, "
     "all of November. Could you tell me which devices are currently NOT in their GIS normal position (your abnormal "
     "board / switching log), including manual ones, and whether any of them are permanent (waiting on GIS as-builts) "
     "vs temporary?", "standing_transfers"),
    ("helpdesk_tutorial", "sample:5705", "priya_nair",
     "Hi Priya - per Tomasz, since 1 March RT7 handhelds are on Korvex managed service, so I plan to enable the parked "
     "R15-handheld rule routing RT7/handheld/scan gun/KX7 tickets to vendor_korvex at P2 (copier/Ricoh scanner tickets "
     "stay with L1). One specific question: the depot kiosks send a category - what category value(s) does a kiosk "
     "ticket about a handheld/RT7 carry, so I can route those too?", "bounced_handhelds"),
    ("returns_desk", "sample:2480", "kayleigh_dunn",
     "Hi Kayleigh - quick one on the Loomhouse Plus member terms. Shaun suggests that after day 14 from delivery we "
     "refuse returns of occasionwear from customers who have had a grade-C (worn) return before, since our terms only "
     "take back unworn items with tags. Do the Plus member terms give members anything beyond the standard terms for "
     "returns between day 15 and day 28 (or later) that would stop us refusing a Plus member there? Please quote the "
     "wording if you have it.", "terms_plus"),
    ("returns_desk", "sample:2480", "priya_chandra",
     "Thanks Priya, that is clear. One follow-up, on days 15-28 only (UK days after delivery): for an occasionwear "
     "return from a customer with a previous grade-C (worn) return, Shaun proposes refusing it (RET-07, no label) "
     "rather than inspecting, as our own terms only take back unworn items with tags. Is that refusal acceptable for "
     "a standard customer, and is it also acceptable for a Loomhouse Plus member, or must Plus members on days 15-28 "
     "be inspected instead?", "goodwill_terms"),
]


@pytest.mark.parametrize(("task_id", "variant", "person", "message", "topic"),
                         played_and_base(CASES),
                         ids=lambda v: v if isinstance(v, str) and len(v) < 30 else None)
def test_the_message_gets_the_topic_that_answers_it(task_id, variant, person, message, topic):
    res = people_of(task_id, variant).contact(person, message)
    assert topic in told(res), (res.tags, res.reply)


def test_tomasz_asked_where_broken_handhelds_go_says_so_in_his_recap():
    """helpdesk sample:3350: the follow-up on hardware faults got only 'Korvex only do hardware RMAs'."""
    eng = people_of("helpdesk_tutorial", "sample:3350")
    first = eng.contact("tomasz_wierzbicki", "Hi Tomasz - about the parked R15-handheld triage rule. Last week 17 "
                        "RT7/handheld tickets (kiosk category Device/Handheld, or text with RT7/KX7/handheld/scan gun/RF "
                        "gun) landed on L1 at P3 and 14 were bounced to you, taking 25-37h each. Proposal: route those "
                        "straight to field_ops at P2 (no paging, ~3 a day on top of your ~2-3 label P2s). Is field_ops "
                        "at P2 the right queue and priority, or should any of them (e.g. hardware faults) go to "
                        "vendor_korvex instead?")
    assert "handheld_owner" in first.tags, first.tags
    res = eng.contact("tomasz_wierzbicki", "Thanks - will do field_ops/P2, no paging. One follow-up: when a ticket is "
                      "clearly RT7 hardware (swollen battery, cracked screen), should the router send it straight to "
                      "vendor_korvex, or still to you first (you swap from the cage and raise the RMA)?")
    assert "phoned in" in res.reply and "RMA" in res.reply, (res.tags, res.reply)


def test_priya_reviews_the_diff_she_asked_to_see():
    """helpdesk sample:4905: Priya said "send me the diff"; asked to review it, she recapped the bounced tickets
    (she had no topic for reviewing a change). A diff that lists every rule word by word is still heard as the
    bounced-ticket story (docs/playtests.md, round 12)."""
    eng = people_of("helpdesk_tutorial", "sample:4905")
    res = eng.contact("priya_nair", "Here's my diff to config.json as you asked: R15-handheld enabled to the Korvex "
                      "queue at P2, and an R14 copier rule ahead of it. Any objection before I hand over?")
    assert "diff_review" in res.tags and "no objection from me" in res.reply, (res.tags, res.reply)


def test_marcus_asked_next_about_charter_credits_gives_the_charter_not_his_limit_again():
    """billing sample:2539 (round 12): after his $2,500 delegation, asked whether the handler may still post the
    Charter's as-claimed credits, Marcus recapped the delegation. A follow-up to a told topic is now asked of the
    topics not yet told with a lower bar than a first question (a recap is no answer either)."""
    eng = people_of("billing_dispute", "sample:2539")
    first = eng.contact("marcus_feld", "FP-07 says an automated process may only issue credit notes within a limit "
                        "you delegate in writing. Will you delegate a per-invoice limit to the dispute handler for "
                        "credits it backs with a recalculation, and what is the limit?")
    assert first.tags == ["approval_limit"], first.tags
    res = eng.contact("marcus_feld", "Thanks Marcus - one follow-up. The public Customer Charter (Dev, 7 Jan) promises "
                      "disputes of $150 or less are credited as claimed, no investigation. Where the handler "
                      "recalculates and finds the invoice correct, may it still post the as-claimed credit of $150 or "
                      "less under your delegation, or must those go to AR-REVIEW / be answered with the breakdown?")
    assert res.tags == ["small_dispute_policy"] and "$150 or less are credited as claimed" in res.reply, res.tags


def test_priya_holding_rays_redline_says_so_when_asked_about_the_backlog():
    """outage sample:2417 (round 12): with Ray on leave and his redline of the job with her, Priya answered "which
    devices are open or closed" with "the control room's switching log is the record of it" and gave the redline
    only when a second paid message named it."""
    task = load_task("outage_notify")
    ask = ("Priya - November call data says customers in SLV2102-04, -05, -06 and -07 go dark when MBK-3101 devices "
           "trip, and stay ON when CB-2102 trips - all month. That looks like tie T-102 closed and R-2102B open. Is "
           "that a reconfiguration sitting in your as-built backlog (or a known abnormal), and if so exactly which "
           "devices are open/closed?")
    for variant, has_redline in (("sample:2417", True), ("base", False)):
        res = people_of("outage_notify", variant).contact("priya_ramaswamy", ask)
        orders = task.variant(variant).params["switching_orders"]
        assert ("redline" in res.reply and any(so in res.reply for so in orders.values())) == has_redline, res.reply

