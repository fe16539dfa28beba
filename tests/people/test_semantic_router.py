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
