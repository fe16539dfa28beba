"""A person whose answer names someone to ask ("check with Bo what the charter promises") has sent the
agent there: when Bo does not have it, Bo never refers the agent back to them on that subject (no
A -> B -> A circle), while a referral back on another of their subjects still stands."""

from __future__ import annotations

import json

from fdegym_env.people import People, make_router
from fdegym_env.people.spec import validate_people

TOY = {
    "people": [
        {"id": "ann", "name": "Ann Lee", "role": "Billing lead", "blurb": "Runs the invoice dispute queue.",
         "fallback": "Not billing, sorry.", "cost": 0.01,
         "topics": [
             {"id": "small_disputes",
              "about": "whether small invoice disputes may be rejected; what the customer charter promises on "
                       "small disputes before rejecting them",
              "answer": "Reject a dispute when the invoice is right, with the breakdown. Before rejecting small "
                        "ones, check with Bo what the customer charter promises on small disputes."},
             {"id": "refunds", "about": "when refunds of disputed invoices are paid",
              "answer": "Refunds go out within five working days of approval."}]},
        {"id": "bo", "name": "Bo Chen", "role": "Customer success lead", "blurb": "Runs escalations of angry accounts.",
         "fallback": "No idea, sorry.", "cost": 0.01,
         "topics": [{"id": "escalations", "about": "which accounts are escalating and threatening to churn",
                     "answer": "Three big logos are escalating; all on annual terms."}]},
    ],
    "replies": {"refer_elsewhere": True},
}
CHARTER = "What does the customer charter promise on small disputes before we reject them?"
REFUNDS = "When are refunds of disputed invoices paid?"


def _people() -> People:
    spec = validate_people(json.loads(json.dumps(TOY)), "toy")
    return People(spec, make_router("semantic", spec["people"]))


def test_without_the_pointer_bo_would_refer_to_ann():
    # the premise: Ann's topic answers the question, so a cold ask of Bo names her
    assert _people().contact("bo", CHARTER).tags == ["dont_know", "refer:ann"]


def test_the_person_named_in_an_answer_never_refers_back_on_that_subject():
    people = _people()
    first = people.contact("ann", CHARTER)
    assert first.tags == ["small_disputes"] and "check with Bo" in first.reply
    back = people.contact("bo", CHARTER)
    assert back.tags[0] == "dont_know" and not any(t.startswith("refer:") for t in back.tags), back.tags
    assert "Ann" not in back.reply, back.reply
    # another subject of Ann's is still hers to answer
    assert people.contact("bo", REFUNDS).tags == ["dont_know", "refer:ann"]


def test_a_line_that_names_nobody_points_nowhere():
    people = _people()
    assert people.contact("ann", REFUNDS).tags == ["refunds"]
    assert people.pointed == {}
    assert people.contact("bo", CHARTER).tags == ["dont_know", "refer:ann"]
