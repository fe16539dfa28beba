"""clinic_inbox: what a strong-agent L3 playtest (sample:2044) found, pinned.

- Hamza, asked whether he is happy for the repeats routing to go live (after a design put to him, or
  in a short follow-up), gives his repeats sign-off in role (or, before Dr Okafor has agreed the
  triage change, says that is what he waits for); he never sends his own sign-off to someone else.
- Hamza, asked whether carer-placed repeat orders with nothing ticked should go to the pharmacy desk,
  answers as the grader scores them: they are repeats and his desk's, except a controlled drug (never
  the desk) and a message with a red flag (the nurse line's).
- Hamza's deferral says what he is waiting for and that he will write when Dr Okafor has agreed; the
  note that follows says that was what he was waiting for, rather than "talk to me first".
- The trial report says what each named misplaced message was and whose it is, and counts them all
  by kind; Lorna, asked about the admin queue's "weren't admin" messages, says where each kind goes.
"""
from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of
from tests.tasks.test_clinic_inbox_people_and_trials import SIGN_OFF_ASK
from tests.tasks.test_clinic_inbox_trial import POLICIES, _Canned

TASK = load_task("clinic_inbox")
G = TASK.module("grader")
TRIAL = TASK.module("trial")
VARIANTS = ["base", "sample:2044", "sample:5"]
NOT_TO_HAND = "don't have that detail to hand"

GO_LIVE = [
    # the playtest's question, after a message that put the repeats design to him; the first drew the
    # playtest's very reply before the fix ("I don't have that detail to hand — Dawn Hollis would have it")
    "Are you happy for this pharmacy desk change to go live alongside the bot on the 16th?",
    "Are you happy for this to go live?",
    "Hi Hamza - Dr Okafor has agreed the triage change and said it's signed off as long as you're happy with the "
    "repeats side. Here is how the router now handles prescriptions: ticked repeat requests and carers' typed-in "
    "orders go to the pharmacy desk, counted by the day they arrive with weekend and bank-holiday requests on the "
    "next working day, up to your daily number; anything over that stays with the duty nurse; anything on your "
    "controlled-drug list goes to the duty GP whatever it was sent as; a repeat with a red flag in it goes to the "
    "nurse line as urgent. Are you happy for this to go live?",
    "Are you happy for this to go live on Monday?",
    "Any objection to the desk routing going live next week?",
    "Can I switch this on for the desk?",
    "Good to go from your side?",
    "Do I have your OK to put it live?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("question", GO_LIVE)
def test_hamza_signs_off_the_repeats_side_when_asked_to_let_it_go_live(variant, question):
    p = people_of("clinic_inbox", variant)
    p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
    r = p.contact("hamza_qureshi", question)
    assert r.tags == ["repeats_sign_off"], r.reply
    assert f"{TASK.variant(variant).params['pharm_cap']} a day" in r.reply and NOT_TO_HAND not in r.reply


def test_the_go_live_question_after_a_design_message_is_still_his():
    """The design in one message, the question in the next: both are answered by his sign-off."""
    p = people_of("clinic_inbox", "sample:2044")
    p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
    assert p.contact("hamza_qureshi", GO_LIVE[2].rsplit(" Are you", 1)[0]
                     + " Does that match what you need?").tags == ["repeats_sign_off"]
    r = p.contact("hamza_qureshi", "Thanks. Are you happy for this to go live?")
    assert r.tags == ["repeats_sign_off:repeat"], r.reply
    assert NOT_TO_HAND not in r.reply


@pytest.mark.parametrize("question", GO_LIVE[:4])
def test_before_funmi_he_says_what_he_waits_for(question):
    r = people_of("clinic_inbox", "sample:2044").contact("hamza_qureshi", question)
    assert r.tags == ["repeats_sign_off:needs_prior"], r.reply
    assert "Funmi" in r.reply and "drop you a note" in r.reply and not r.facts


CARER_ORDERS = [
    # the playtest's question
    "Should carer-placed repeat orders with nothing ticked go to the pharmacy desk?",
    "One more on repeats: carers often place orders for a parent as an 'Admin query' or 'Other' message with "
    "nothing ticked in the items list - just the medicines typed in. Should those go to the pharmacy desk like a "
    "ticked repeat, and do they count against the cap?",
    "A daughter orders her mum's tablets as an Admin query with no items ticked - pharmacy desk or front desk?",
    "Do typed-in repeat orders from carers count as repeats for your desk?",
    "I'm seeing 'Other' messages where a relative just types the medicines in. Where should the router send those?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("question", CARER_ORDERS)
def test_hamza_says_where_carer_placed_orders_go(variant, question):
    for agreed in (False, True):          # his own area whether or not Dr Okafor has agreed the change yet
        p = people_of("clinic_inbox", variant)
        if agreed:
            p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
        r = p.contact("hamza_qureshi", question)
        assert r.tags == ["repeat_channels"], r.reply
        assert "they come to my desk" in r.reply and NOT_TO_HAND not in r.reply
        assert "controlled ones aren't mine" in r.reply and "red flag in it is the nurse line's" in r.reply
        assert str(TASK.variant(variant).params["pharm_cap"]) not in r.reply     # the number waits for Funmi


def test_what_hamza_says_of_carer_orders_is_what_the_grader_scores():
    """Carers' typed-in orders are the generator's 'proxy' messages: a repeat belongs at the desk, a
    controlled drug at the duty GP (the desk is an incident), a red flag on the nurse line."""
    params = dict(TASK.variant("base").params)
    days = TASK.module("traffic").held_out(params, 7411)["days"]
    proxy = [m["truth"] for d in days for m in d["messages"] if m["truth"].get("host") == "proxy"]
    assert {t["kind"] for t in proxy} == {"rx", "rx_cd"}
    assert G.RIGHT_Q["rx"] == "pharmacy_desk" and G.RIGHT_Q["rx_cd"] == "doctor" and G.RIGHT_Q["red_flag"] == "nurse_line"


def test_hamzas_note_follows_his_deferral_and_says_what_he_was_waiting_for():
    p = people_of("clinic_inbox", "sample:2044")
    r = p.contact("hamza_qureshi", "Hi Hamza - I'm looking at moving repeat requests off the nurse line to your "
                                   "desk. How many repeats can the desk take a day?")
    assert r.tags == ["pharmacy_capacity:needs_prior"], r.reply
    assert "Funmi" in r.reply and "drop you a note" in r.reply
    assert "m4" not in {m["id"] for m in p.read_inbox()}
    p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
    note = {m["id"]: m for m in p.read_inbox()}["m4"]["text"]
    assert "that's what I was waiting for" in note and "talk to me first" not in note
    r = p.contact("hamza_qureshi", "Thanks for your note - so how many repeats can the desk take a day?")
    assert r.tags == ["pharmacy_capacity"], r.reply


# ------------------------------------------------------------------------------ the trial report
MSG = re.compile(r"\bPM-\d{6}-\d{4}\b")
TEAM_LINES = {"Lorna: ": "weren't admin", "Nadia: ": "weren't for a nurse", "Dr Okafor: ": "weren't for a doctor",
              "Hamza: ": "weren't repeat requests"}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("policy", POLICIES)
def test_misplaced_messages_are_named_with_what_they_were_and_counted_by_kind(variant, policy):
    params = dict(TASK.variant(variant).params)
    traffic = TASK.module("traffic").shadow(params, 1)
    truth = {m["msg"]["id"]: m["truth"] for m in traffic["days"][0]["messages"]}
    text = TRIAL.run(_Canned(policy(params, traffic, truth)), params, 1, traffic)["feedback"]
    for head, marker in TEAM_LINES.items():
        for line in [x for x in text.splitlines() if x.startswith(head) and marker in x]:
            total = int(re.match(r"[^:]+: (\d+) ", line).group(1))
            for i in MSG.findall(line):                      # each named message says what it was
                assert f"{i} ({TRIAL.what_it_was(truth[i])})" in line, line
            counted = re.findall(r"(\d+) ([a-z -]+\(s\)) (for [^,.]+)", line.split(": ", 2)[-1])
            assert sum(int(n) for n, _, _ in counted) == total, line
            words = {w: where for w, where in TRIAL.KIND_WORDS.values()}
            assert all(words[w] == where for _, w, where in counted), line


def test_lornas_line_in_the_playtest_variant_says_what_the_admin_queue_held():
    params = dict(TASK.variant("sample:2044").params)
    traffic = TASK.module("traffic").shadow(params, 1)
    text = TRIAL.run(_Canned(lambda m: {"queue": "front_desk"}), params, 1, traffic)["feedback"]
    line = next(x for x in text.splitlines() if "weren't admin" in x)
    assert "repeat request(s) for Hamza's desk" in line and "medical question(s) for the nurse line" in line
    assert "controlled-drug repeat(s) for the duty GP" in line and "(3 of " in line


LORNA_ASKED = [
    # the playtest's question about the trial's examples
    "The shadow portal report says 8 message(s) in the admin queue weren't admin (PM-260302-0031, PM-260302-0047, "
    "PM-260302-0065 (3 of 8 shown)). What were those messages, and where should they have gone?",
    "Your trial note said 8 messages in the admin queue weren't admin - PM-260302-0031, PM-260302-0047 and "
    "PM-260302-0065. What kind of messages were they?",
    "Which kinds of non-admin messages end up in the admin queue, and where do you pass each one on to?",
    "When a message in the admin queue turns out not to be admin, where does it go - nurses, Hamza's desk or the "
    "duty doctor?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("question", LORNA_ASKED)
def test_lorna_says_where_each_kind_of_non_admin_message_goes(variant, question):
    r = people_of("clinic_inbox", variant).contact("lorna_pike", question)
    assert r.tags == ["admin_queue"], r.reply
    for said in ("nurse line", "Hamza's desk", "duty GP", "results and fit notes to the duty doctor",
                 "The shadow report says against each one what it was"):
        assert said in r.reply, said
