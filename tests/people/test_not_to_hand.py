"""An owner asked for a figure or date their paragraph lacks says so in role, then gives what they know;
a paragraph that holds it is told plainly, and the harness's replies (no ``not_to_hand``) are unchanged."""

from __future__ import annotations

import json

import pytest

from fdegym_env.people import People, make_router
from fdegym_env.people.details import missing_details
from fdegym_env.people.routing_report import classify, evaluate_heldout, find_heldout_sets, hedge_kind
from fdegym_env.people.spec import validate_people

TOY = {
    "people": [
        {"id": "marcus", "name": "Marcus Lind", "role": "SIU analyst", "blurb": "Loads the SIU flag table.",
         "fallback": "Not SIU's, sorry.", "cost": 0.01,
         "topics": [
             {"id": "flag_loads", "about": "how SIU flags are loaded into the flag table; flagged claims",
              "answer": "I load flags by hand after a case is worked - photo hashes or the VIN.",
              "facts": ["F_flags_by_hand"]},
             {"id": "capacity", "about": "how many referrals SIU can take a week",
              "answer": "Four investigators; about thirty referrals a week before the backlog grows."}]}],
}
COUNT_Q = "How many claims did you flag in February?"


def _people(not_to_hand: bool) -> People:
    spec = validate_people(json.loads(json.dumps(dict(TOY, replies={"not_to_hand": not_to_hand}))), "toy")
    return People(spec, make_router("semantic", spec["people"]))


def test_a_count_the_paragraph_lacks_is_said_to_be_missing_and_the_paragraph_still_given():
    res = _people(True).contact("marcus", COUNT_Q)
    assert res.reply.startswith("I don't have that number to hand, I'm afraid. What I can tell you is this:")
    assert "I load flags by hand" in res.reply
    assert "flag_loads" in res.tags and "not_to_hand" in res.tags
    assert "F_flags_by_hand" in res.facts                     # what was said still counts as learnt
    assert classify(res.tags, "dont_know") == "dont_know" and hedge_kind(res.tags, "dont_know") == "needed"


def test_harness_replies_recite_the_paragraph_as_before():
    res = _people(False).contact("marcus", COUNT_Q)
    assert res.reply.startswith("I load flags by hand") and "not_to_hand" not in res.tags
    assert classify(res.tags, "dont_know") == "wrong_paragraph"


def test_a_paragraph_that_holds_the_figure_is_told_plainly():
    res = _people(True).contact("marcus", "How many referrals a week can your team take?")
    assert res.reply.startswith("Four investigators") and "not_to_hand" not in res.tags


@pytest.mark.parametrize(("question", "answer", "missing"), [
    ("How many misconnects were there in April?", "Nobody here counts them; ask OCC.", ("count",)),
    # a paragraph with a figure in it is never opened with "I don't have that number"
    ("How many misconnects were there in April?", "MCT at T2 is 45 minutes; T1 to T2 is 60.", ()),
    ("How many misconnects were there in April?", "In April we had 31 misconnects.", ()),
    ("When did OLA 2.0 go live, and do OLA-1.9 forms still come in?", "OLA 2.0 went live on Feb 2.", ()),
    ("What time zone are Meridian embargoes in?", "Agency times are UTC.", ()),
    ("When is it OK to deploy?", "Outside the batch window, with a CAB ticket.", ()),   # a rule, not a date
    ("When did the pilot start?", "It started on the third working day of the month.", ()),
    ("When was the last matched-pair test?", "We review a sample of decisions.", ("date",)),
    ("How much storage does the ledger database use?", "The failover drill is on the replicas.", ("count",)),
    ("Is the EIN the reliable key for the Delta group?", "Shop names are spelled five ways.", ()),
    # a question quoted as evidence is not what is asked
    ('OLA 2.0 asks "How much do you take home every two weeks?" - is this OK to ship?', "Yes, send the diff.", ()),
    ("The form asks 'How many dependants?' - do we use that?", "No, we ignore it.", ()),
    # which quantity a form or feed takes in is not a request for a number
    ("What figure does the OLA 2.0 form ask for - monthly or annual income?", "It asks for monthly take-home.", ()),
    ("What amount does the partner API expect in income_amount?", "Gross annual, as a plain number.", ()),
    ("What figure do you use for the approval plan?", "We plan on the committee's target.", ("count",)),
])
def test_what_counts_as_missing(question, answer, missing):
    assert missing_details(question, [answer]) == missing


@pytest.mark.parametrize("name", ["agent_traffic", "agent_traffic2", "agent_traffic3", "blind8"])
def test_labelled_answers_are_rarely_hedged(name):
    """Of the replies that gave an expected paragraph, at most 2% open with "I don't have that"."""
    on_topic = needless = 0
    for task, spec, hset in find_heldout_sets("tests", name):
        r = evaluate_heldout(spec, hset, "semantic", f"{name}/{task}")
        on_topic += r["counts"]["on_topic"]
        needless += r["hedges"]["needless"]
    assert on_topic and needless <= 0.02 * on_topic, (name, needless, on_topic)
