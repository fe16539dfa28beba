"""An inbox message whose sender has left by the time it falls due comes from their stand-in
(``from_if_gone``), never from someone whose out-of-office says they are away; while the sender is
still there it comes from them."""

from __future__ import annotations

import json

import pytest

from fdegym_env.core.errors import TaskFormatError
from fdegym_env.core.registry import load_task
from fdegym_env.people import People, make_router
from fdegym_env.people.spec import validate_people

TOY = {
    "clock": {"start": "2026-04-06T09:00"},
    "people": [
        {"id": "niamh", "name": "Niamh C", "role": "Night editor", "blurb": "Runs nights.", "fallback": "No.", "cost": 0.02,
         "gone_after_asks": 1, "gone_reply": "(automatic reply) On sabbatical.",
         "topics": [{"id": "queue", "about": "the held queue", "answer": "About 14 a day."}]},
        {"id": "kofi", "name": "Kofi M", "role": "Deputy night editor", "blurb": "Deputises.", "fallback": "No.", "cost": 0.02,
         "topics": [{"id": "queue", "about": "the held queue", "answer": "About 14 a day."}]},
        {"id": "sam", "name": "Sam P", "role": "Developer", "blurb": "Wrote the ingest.", "fallback": "No.", "cost": 0.01,
         "topics": [{"id": "cron", "about": "when the ingest runs", "answer": "Every five minutes."}]}],
    "inbox": [{"id": "fyi", "from": "niamh", "from_if_gone": "kofi", "after_hours": 10,
               "text": "Kestrel pulled another one last night."}],
}


def _people(spec=TOY) -> People:
    spec = validate_people(json.loads(json.dumps(spec)), "toy")
    return People(spec, make_router("lexical", spec["people"]))


def test_the_stand_in_sends_it_when_the_sender_has_left():
    p = _people()
    p.contact("sam", "When does the ingest run?")          # one ask: Niamh has gone
    p.wait(11)
    assert [(m["id"], m["from"]) for m in p.read_inbox()] == [("fyi", "kofi")]


def test_the_sender_sends_it_while_still_there():
    p = _people()
    p.wait(11)
    assert [(m["id"], m["from"]) for m in p.read_inbox()] == [("fyi", "niamh")]


def test_an_unknown_stand_in_is_a_clear_error():
    bad = json.loads(json.dumps(TOY))
    bad["inbox"][0]["from_if_gone"] = "kofy"
    with pytest.raises(TaskFormatError, match="from_if_gone: unknown person 'kofy'.*kofi"):
        validate_people(bad, "toy")


def test_news_night_editor_on_sabbatical_sends_no_fyi_about_last_night():
    """A playtest (news_incident sample:5048, Niamh gone after the first message) got her sabbatical
    auto-reply, then her FYI 'the story sat on the site till I happened to see the raw wire at 2am'."""
    task = load_task("news_incident")
    spec = task.people_spec(task.variant("sample:5048"))
    p = People(spec, make_router("lexical", spec["people"]))
    p.contact("meridian_support", "Which time zone are your embargo times in?")     # one ask: Niamh has gone
    assert p.contact("night_editor", "How many held stories can the desk clear a day?").tags == ["gone"]
    p.wait(12)
    got = {m["id"]: m["from"] for m in p.read_inbox()}
    assert got["m_kna_again"] == "deputy_night_editor"
