"""news_incident, from the round-9 playtest (sample:3866, seed 60).

- Niamh goes on sabbatical after the agent's first question there; her auto-reply said she was away
  "from today" whenever it was read (a day later too), while her FYI about the 2am kill and her handover
  ("before my sabbatical") kept arriving after she had gone. The auto-reply now names no start day and
  the handover does not speak of the sabbatical as still to come.
- Kofi's first reply, at 11:00, was "On shift and it's mental - ask me again tomorrow evening": he is on
  nights, and the directory said only "slow to reply". His stall makes no claim about the hour, the
  directory says his look-ups come the evening after he is asked, and asked again then, he answers."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.tasks.people_of import people_of

GONE_VARIANTS = ["sample:3866", "night_editor_leaving", "sample:1"]


def _niamh_gone(variant: str):
    eng = people_of("news_incident", variant)
    for _ in range(3):                                             # gone after 1-3 questions to anyone
        if eng.gone(eng.people["night_editor"]):
            break
        eng.contact("dana_whitlock", "What exactly do you want from the blocklist?")
    assert eng.gone(eng.people["night_editor"])
    return eng


@pytest.mark.parametrize("variant", GONE_VARIANTS)
def test_niamhs_auto_reply_and_mail_agree_with_the_clock_whenever_they_are_read(variant):
    eng = _niamh_gone(variant)
    replies = [eng.contact("night_editor", "How many held stories can the desk clear a day?")]
    eng.wait(48)                                                   # two days into her sabbatical
    replies.append(eng.contact("night_editor", "How do Kestrel kills reach us?"))
    for r in replies:
        assert r.tags == ["gone"], (r.tags, r.reply)
        assert "sabbatical until 1 June" in r.reply and "Kofi" in r.reply
        assert not re.search(r"\b(today|tomorrow|yesterday|tonight|this week)\b", r.reply), r.reply
    inbox = eng.read_inbox()
    mail = [m for m in inbox if m["from"] == "night_editor"]
    # last night's kill comes from Kofi, who has the desk: nobody whose out-of-office is on writes
    # about the night shift (a playtest read her FYI after her sabbatical reply as a contradiction)
    assert any("2am" in m["text"] for m in inbox if m["from"] == "deputy_night_editor")
    assert not any("2am" in m["text"] for m in mail)
    for m in mail:                                                 # arrives while she is away
        assert not re.search(r"before my sabbatical|from today|starting tomorrow", m["text"]), m["text"]


CAPACITY = [
    "Niamh's on sabbatical - how many held stories can the desk get through in a day?",
    "If the ingest sends more court copy into Held, how many a day can the night desk clear before they go stale?",
]


@pytest.mark.parametrize("variant", ["base", "sample:3866"])
@pytest.mark.parametrize("hour", [9, 14, 23])
@pytest.mark.parametrize("msg", CAPACITY, ids=["playtest", "paraphrase"])
def test_kofi_answers_when_asked_again_the_next_evening_as_he_and_the_directory_say(variant, hour, msg):
    eng = people_of("news_incident", variant)
    kofi = next(p for p in eng.directory() if p["id"] == "deputy_night_editor")
    assert "comes the evening after you ask" in kofi["blurb"]
    if hour > 9:
        eng.wait(hour - 9)                                         # the clock starts Mon 09:00
    asked = eng.clock.now()
    r = eng.contact("deputy_night_editor", msg)
    assert r.tags == ["desk_capacity:stalled"], (r.tags, r.reply)
    assert "On shift" not in r.reply and "tomorrow evening" in r.reply, r.reply
    evening = asked.replace(hour=19, minute=0) + dt.timedelta(days=1)      # the next day, 19:00
    eng.wait((evening - eng.clock.now()).total_seconds() / 3600)
    assert eng.clock.now().strftime("%a %H:%M") == "Tue 19:00"
    r = eng.contact("deputy_night_editor", msg)
    assert r.tags == ["desk_capacity"], (r.tags, r.reply)
    assert "F_desk_capacity" in r.facts
