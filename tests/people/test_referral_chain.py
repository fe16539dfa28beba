"""No referral circle of any length: A's answer names B, B refers to C, and C never sends the agent
back to A or B (a playtest went Shaun → Kayleigh → Priya → Shaun on one question)."""

from __future__ import annotations

import json

from fdegym_env.people import People, make_router
from fdegym_env.people.spec import validate_people


def _person(pid: str, name: str, topics: list[dict]) -> dict:
    return {"id": pid, "name": name, "role": f"{name}'s role", "blurb": "Works here.", "fallback": "Not mine.",
            "cost": 0.01, "topics": topics}


SPEC = {
    "replies": {"refer_elsewhere": True, "recap_repeats": True},
    "people": [
        _person("shaun", "Shaun W", [{"id": "worn", "about": "worn returns and refusing them after day 14, "
                                                            "what Plus members get on days 15 to 28",
                                      "answer": "Refuse worn occasionwear after day 14 unless the member terms "
                                                "still cover her - Kayleigh has the member terms."}]),
        _person("kayleigh", "Kayleigh D", [{"id": "macros", "about": "customer service macros and complaint replies",
                                            "answer": "We use the FIT macro for fit complaints."}]),
        _person("priya", "Priya C", [{"id": "statutory", "about": "the statutory fourteen day right to cancel",
                                      "answer": "Fourteen days from delivery, no refusals."}]),
    ],
}
ASK = "Do the Plus member terms give members anything beyond the standard terms on days 15 to 28?"


def test_a_chain_of_referrals_never_comes_back_round():
    spec = validate_people(json.loads(json.dumps(SPEC)), "toy")
    eng = People(spec, make_router("lexical", spec["people"]))
    first = eng.contact("shaun", "Can we refuse worn occasionwear returned after day 14?")
    assert first.tags == ["worn"] and "Kayleigh" in first.reply
    eng.referred.add(("kayleigh", "priya"))            # Kayleigh, asked, sent the agent on to Priya
    res = eng.contact("priya", ASK)
    assert "refer:shaun" not in res.tags and "refer:kayleigh" not in res.tags, (res.tags, res.reply)
    assert eng._upstream("priya") >= {"shaun"}


def test_without_the_chain_rule_the_same_question_would_go_back_to_shaun():
    """The check above can fail: with the chain ignored, Priya names Shaun."""
    spec = validate_people(json.loads(json.dumps(SPEC)), "toy")
    eng = People(spec, make_router("lexical", spec["people"]))
    eng.contact("shaun", "Can we refuse worn occasionwear returned after day 14?")
    eng.referred.add(("kayleigh", "priya"))
    eng._upstream = lambda pid: set()                  # type: ignore[method-assign]
    assert "refer:shaun" in eng.contact("priya", ASK).tags
