"""The default ``semantic`` router and the engine's honest replies: deterministic across processes,
quoted evidence meets its gate, referrals only to someone who answers and never in a circle, a
person's own area never called "not my area", bad input answered in character and charged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people import People, SemanticRouter, make_router
from fdegym_env.people.engine import DEFAULT_NO_ONE, DEFAULT_NOT_TO_HAND
from fdegym_env.people.spec import validate_people

ROOT = Path(__file__).resolve().parents[2]


def _spec(task: str = "news_incident"):
    t = load_task(task)
    return t.people_spec(t.variant("base"))


def test_semantic_is_the_default_router_of_every_shipped_task():
    from fdegym_env.core.registry import list_tasks
    assert {load_task(t).router for t in list_tasks()} == {"semantic"}
    assert isinstance(make_router("semantic", _spec()["people"]), SemanticRouter)


def test_model_is_loaded_once_per_process():
    from fdegym_env.people.semantic_router import load_model
    assert load_model() is load_model()


_PROBE = """
import json, sys
from fdegym_env.people.routing_report import find_heldout_sets, evaluate_heldout
out = {}
for name, spec, hset in find_heldout_sets(sys.argv[1], "blind7"):
    r = evaluate_heldout(spec, hset, "semantic", name)
    out[name] = [row["tags"] for row in r["rows"]]
print(json.dumps(out, sort_keys=True))
"""


@pytest.mark.slow
def test_same_routing_in_two_processes_with_different_hash_seeds():
    outs = []
    for seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        p = subprocess.run([sys.executable, "-c", _PROBE, str(ROOT / "tests")], env=env, capture_output=True,
                           text=True, timeout=600, cwd=ROOT)
        assert p.returncode == 0, p.stderr[-2000:]
        outs.append(json.loads(p.stdout))
    assert outs[0] == outs[1]
    assert sum(len(v) for v in outs[0].values()) >= 250


def test_quoted_evidence_meets_the_gate_it_quotes():
    spec = _spec()
    people = People(spec, make_router("semantic", spec["people"]))
    first = people.contact("legal_counsel", "How do you want court stories handled before they publish?")
    assert first.tags == ["legal_scope:gated"]
    res = people.contact("legal_counsel", "Kestrel KNA/260407/0190-C1, slug widdicombe court, appears in court "
                         "accused of stabbing a man outside a pub. How do you want that kind of story handled?")
    assert res.tags == ["legal_scope"] and "F_legal_scope" in res.facts


TOY = {
    "people": [
        {"id": "ann", "name": "Ann Lee", "role": "Billing lead", "blurb": "Owns invoices and refunds.",
         "fallback": "Not billing - Bo would know.", "cost": 0.01,
         "topics": [{"id": "refunds", "about": "when refunds of disputed invoices are paid",
                     "answer": "Refunds go out within five working days of approval."}]},
        {"id": "bo", "name": "Bo Chen", "role": "Warehouse manager", "blurb": "Runs the warehouse and shipping.",
         "fallback": "Ask Ann.", "cost": 0.02,
         "topics": [{"id": "shipping", "about": "when parcels ship from the warehouse, carrier cut-off times",
                     "answer": "Parcels ship the same day if packed before the 3pm carrier cut-off."}]},
    ],
    "replies": {"refer_elsewhere": True},
}


def _toy():
    spec = validate_people(json.loads(json.dumps(TOY)), "toy")
    return People(spec, make_router("semantic", spec["people"]))


def test_referral_names_only_someone_whose_topic_answers():
    people = _toy()
    res = people.contact("ann", "What is the carrier cut-off time for parcels shipped from the warehouse?")
    assert res.tags == ["dont_know", "refer:bo"] and "Bo Chen" in res.reply
    assert people.contact("bo", "What is the carrier cut-off time for parcels?").tags == ["shipping"]


def test_no_circle_and_no_invented_referral():
    people = _toy()
    people.referred.add(("bo", "ann"))          # Bo already sent the agent to Ann
    res = people.contact("ann", "What is the carrier cut-off time for parcels shipped from the warehouse?")
    assert not any(t.startswith("refer:") for t in res.tags)
    assert "Bo" not in res.reply                 # nor the fallback's scripted "Bo would know"
    res = people.contact("bo", "Which stadium hosts the cup final next spring?")
    assert res.tags == ["dont_know"] and res.reply in (DEFAULT_NO_ONE, "Ask Ann.")
    assert res.reply == DEFAULT_NO_ONE           # the fallback names Ann, who does not answer it


def test_own_area_is_never_called_someone_elses():
    people = _toy()
    res = people.contact("ann", "How many invoices did we refund to Globex in November, and what was the total?")
    assert res.tags == ["refunds"] or (res.tags[0] == "dont_know" and "Not billing" not in res.reply)
    res = people.contact("ann", "Which disputed invoices are over a year old?")
    if res.tags == ["dont_know"]:
        assert res.reply == DEFAULT_NOT_TO_HAND


@pytest.mark.parametrize("message", [
    "", "   ", "x" * 100_000, "\x00\x01\xff\ufffd binary \x7f junk", "🙂🔥💸 ???",
    "¿Cuándo se pagan los reembolsos de las facturas en disputa?", "Bo, when do parcels ship from the warehouse?",
    "refunds " * 20_000,
], ids=["empty", "blank", "100KB", "binary", "emoji", "spanish", "other_persons_topic", "repeated"])
def test_bad_input_gets_an_in_character_reply_and_is_charged(message):
    people = _toy()
    res = people.contact("ann", message)
    assert res.error is None and isinstance(res.reply, str) and res.reply.strip()
    assert res.cost == pytest.approx(0.01) and people.contact_cost == pytest.approx(0.01)
    assert people.asked["ann"] == 1


def test_bad_input_through_the_env_is_an_observation_never_an_exception():
    import gymnasium as gym

    import fdegym_env  # noqa: F401
    env = gym.make("FDEGym/news_incident-v0", sandbox="none")
    env.reset(seed=0)
    for msg in ("", "\x00\xff" * 10, "日本語のメッセージです", "z" * 100_000):
        obs, _r, _term, _trunc, _info = env.step({"tool": "contact", "to": "legal_counsel", "message": msg})
        text = obs["text"] if isinstance(obs, dict) else obs
        assert isinstance(text, str) and text.strip()
    env.close()


def test_examples_are_checked_and_used():
    spec = json.loads(json.dumps(TOY))
    spec["people"][0]["topics"][0]["examples"] = "not a list"
    with pytest.raises(ValueError, match="examples"):
        validate_people(spec, "toy")
    spec["people"][0]["topics"][0]["examples"] = [
        "A customer disputed an invoice last week and we agreed to refund it - how long until the money is back?"]
    spec = validate_people(spec, "toy")
    r = make_router("semantic", spec["people"])
    assert r.semantic_scores(r.people["ann"], "We agreed to refund a disputed invoice; how long until the money is back?")[0] > 0.8


def test_llm_router_sees_answers_unless_about_only(tmp_path):
    pytest.importorskip("openai")
    from fdegym_env.people.llm_router import LLMRouter
    from fdegym_env.testing.fake_llm import FakeLLMServer, say
    spec = validate_people(json.loads(json.dumps(TOY)), "toy")
    ann = spec["people"][0]
    prompts = {}
    for about_only in (False, True):
        with FakeLLMServer([say('{"topics": ["refunds"], "gates_met": {}}')]) as srv:
            r = LLMRouter(base_url=srv.base_url, model=srv.model, api_key="x", cache_dir=tmp_path / str(about_only),
                          about_only=about_only)
            topics, _ = r.route(ann, "When are refunds paid?", [])
            assert [t["id"] for t in topics] == ["refunds"]
            prompts[about_only] = srv.requests[0]["messages"][0]["content"]
    assert "five working days" in prompts[False]
    assert "five working days" not in prompts[True] and "when refunds of disputed invoices are paid" in prompts[True]


def test_a_message_with_two_questions_is_heard_question_by_question():
    """A person reads each question of a message: two asks, each in one of their topics, both answered,
    though the whole message matches neither well enough."""
    from fdegym_env.people.semantic_router import SemanticRouter
    person = {"id": "aileen", "topics": [
        {"id": "authority", "about": "the delegated claims authority matrix: who may approve paying a claim, and "
                                     "whether automated straight-through payment without an adjuster is allowed",
         "answer": "Automated payment needs a change to the authority matrix signed by the chief claims officer."},
        {"id": "ack_rule", "about": "the statutory deadline to acknowledge a new claim in writing",
         "answer": "Fifteen calendar days from first notice; the acknowledgement letter must go out by then."}]}
    r = SemanticRouter([person])
    msg = ("Picking up the intake engagement for the claims VP, I have gone through the manual, last month's "
           "backlog, the PhotoDrop rollout notes and the queue extract, and written a few notes on each. "
           "First: can we pay small claims automatically with no adjuster under the current authority matrix? "
           "Second: how many days do we have to acknowledge a new claim in writing?")
    got = [t["id"] for t in r.route(person, msg, [])[0]]
    assert set(got) == {"authority", "ack_rule"}, got


def test_an_abbreviation_does_not_end_the_question():
    """A playtest asked "What other wordings ... (e.g. KILL, 'withdrawn'), and do they always name the slug?":
    split at "e.g.", the question read as "KILL, 'withdrawn'), and do they ..." alone."""
    from fdegym_env.people.semantic_router import split_message
    q = "Kills come as advisories. What other wordings do they use (e.g. KILL, 'withdrawn'), and do they name the slug?"
    assert split_message(q)[1] == "What other wordings do they use (e.g. KILL, 'withdrawn'), and do they name the slug?"


def test_a_request_without_a_question_mark_is_an_ask():
    """A playtest asked Niamh "I need the filed DUB minimum connecting times ... for each case: ... Also: do
    passengers with wheelchair SSRs need a longer connection for OCS, and how much?" and got only the
    wheelchair answer: the request, with no "?", was read as context. It is an ask like the question."""
    from fdegym_env.people.semantic_router import questions, split_message
    msg = ("Hi Niamh - I'm fixing reaccom so it can rebook connecting passengers at DUB. I need the filed DUB "
           "minimum connecting times the tool must respect, in minutes, for each case: T1->T1, T1->T2, T2->T1, "
           "T2->T2, and onto US (preclearance) departures from each terminal. Also: do passengers with "
           "wheelchair/PRM SSRs (WCHR/WCHS/WCHC, BLND, DEAF, DPNA) need a longer connection for OCS, and how much?")
    assert len(questions(msg)) == 2
    assert split_message(msg)[1].startswith("I need the filed DUB minimum connecting times")
    # narration is not a request
    assert questions("I need to fix the rebooking tool this week. Which MCT applies T1 to T2?") == []
    from tests.tasks.people_of import people_of
    res = people_of("irrops_rebook", "sample:5568").contact("niamh_costigan", msg)
    assert {"mct_station", "prm"} <= {t.partition(":")[0] for t in res.tags}, res.tags
    assert "T2 to T2 45" in res.reply


OKAFOR_SIGN_OFF = "Dr Okafor - concrete design for your sign-off (min 26/02), with evidence from the 16-22 Feb portal export (702 msgs). (1) RED FLAGS: your v3 list matched generously over subject+body of EVERY message -> nurse_line urgent; a red flag is never auto-closed. On the Feb week it flags 24 messages - exactly the 24 staff marked RF/clinical (incl. SEA-type ones buried in admin: mottled skin, fit in Tesco, slurred speech after a complaint), 0 others. (2) AUTO-REPLY only with the approved HMP-T01..T05 wording, only for Admin query/Other messages that are purely ONE of those topics: no ticked items, no red flag, no symptom/feeling/medicine word, no second ask (also / oh and / ps / appointment / results / repeat request...), short single question; any doubt -> front desk. On the Feb week that is 72 of 229 admin messages; I read all 72 - none had clinical content or a second ask. (3) OUT OF HOURS (UK time, 08:00-18:30, bank holidays incl. Good Friday/Easter Monday): every message gets the v3 safety-netting wording; a template out of hours is followed by the v3 wording in the same reply. Fixes the GMT/BST bug behind TRIAGE-97. (4) Repeats with ticked items -> pharmacy desk (Hamza's GP-only list -> duty doctor), capped at his 70/day, overflow to nurse line. May I put (1)-(4) live? Any condition you want attached?"
HAMZA_CAP = "Thanks Hamza, list loaded exactly as you sent it (generic + brands). Funmi has signed off the triage side (red flags from the whole message go to the nurse line first, so a repeat with a red flag never reaches the desk). Repeats side for your look: portal 'Repeat prescription' with ticked items -> if any item is on your GP list the whole request goes to the duty GP; otherwise pharmacy_desk, counted against 70 per desk day (day it comes in; Sat/Sun and bank holidays land on the next working day, so Good Friday to Easter Monday go on Tue 7 April's pile); the 71st onwards that day stays on the nurse line. One question: is 70 the right cap to build in for the March/April fortnight, or do you want it set differently?"


def test_a_request_for_sign_off_gets_the_sign_off_topic():
    """Playtests sent a clinical lead a four-part design ("May I put (1)-(4) live?") and a pharmacist the
    repeats design ("is 70 the right cap ...?"); each answered "I don't have that detail to hand": the
    proposal's details matched many topics a little and none enough. A request for a decision gets the
    person's sign-off topic when it is within reach of their best."""
    from tests.tasks.people_of import people_of
    people = people_of("clinic_inbox", "sample:4861")
    res = people.contact("dr_funmi_okafor", OKAFOR_SIGN_OFF)
    assert {t.partition(":")[0] for t in res.tags} & {"automated_replies", "triage_decisions"}, res.tags
    assert "don't have that detail" not in res.reply
    res = people.contact("hamza_qureshi", HAMZA_CAP)
    assert "repeats_sign_off" in {t.partition(":")[0] for t in res.tags}, res.tags
    assert "don't have that detail" not in res.reply
    # a sponsor asked to sign off a change of scope does not get the request they sent (its "auto-approve")
    from fdegym_env.people.semantic_router import _SIGN_OFF_TOPIC
    assert not _SIGN_OFF_TOPIC.search("the FIN-301 request to auto-approve credit notes")
    assert _SIGN_OFF_TOPIC.search("whether Hamza is happy with or signs off the repeats side")
    # the rule itself: the lead's two sign-off topics (templates, triage design), tied at the top, and none when off
    router = make_router("semantic", people.spec["people"])
    okafor = {p["id"]: p for p in people.spec["people"]}["dr_funmi_okafor"]
    assert {t["id"] for t in router._sign_off_topic(okafor, OKAFOR_SIGN_OFF)} == {"automated_replies", "triage_decisions"}
    off = make_router("semantic", people.spec["people"], sign_off=None)
    assert off._sign_off_topic(okafor, OKAFOR_SIGN_OFF) == []


def test_the_rules_say_how_many_questions_a_message_gets_answered():
    """A playtest read "They answer one specific question at a time" and split its questions over paid
    messages; people answer each question of a message up to the harness's limit, and the rules say so."""
    from fdegym_env.core.actions import TOOLS
    from fdegym_env.core.env import ENGAGEMENT_RULES
    from fdegym_env.people.routers import MAX_TOPICS_PER_MESSAGE
    words = {4: "four"}
    assert f"up to {words[MAX_TOPICS_PER_MESSAGE]} topics a message" in " ".join(ENGAGEMENT_RULES.split())
    assert "one specific question at a time" not in ENGAGEMENT_RULES
    contact = [t for t in TOOLS if t.name == "contact"][0]
    assert any(f"up to {words[MAX_TOPICS_PER_MESSAGE]}" in a.description for a in contact.args)


def test_a_question_is_heard_with_the_statement_before_it():
    from fdegym_env.people.semantic_router import questions_in_context
    msg = ("Hi Tomasz - FDE here. (1) Is daily proration right? (2) The December extract carries changes dated "
           "in January. Should those be billed in December at all?")
    assert questions_in_context(msg) == [
        "(1) Is daily proration right?",
        "(2) The December extract carries changes dated in January. Should those be billed in December at all?"]
    assert questions_in_context(msg, context=0)[1] == "Should those be billed in December at all?"
    assert questions_in_context("Hi. One thing. Is it daily?") == []        # one question: the whole message
