"""clinic_inbox: what playtests showed people and trial days getting wrong, pinned.

- Hamza gives the desk's capacity once Dr Okafor has signed off the triage change (her decisions),
  not only once someone has told the agent the red-flag standard; and a plain question about his own
  desk's daily number is never "I can't think who would".
- Dr Okafor's sign-off waits on Hamza being happy with the repeats side: asked to agree a repeats
  design, Hamza answers in role (his daily number, typed-in repeats, CDs and red flags never at the
  desk), never "I don't have that detail to hand"; not before Dr Okafor is on board.
- Dr Okafor signs off the approved templates going out automatically to purely admin messages and
  says what a purely admin message gets while the practice is closed (both); Kerry says the same.
- Kerry owns the out-of-hours wording and answers which reply a purely admin message gets while the
  practice is closed (template, then the safety-netting wording, in one reply); Dr Okafor says the same
  when it is asked inside her sign-off; the templates doc and the out-of-hours policy both say it.
- Hamza's controlled-drug list, held back for a day, arrives in the inbox: no second paid contact.
- A trial day is a day of the shadow portal and takes a day of customer time: trial day n is the
  portal day 2 March + (n - 1), named in the report, and the clock after it is past that day.
"""
from __future__ import annotations

import datetime as dt
import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import DEFAULT_NO_ONE, People
from fdegym_env.people.routers import make_router
from tests.tasks.test_clinic_inbox_audit import _Canned  # a route function as the delivered system

TASK = load_task("clinic_inbox")
VARIANTS = ["base", "pharmacy_short", "sample:372", "sample:5"]


def _people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


SIGN_OFF_ASK = ("Dr Okafor, following SEA-2025-14 and PM-260302-0117: the router will read subject and body against "
                "the current red-flag list, matched generously, red flags to the nurse line as urgent; anything with "
                "symptoms, medicines or a second ask goes to a person. Are you happy to sign that design off?")


@pytest.mark.parametrize("variant", VARIANTS)
def test_hamza_gives_capacity_once_funmi_has_signed_off(variant):
    p = _people(variant)
    r = p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
    assert "triage_decisions" in r.tags, r.reply
    r = p.contact("hamza_qureshi", "Dr Okafor has signed off the triage change. How many repeat requests can the "
                                   "pharmacy desk take per working day?")
    assert r.tags == ["pharmacy_capacity"], r.reply
    assert "F_pharmacy_capacity" in r.facts
    assert str(TASK.variant(variant).params["pharm_cap"]) in r.reply


def test_hamza_still_waits_for_funmi_before_anything_clinical_is_agreed():
    p = _people("base")
    r = p.contact("hamza_qureshi", "How many repeat requests can the pharmacy desk take per working day?")
    assert r.tags == ["pharmacy_capacity:needs_prior"] and "Funmi" in r.reply


def test_hamzas_inbox_offer_arrives_only_once_funmi_is_on_board():
    p = _people("base")
    assert "m4" not in {m["id"] for m in p.read_inbox()}
    p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
    assert "m4" in {m["id"] for m in p.read_inbox()}
    r = p.contact("hamza_qureshi", "Thanks for your note - what's the desk's daily limit for repeats?")
    assert r.tags == ["pharmacy_capacity"], r.reply


DESK_QUESTIONS = [
    "Dr Okafor has now agreed the triage change as long as you're OK with repeats. Our shadow run left a pile of "
    "repeats over at your desk at close. How many repeat requests can the desk clear in a working day, so I can cap "
    "it and keep the rest with the nurse line?",
    "What's the daily throughput of the repeats desk?",
    "Is there one figure for how many repeats you and Becca get through each weekday, or does it depend who's in?",
]


@pytest.mark.parametrize("variant", ["base", "sample:372"])
@pytest.mark.parametrize("question", DESK_QUESTIONS)
def test_a_question_about_the_desks_daily_number_is_hamzas(variant, question):
    p = _people(variant)
    p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
    r = p.contact("hamza_qureshi", question)
    assert r.tags == ["pharmacy_capacity"], r.reply
    assert DEFAULT_NO_ONE not in r.reply


REPEATS_SIGN_OFF = [
    "Thanks Hamza - your list is in exactly (Sch 2/3 + Sch 4 benzos -> duty GP; zopiclone, zolpidem, co-codamol "
    "stay with you). Dr Okafor has signed off on condition you're happy with the repeats side, so one check: the "
    "router sends every 'Repeat prescription' portal message to the desk, capped at 70 per working day counted by "
    "the day it comes in (weekend and bank-holiday requests count on the next working day, so Good Friday-Easter "
    "Monday land on Tue 7 Apr), overflow beyond 70 to the nurse line, red flags to the nurse line as urgent. Are you "
    "happy with that as it stands?",
    "are you OK with the desk taking repeats up to 70 a day with overflow to the nurse line?",
    "Funmi's signed off the triage side. For repeats I'm planning: repeat template messages to the pharmacy desk, "
    "max 25 per working day, anything over that back to the nurse line. Does that work for you?",
    "Hamza, can you confirm you're happy for the router to send repeat requests to your desk with a daily cap of 70 "
    "and overflow to the duty nurse? Dr Okafor needs your OK before she signs off.",
]


@pytest.mark.parametrize("variant", ["base", "sample:4", "sample:5"])
@pytest.mark.parametrize("question", REPEATS_SIGN_OFF)
def test_hamza_answers_a_repeats_sign_off_in_role(variant, question):
    p = _people(variant)
    p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
    r = p.contact("hamza_qureshi", question)
    assert r.tags == ["repeats_sign_off"], r.reply
    cap = TASK.variant(variant).params["pharm_cap"]
    assert f"{cap} a day" in r.reply and "F_pharmacy_capacity" in r.facts
    for said in ("Admin query", "duty nurse", "CD list", "red flag", "CHANGELOG"):
        assert said in r.reply


def test_hamza_agrees_nothing_on_repeats_before_funmi():
    r = _people("base").contact("hamza_qureshi", REPEATS_SIGN_OFF[1])
    assert r.tags == ["repeats_sign_off:needs_prior"] and "Funmi" in r.reply and not r.facts


@pytest.mark.parametrize("question", [
    "Are you happy for pure-admin portal messages to get an automatic template reply? And out of hours, which one "
    "do they get - the template or the safety-netting wording?",
    "Two sign-offs please: the approved HMP templates sent automatically to single-ask admin messages only, and for "
    "those same admin messages arriving when we're closed - template, out-of-hours reply, or both?",
])
def test_funmi_signs_off_automatic_templates_and_says_what_closed_admin_messages_get(question):
    p = _people("base")
    r = p.contact("dr_funmi_okafor", question)
    assert r.tags == ["automated_replies"], r.reply
    assert "signed off by me" in r.reply and "gets both" in r.reply


def test_kerry_says_the_safety_netting_goes_with_a_template_out_of_hours():
    p = _people("base")
    r = p.contact("kerry_ashdown", "A change-of-address message comes in at 10pm. Does it get the address template, "
                                   "the out-of-hours reply, or both?")
    assert r.tags == ["ooh_reply"], r.reply
    assert "never the template on its own" in r.reply


CLOSED_ADMIN_QUESTIONS = [
    "Before you go on leave: a patient asks how to register their baby at 10pm on a Sunday. The bot would answer "
    "with the registration template (HMP-T05) - but we can only put one reply on a message. Does it get the "
    "template, your safety-netting text, or both, and in which order?",
    "Thanks for the rota. One thing the documents disagree on: the templates doc says its texts are the only ones "
    "that may go out unread, your policy says every message while we're closed gets the safety-netting reply. For "
    "a change-of-address message on a Saturday, which wins?",
    "If the bot has already answered an overnight admin-only message with one of the HMP templates, does it still "
    "need the out-of-hours wording?",
]


@pytest.mark.parametrize("variant", ["base", "ooh_text_2026", "sample:6620"])
@pytest.mark.parametrize("question", CLOSED_ADMIN_QUESTIONS)
def test_kerry_answers_what_a_closed_admin_message_gets(variant, question):
    p = _people(variant)
    r = p.contact("kerry_ashdown", question)
    assert r.tags == ["ooh_reply"], r.reply
    assert "One reply: the template first, then the safety-netting wording" in r.reply
    assert DEFAULT_NO_ONE not in r.reply and "don't have that detail" not in r.reply


def test_funmi_answers_the_closed_admin_question_inside_her_sign_off():
    p = _people("base")
    r = p.contact("dr_funmi_okafor", SIGN_OFF_ASK + " Templates go only to single-ask admin messages. And while "
                                                   "we're closed, does such a message get its template, the "
                                                   "out-of-hours reply, or both?")
    assert "triage_decisions" in r.tags, r.reply
    assert "When we're closed, that admin message gets its template with Kerry's safety-netting wording" in r.reply


@pytest.mark.parametrize("variant", ["base", "ooh_text_2026"])
def test_the_documents_say_a_template_out_of_hours_carries_the_safety_netting(variant):
    from fdegym_env.core.workspace import world_snapshot
    world = world_snapshot(TASK, TASK.variant(variant))
    templates = (world / "docs/templates/auto_reply_templates.md").read_text()
    ooh = (world / "docs/policies/ooh_safety_netting.md").read_text()
    assert "never the template on its own" in " ".join(templates.split())
    assert "the template comes first and this wording follows it in the same reply" in " ".join(ooh.split())


@pytest.mark.parametrize("variant", ["base", "cd_sched4", "sample:6620", "sample:5"])
def test_hamzas_cd_list_arrives_in_the_inbox_without_asking_again(variant):
    p = _people(variant)
    r = p.contact("hamza_qureshi", "Which repeat items can't the pharmacy desk issue under protocol and must go "
                                   "to a GP - which schedules of controlled drugs?")
    assert r.tags == ["cd_rule:stalled"], r.reply
    assert "ask me again" not in r.reply.lower()
    assert "m5" not in {m["id"] for m in p.read_inbox()}
    p.wait(21)
    sent = {m["id"]: m for m in p.read_inbox()}
    assert "m5" in sent and sent["m5"]["from"] == "hamza_qureshi"
    assert TASK.variant(variant).params["cd_answer_hamza"] in sent["m5"]["text"]
    assert "F_cd_rule" in p.known
    assert [e["to"] for e in p.ledger if e["to"] == "hamza_qureshi"] == ["hamza_qureshi"]   # one paid contact


# ----------------------------------------------------------------------------------------- trial clock


@pytest.mark.parametrize("variant", ["base", "sample:372"])
def test_a_trial_day_takes_a_day_and_reports_a_day_that_is_over(variant):
    params = dict(TASK.variant(variant).params)
    p = _people(variant)
    assert p.trial_terms()["advance_hours"] == 24
    shown = []

    def run_day(day):
        traffic = TASK.module("traffic").shadow(params, day)
        out = TASK.module("trial").run(_Canned(lambda m: {"queue": "front_desk"}), params, day, traffic)
        shown.append((traffic["days"][0]["date"], out["feedback"]))
        return out

    for n in (1, 2, 3):                      # as early as they can be run: back to back from the first morning
        started = p.clock.now()
        p.trial(run_day)
        date, feedback = shown[-1]
        day = dt.date.fromisoformat(date)
        assert day <= started.date(), f"trial day {n} shows {day}, run on {started}"
        assert p.clock.now() >= dt.datetime.combine(day + dt.timedelta(days=1), dt.time()), (n, p.clock.now())
        assert f"Shadow portal, {day:%a %d %b}:" in feedback
        assert set(re.findall(r"PM-(\d{6})-", feedback)) <= {f"{day:%y%m%d}"}, feedback
        r = p.contact("lorna_pike", "What time does the front desk start on the admin queue?")
        assert dt.datetime.strptime(r.at + " 2026", "%a %d %b %H:%M %Y").date() > day


def test_shadow_message_ids_people_name_are_what_they_say():
    """The shadow portal mirrors the live one: PM-260302-0117 (Nadia's chest pain under a change of
    address) is a red flag on the trial day that carries it, in every variant."""
    for variant in ["base", "rf_list_2026", "sample:372", "sample:5", "sample:99"]:
        msgs = TASK.module("traffic").shadow(dict(TASK.variant(variant).params), 1)["days"][0]["messages"]
        known = [m for m in msgs if m["msg"]["id"] == "PM-260302-0117"]
        assert known and all(m["truth"]["kind"] == "red_flag" for m in known), variant
