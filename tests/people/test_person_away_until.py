"""A person away until a date (``away_until``, ``away_label``, ``away_reply``): the directory says so,
every message before the date gets the out-of-office (free, no patience, no time, like any
auto-reply), a referral to them says they are away, and from the date they answer as usual.
Routing measurement ignores leave: it tests which topic answers."""

from __future__ import annotations

import copy

import pytest

from fdegym_env.core.errors import TaskFormatError
from fdegym_env.people.engine import People
from fdegym_env.people.routers import RegexRouter
from fdegym_env.people.routing_report import evaluate_heldout
from fdegym_env.people.spec import validate_people

AWAY = "(automatic reply) On leave until Thursday. - Ken"
INCOME = "What income basis does the form use?"


def _spec(**away) -> dict:
    return {"clock": {"start": "2026-03-02T09:00", "ask_minutes": 60},
            "replies": {"refer_elsewhere": True},
            "people": [{"id": "ken", "name": "Ken Ito", "role": "Underwriter", "blurb": "Reviews files.",
                        "fallback": "Not mine.", "cost": 0.02, "patience": 1,
                        "away_until": "2026-03-05T09:00", **away,
                        "topics": [{"id": "units", "triggers": ["income"], "answer": "Monthly on the new form.",
                                    "facts": ["F_units"]}]},
                       {"id": "sue", "name": "Sue Park", "role": "Ops", "blurb": "Runs the desk.",
                        "fallback": "Not mine.", "cost": 0.01,
                        "topics": [{"id": "desk", "triggers": ["desk"], "answer": "Four files a day."}]}]}


def _people(**away) -> People:
    spec = validate_people(copy.deepcopy(_spec(**away)), "people.yaml")
    return People(spec, RegexRouter())


@pytest.mark.parametrize("away, says", [
    ({"away_until": "5 March"}, "away_until: expected a clock stamp like '2026-03-05T09:00'"),
    ({"away_until": "2026-03-05"}, "got '2026-03-05'"),
    ({"away_until": "2026-03-05T09:00:00"}, "away_until: expected a clock stamp"),
    ({"away_until": 20260305}, "away_until: expected a clock stamp"),
    ({"away_reply": "Back Thursday."}, "away_reply: an out-of-office must begin with one of"),
    ({"away_label": ""}, "away_label: must be a non-empty string"),
])
def test_a_bad_away_field_is_a_clear_error(away, says):
    with pytest.raises(TaskFormatError, match="people\\[0\\] \\(ken\\)\\.away_") as e:
        validate_people(_spec(**away), "people.yaml")
    assert says in str(e.value)


def test_away_fields_need_a_date_and_a_clock():
    data = _spec()
    del data["people"][0]["away_until"]
    data["people"][0]["away_label"] = "on leave"
    with pytest.raises(TaskFormatError, match="away_label needs 'away_until"):
        validate_people(data, "people.yaml")
    data = _spec()
    del data["clock"]
    with pytest.raises(TaskFormatError, match="away_until needs a 'clock'"):
        validate_people(data, "people.yaml")


def test_the_directory_shows_the_leave_until_its_date():
    p = _people(away_label="on leave")
    ken = next(d for d in p.directory() if d["id"] == "ken")
    assert ken["away"] == "on leave until Thu 05 Mar 09:00" and not ken["reachable"]
    p.wait(71.9)
    assert next(d for d in p.directory() if d["id"] == "ken")["away"]
    p.wait(0.1)                                      # Thursday 09:00
    ken = next(d for d in p.directory() if d["id"] == "ken")
    assert ken["away"] is None and ken["reachable"]


def test_a_message_while_away_is_a_free_auto_reply():
    p = _people(away_reply=AWAY)
    before = p.clock.minutes
    for msg in (INCOME, "Where is the canteen?", "And how many files does the desk do?"):
        r = p.contact("ken", msg)                    # on his topic, off it, or someone else's
        assert (r.reply, r.tags, r.facts, r.cost) == (AWAY, ["away", "auto_reply"], [], 0.0), msg
    assert p.clock.minutes == before and p.asked["ken"] == 0 and p.contact_cost == 0
    assert p.discovery([])["questions_asked"] == 0
    assert "F_units" not in p.known


def test_without_away_reply_the_out_of_office_says_label_and_date():
    r = _people(away_label="on leave").contact("ken", INCOME)
    assert r.reply == "(automatic reply) I'm on leave until Thu 05 Mar 09:00." and r.cost == 0


def test_back_after_the_date_the_person_answers_and_it_costs():
    p = _people(away_reply=AWAY)
    p.contact("ken", INCOME)
    p.wait(72)
    r = p.contact("ken", INCOME)
    assert r.reply == "Monthly on the new form." and r.tags == ["units"] and r.cost == 0.02
    assert p.asked["ken"] == 1 and p.clock.minutes == 72 * 60 + 60


def test_a_referral_to_someone_away_says_until_when():
    p = _people(away_label="on leave")
    r = p.contact("sue", INCOME)
    assert "refer:ken" in r.tags and "Ken Ito" in r.reply
    assert r.reply.endswith("Ken is on leave until Thu 05 Mar 09:00, though.")
    p = _people(away_label="on leave")
    p.wait(72)
    r = p.contact("sue", INCOME)
    assert "refer:ken" in r.tags and "on leave" not in r.reply


def test_heldout_routing_ignores_leave():
    spec = validate_people(_spec(away_reply=AWAY), "people.yaml")
    r = evaluate_heldout(spec, {"questions": [{"person": "ken", "q": INCOME, "expect": ["units"]},
                                              {"person": "sue", "q": INCOME, "expect": "dont_know",
                                               "refer": "ken"}]}, RegexRouter())
    assert r["counts"]["on_topic"] == 1 and r["counts"]["dont_know"] == 1, r["rows"]
    assert r["rows"][0]["tags"] == ["units"]
