"""Messages strong agents sent in the round-13 playtests that were answered "I don't have that detail to hand"
or sent elsewhere in the asked person's own area, each sent again to a fresh episode of the variant it was played
on (and the base variant): the person now answers with the topic that holds the answer (docs/playtests.md,
round 13). Long messages with context around what they ask: their best topic scores high but its lead over the
next, and its share of the message's words, are diluted."""

from __future__ import annotations

import pytest

from tests.tasks.people_of import people_of, played_and_base, told

CASES = [
    # (task, variant played, person, message as sent, topic that answers it)
    ('billing_dispute', 'sample:6926', 'renata_okafor',
     'Hi Renata - the Customer Charter (Dev, 7 Jan) promises disputes of $200 or less are credited as claimed, no investigation. Marcus has delegated automated credits up to $2,500 only where the system shows a recalculation. Should the handler credit <= $200 claims as claimed even where the recalculation shows the invoice is right, i.e. is that an approved goodwill concession from you under FP-07 s.4?',
     'goodwill'),
    ('pager_fatigue', 'sample:5891', 'kasia_wrona',
     'Hi Kasia, about the LBHealthCheckFailed pages. In February every member that really died (INC-4405, INC-4423, INC-4462) showed the same shape: a failed 3/3 event, then a "still failing ... 4 consecutive checks" event about a minute later, and so on. The flaps are failed 1/3, 2/3 or 3/3 followed by LBHealthCheckRecovered within 20-100 s. My plan: flaps become an OPS ticket (for NET-311), and the router pages as soon as a member is "still failing" (consecutive count 4 or more), so a dead member pages about a minute after it drops out, once, with the reminders grouped into that page. Would that be acceptable to you as on-call, or must a member that is out of the pool page immediately?',
     'lb_flaps'),
    ('returns_desk', 'sample:7630', 'shaun_whitaker',
     'Hi Shaun - instead of blocking returns, I want to send requests from customers with qc_c_12m >= 1 (at least one C grade at your bench in 12 months) to "inspect" rather than "approve", so your QC can part-refund worn items instead of the refund going on scan. On the Feb-Mar extract that is ~18 requests a month, 10 of which came back C (Vesper / Marisa Conti occasionwear). Can the bench absorb that, and is >= 1 the right threshold or would you set it differently?',
     'inspection'),
]


@pytest.mark.parametrize(("task_id", "variant", "person", "message", "topic"),
                         played_and_base(CASES),
                         ids=lambda v: v if isinstance(v, str) and len(v) < 30 else None)
def test_the_message_gets_the_topic_that_answers_it(task_id, variant, person, message, topic):
    res = people_of(task_id, variant).contact(person, message)
    assert topic in told(res), (res.tags, res.reply)
    assert "don't have that detail" not in res.reply


def test_marcus_asked_whether_charter_credits_fit_his_delegation_gives_the_charter_rule():
    """billing sample:6926: after his delegation, asked whether the handler may credit the Charter's small disputes
    as claimed, the Controller sent the agent to Dev; his own small-dispute rule and his limit scored 1.42 and 1.43."""
    eng = people_of("billing_dispute", "sample:6926")
    assert "approval_limit" in eng.contact("marcus_feld", 'Hi Marcus - I am changing the dispute handler (FIN-301). Under FP-07 s.2, what credit-note amount per invoice (if any) have you delegated in writing to the automated dispute handler? Anything above it would go to AR-REVIEW for sign-off.').tags
    res = eng.contact("marcus_feld", 'Follow-up on your $2,500 delegation: the published Customer Charter promises disputes of $200 or less are credited as claimed with no investigation. May the handler auto-credit those as claimed (with the recalculation attached in the reason) even where the recalculation finds a smaller or no overcharge, or must those go to AR-REVIEW?')
    assert "small_dispute_policy" in res.tags, (res.tags, res.reply)
    assert "credited as claimed" in res.reply


def test_francesca_asked_which_lines_are_woven_answers_in_her_area():
    """returns sample:7630: the buyer who owns fit sign-off, asked which of a brand's lines count as woven,
    referred the agent to the returns bench manager."""
    eng = people_of("returns_desk", "sample:7630")
    assert "brand_sizing" in eng.contact("francesca_lowe", 'Hi Francesca - Solveig Studio dresses and tailoring are ~130 of our 463 returns since 9 Feb, almost all too_small ("I am a 12 in everything, EU 40 Solveig too small"). size_charts.json has Solveig at EU offset 28 (EU 38 = UK 10), outerwear 26, source "supplier spec SS25". What does Solveig SS26 spec sheet actually say the EU label to UK size is for dresses/tailoring (and knitwear/jersey/outerwear)? I would like to correct the chart offsets.').tags
    res = eng.contact("francesca_lowe", 'Thanks - very clear. To key it right: which Solveig categories count as woven (dresses, tailoring - anything else?), should knitwear and jersey stay on 28, and is the outerwear override of 26 correct?')
    assert {"knit_lines", "category_overrides"} & set(told(res)), (res.tags, res.reply)
    assert "Shaun" not in res.reply


TOMASZ_NUMBERED = "Hi Tomasz - FDE on FIN-301. I found that since 4.0 removed reconcile_subscriptions, a plan change leaves the old line running to month end (double billing). Questions: (1) When rating closes the old line itself, should the old plan end the day before the change's effective date and the new plan start on that date (both inclusive, daily proration on actual days)? (2) The December extract carries changes whose account-local date is already in January (e.g. PC-174561 effective 2026-01-01T01:05:00+10:00) because the warehouse cuts at 00:00 UTC. Should those be billed in December at all, and does the January extract carry them again? (3) Is there anything else the reconciler used to do that rating now needs to do (e.g. same-day double changes, changes back to the start plan)? (4) For dispute handler decisions: is a 'credit' with amount = recalculated overcharge net of existing credit_notes the right shape, and is 'reissue' safe to use at all?"
HANA_NUMBERED = "Hi Hana - FDE on FIN-301. Since 4.0 the engine bills both the old and new plan after a mid-month plan change; I'm fixing rating. (1) What proration convention does the Billing Policy require for a mid-month plan change: daily on actual days in the month, or something else (30-day month, whole-month, etc.)? Which day belongs to which plan - old plan up to the day before the effective date, new plan from the effective date? (2) A plan change whose account-local effective date falls in the next month (e.g. 2026-01-01 01:05 +10:00 showing up in the December extract): which month's invoice should it affect? (3) Overage: still on the plan in force at period end? (4) For correcting already-issued overbilled invoices, confirm: credit note against the original invoice only, never reissue (ar_tools.reissue leaves the original open)?"


@pytest.mark.parametrize("variant", ["sample:2728", "base"])
def test_a_numbered_list_is_heard_question_by_question_with_its_context(variant):
    """billing sample:2728 (round 13b): four numbered questions each. Tomasz answered (1) only: his (2) read
    "Should those be billed in December at all ...?" without the sentence before it that says what "those"
    are. Hana answered (1) only: her (1) is two sentences, so (4) was the fifth question, past the four
    heard one by one. Each question is now heard with the statement before it, and all are heard."""
    eng = people_of("billing_dispute", variant)
    assert {"plan_change_code", "extract_cutoff"} <= set(told(eng.contact("tomasz_wren", TOMASZ_NUMBERED)))
    assert {"proration_policy", "credit_vs_reissue"} <= set(told(eng.contact("hana_kobayashi", HANA_NUMBERED)))


MARISOL_WHEN = 'Hi Marisol - looking at the LendCompass self-employed declines. Since LendCompass moved to API v3 (form LC-API-v3), all 56 self-employed apps in the Feb extract were declined; income_amount on them looks like a MONTHLY net profit (e.g. BCB-2602194 14077 = ~168,900/yr Sched C) and 11 arrive as text like "USD 5,097.00" / "6173.00USD" which the engine reads as $0. Questions: (1) Do you have the LendCompass v3 field spec - is netBusinessIncome in v3 monthly net profit, and are grossAnnualIncome (employed/retired) still annual in v3? (2) Is the currency-suffixed text format expected from v3? (3) Did anything else change in v3 or in OLA 2.0 mapping that you know of? (4) When did v3 go live?'


def test_a_date_the_answer_gives_is_not_hedged_because_the_question_names_its_month():
    """loan sample:1491 (round 13b): asked "(4) When did v3 go live?" in a message about the "Feb extract",
    Marisol opened "I couldn't give you the exact date offhand" and then said "on Feb 2" twice: the answer's
    "Feb 2" was read as the month the question already named."""
    res = people_of("loan_prequal", "sample:1491").contact("marisol_vega", MARISOL_WHEN)
    assert "lendcompass_v3" in told(res), res.tags
    assert "Feb 2" in res.reply and "exact date" not in res.reply, res.reply


CONOR_NUMBERED = "Hi Conor, four quick ones on reaccom wiring: (1) When OCC revises a plan and the console re-sends it whole, are the passengers of the earlier cancelled flights in it again, and does the console re-apply my decisions for them (could it rebook someone twice or move an already-rebooked pax)? (2) In a re-sent plan, does the schedule booked/avail snapshot already include the seats my earlier decisions took? (3) Does Amadeus/the console do anything per PNR (e.g. reject or split if I rebook only part of a booking), or is each pax_id independent? (4) Anything in engine.py you know is wrong or fragile that I should fix while you're here?"
NIAMH_NUMBERED = "Hi Niamh, I'm fixing reaccom's connection check before connecting passengers are auto-rebooked again (the OPS-1987 problems). Specifics please: (1) the filed DUB minimum connecting times by arrival/departure terminal (T1->T1, T1->T2, T2->T1, T2->T2) and for connections onto the US departures (preclearance) - the tool still uses the 2023 wall chart / a flat 40; (2) how many extra minutes on top of the MCT OCS needs for a passenger with an assistance code (WCHR/WCHS/WCHC, BLND, DEAF, DPNA) on a Dublin connection; (3) to avoid gate offloads, is cap minus booked the right count of seats I can fill?"


@pytest.mark.parametrize("variant", ["sample:7171", "base"])
def test_numbered_asks_are_heard_one_by_one(variant):
    """irrops sample:7171 (round 13b): Conor got four numbered questions, every sentence a question, and said
    "I don't have that detail to hand" (a message of questions only was heard whole); Niamh got three numbered
    asks in one sentence ("(1) the filed DUB MCTs ...; (2) how many extra minutes ...; (3) is cap minus booked
    ...?") and answered only the wheelchair minutes."""
    eng = people_of("irrops_rebook", variant)
    assert "revised_plans" in told(eng.contact("conor_hegarty", CONOR_NUMBERED))
    got = set(told(eng.contact("niamh_costigan", NIAMH_NUMBERED)))
    assert {"mct_station", "prm"} <= got, got


PRIYA_THREAD = [('tomasz_wierzbicki', "Hi Tomasz - I'm looking at depot tickets in the triage router. Last week ~24 RT7/handheld tickets (kiosk cat Device/Handheld, phone, email: 'profile missing', 'logs in then drops out', cert error/no wifi, 'not compliant') all landed with L1 (or network) at P3, sat ~8-10h, then were reassigned to you and re-joined your queue at P3 - 25-39h end to end with 2-6 pickers stopped each. Changelog says you asked that R15-handheld not 'just dump them on us'. Specific questions: 1) Should RT7/handheld tickets route straight to field_ops, and at what priority - P2 (no paging)? Or only some of them? 2) At ~4-6 handheld tickets/day plus ~3 Zebra P2s, does that fit your ~7 P2/day, or should some go P3? 3) Anything that should go to vendor_korvex directly (e.g. hardware/battery swell), or do you always triage first? 4) Anything that must NOT come to you (e.g. copier/MFP 'scanner' tickets at HO)?"), ('priya_nair', "Hi Priya - you review the triage rules, so checking before I change them. Tomasz (Depot IT) confirmed RT7 handheld tickets (enrolment/profile/cert/log-on; also called HHT, RF gun, RT-7, hand held) are theirs: field_ops at P2, no paging; hardware RMAs they raise themselves. Plan: 1) enable R15-handheld -> field_ops/P2, matching those words in text, plus a rule on kiosk category 'Device/Handheld' - is that kiosk category reliable enough to route on? 2) 'scanner' is ambiguous (HO Ricoh copier scanners are yours). I'd add an optional 'sites' filter to rules in router.py so 'scanner' only routes to Depot IT for CRB/HLN/WMR tickets - OK to make that small code change, or would you rather keep it config-only? 3) Moira asked for all depot tickets as P1 - I'm not doing that (it would page on-call for passwords etc.). Any objection? 4) Any other rule constraint I should know about?"), ('priya_nair', "Priya - diff for review, as asked (tests pass, 9/9). config.json, order: R10-outage (unchanged, still first) -> R14-handheld-kiosk: field category matches 'Device/Handheld' -> field_ops/P2 -> R15-handheld (enabled): text matches rt7, rt-7, ' rt 7', hht, rf gun, rf-gun, hand held, hand-held, handheld, scan gun -> field_ops/P2 -> R16-depot-scanner: text 'scanner' but only for sites CRB/HLN/WMR -> field_ops/P2 -> then R20-login, R30-network etc unchanged. router.py: rules may carry optional 'sites' list (ticket site must be in it); text haystack gets a leading space so ' rt 7' hits at the start of a subject. Replaying last week's log: all 24 handheld tickets (incl. 'cant log in'/'cert error then no wifi'/'white screen' kiosk ones) go to field_ops/P2; zero HO tickets change, Ricoh/copier 'scanner' stays with the desk; no new P1s. New tests cover each rule, the copier case, R10 precedence and no depot P1. CHANGELOG entry names you as reviewer. OK to ship?")]


@pytest.mark.parametrize("variant", ["sample:3806", "base"])
def test_the_reviewer_sent_the_diff_she_asked_for_gives_her_verdict(variant):
    """helpdesk sample:3806 (round 14): Priya, the rules owner, asked to see the diff; sent it with "OK to ship?",
    she said "I don't have that detail to hand - Tomasz would have it". Her review topic ("whether the rule owner
    objects or signs it off") was not read as a sign-off topic, and asked again for a verdict she had given, a
    follow-up went to another of her topics. She now gives her verdict, again if need be."""
    eng = people_of("helpdesk_tutorial", variant)
    replies = [eng.contact(to, m) for to, m in PRIYA_THREAD]
    assert "diff_review" in told(replies[-1]), replies[-1].tags
    assert "No objection" in replies[-1].reply and "don't have that detail" not in replies[-1].reply
