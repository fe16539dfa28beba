"""news_incident people: Kofi answers what Kestrel's kill and correction habits are (the blurb says he
knows the Kestrel quirks) and nobody sends an agency-format question to Legal; Meridian client
services' "we'll answer within a business day" arrives in the inbox without a second paid contact."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("news_incident")
VARIANTS = ["base", "night_editor_leaving", "sample:237", "sample:3"]


def people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


KESTREL_HABITS = [
    "What are Kestrel's kill and correction habits?",
    "Any Kestrel quirks the ingest should know about when they kill or correct a story?",
    "I'm teaching the ingest to spot Kestrel kills (the advisories) and Kestrel corrections (the re-sends under "
    "one slug). Are there other Kestrel kill or correction quirks it has to catch?",
    "Apart from advisories for kills and same-slug re-sends for corrections, what other Kestrel habits or quirks "
    "must the ingest catch?",
    "What Kestrel quirks should the wire ingest catch?",
    "What Kestrel kill/correction habits or quirks should the ingest catch?",
]


# An engineer who has read the wire asks whether Kestrel have other ways to kill (or correct) a story: how the
# desk reads Kestrel's kill advisories is Kofi's own area, not Legal's, even with a 'sentencing' slug quoted.
KESTREL_OTHER_WAYS = [
    "Hi Kofi - I'm the engineer fixing the wire ingest so Kestrel kills take stories down automatically. From last "
    "week's wire, Kestrel kills arrive as advisory emails like \"DO NOT USE - ellery sentencing\" / \"Please do not "
    "use our 16:20 story 'ellery sentencing'\" (time in UK local), and corrections as a re-send under the same slug "
    "with 'corrected' and 'Replaces our copy filed at 13:17'. Question: is there any other way Kestrel kill or "
    "correct a story that the desk has to watch for (other wording, time zone, slug spelling) that I'd miss with that?",
    "Any other ways Kestrel kill a story that I'd miss if I only match the kill phrase in the headline?",
    "Kofi, quick one: I've got the ingest spotting Kestrel kill advisories by the headline phrase and the quoted slug "
    "in the body ('bodmin court', filed at 09:40). Do they ever kill a story some other way - different wording, "
    "times not in UK time, the slug typed differently - that the night desk has learnt to look out for?",
    "Is there anything else about how Kestrel kill or correct copy - wording, timezones, slug spelling - that the "
    "desk keeps an eye on?",
    "I'm automating Kestrel takedowns. Besides the advisory with the slug in quotes, what other forms does a Kestrel "
    "kill take that the desk has had to catch by hand?",
    "Do Kestrel's kill notices ever give the time in UTC rather than UK time?",
]


@pytest.mark.parametrize("variant", VARIANTS + ["sample:8"])
@pytest.mark.parametrize("message", KESTREL_OTHER_WAYS)
def test_kofi_answers_whether_kestrel_kill_in_other_ways(variant, message):
    r = people(variant).contact("deputy_night_editor", message)
    assert r.tags and r.tags[0].partition(":")[0] == "kna_kills", (r.tags, r.reply)
    assert not any(t.startswith("refer:") for t in r.tags), r.tags


@pytest.mark.parametrize("message", KESTREL_OTHER_WAYS)
def test_whoever_lacks_kestrel_kills_sends_the_question_to_the_night_desk(message):
    for who in ("wire_editor", "sam_fairley", "dana_whitlock", "managing_editor"):
        r = people("base").contact(who, message)
        assert r.tags[-1] in ("refer:night_editor", "refer:deputy_night_editor"), (who, r.tags, r.reply)


def test_kofi_gives_kestrels_times_as_uk_time():
    p = people("base")
    p.contact("deputy_night_editor", "How do Kestrel kill a story?")
    p.wait(15)
    r = p.contact("deputy_night_editor", KESTREL_OTHER_WAYS[-1])
    assert "kna_kills" in r.tags and "UK time" in r.reply, r.reply


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", KESTREL_HABITS)
def test_kofi_answers_kestrel_kill_and_correction_habits(variant, message):
    r = people(variant).contact("deputy_night_editor", message)
    topics = {t.partition(":")[0] for t in r.tags}
    assert topics & {"kna_kills", "kna_corrections"}, (r.tags, r.reply)
    assert not any(t.startswith("refer:") for t in r.tags), r.tags


@pytest.mark.parametrize("message", KESTREL_HABITS)
def test_an_agency_format_question_is_never_referred_to_legal(message):
    for who in ("deputy_night_editor", "night_editor", "wire_editor", "sam_fairley", "dana_whitlock",
                "managing_editor"):
        r = people("sample:237").contact(who, message)
        assert "refer:legal_counsel" not in r.tags, (who, r.tags, r.reply)


def test_kofis_kestrel_answers_name_the_habits_the_traffic_has():
    p = people("base")
    p.contact("deputy_night_editor", "How do Kestrel kill a story?")
    p.wait(15)
    kills = p.contact("deputy_night_editor", "How do Kestrel kill a story?")
    assert "kna_kills" in kills.tags and "'DO NOT USE'" in kills.reply and "stands" in kills.reply, kills.reply
    fix = p.contact("deputy_night_editor", "What does a Kestrel re-send look like in the subject line?")
    assert "kna_corrections" in fix.tags and "replaces" in fix.reply and "always 1" in fix.reply, fix.reply


@pytest.mark.parametrize("variant", ["base", "embargo_pacific", "sample:237"])
@pytest.mark.parametrize("topic, message, fact, msg_id", [
    ("embargo_tz", "What timezone are the embargo times in your feed? They carry no UTC offset.",
     "F_mrd_embargo_tz", "m_mrd_embargo_tz"),
    ("meridian_kills", "Could you confirm how Meridian signals that a story has been withdrawn?",
     "F_mrd_kill", "m_mrd_withdrawals"),
])
def test_meridians_business_day_answer_arrives_by_email(variant, topic, message, fact, msg_id):
    p = people(variant)
    r = p.contact("meridian_support", message)
    assert r.tags == [f"{topic}:stalled"] and "email" in r.reply, r.reply
    p.wait(12)
    assert msg_id not in {m["id"] for m in p.read_inbox()}          # not before the business day is up
    p.wait(12)
    got = {m["id"]: m for m in p.read_inbox()}
    assert msg_id in got and got[msg_id]["from"] == "meridian_support", sorted(got)
    assert fact in p.known
    if topic == "embargo_tz":
        assert TASK.variant(variant).params["mrd_tz_text"] in got[msg_id]["text"]
    assert sum(1 for x in p.ledger if x["to"] == "meridian_support") == 1   # one paid contact, not two


# From the playtests: a long, clear message to Meridian client services about the clock of its
# embargo times (what zone, does it follow daylight saving, is it the same for every story) got
# "I don't have that detail to hand": the topic spoke of the zone but not of daylight saving or of
# stories filed from different countries, both of which the vendor's answer plainly owns. The desk
# logs the question (their one-business-day case) and its emailed answer says all three.
EMBARGO_CLOCK = [
    "Does the embargo time in your feed move when the US clocks go forward, or is it a fixed offset?",
    "Is every embargo in the Meridian feed on the same clock, or on the local time of the story's dateline?",
    "We run your wire into an automatic ingest at Tidewater. The embargoed value comes without any zone, for "
    "example 2026-04-09T10:00:00 on a science piece. Which clock is that written in? Does it follow summer time? "
    "And is it the same for a story filed in Europe as for one filed in the States?",
    "Quick check on your embargo field: it has no offset. In which time zone should we read it, and do we need "
    "to allow for daylight saving when we convert it to UTC?",
]


@pytest.mark.parametrize("variant", ["base", "embargo_pacific", "sample:6583", "sample:237"])
@pytest.mark.parametrize("message", EMBARGO_CLOCK)
def test_a_clear_embargo_clock_question_to_meridian_is_logged_and_answered(variant, message):
    p = people(variant)
    r = p.contact("meridian_support", message)
    assert r.tags == ["embargo_tz:stalled"] and "MCS-448213" in r.reply and "email" in r.reply, (r.tags, r.reply)
    p.wait(24)
    mail = {m["id"]: m for m in p.read_inbox()}["m_mrd_embargo_tz"]["text"]
    assert TASK.variant(variant).params["mrd_tz_text"] in mail
    assert "daylight saving" in mail and "dateline" in mail, mail
    again = p.contact("meridian_support", message)                  # asked again once the case is answered
    assert again.tags == ["embargo_tz:repeat"] or again.tags == ["embargo_tz"], (again.tags, again.reply)


@pytest.mark.parametrize("variant", VARIANTS)
def test_legals_condition_for_a_ruling_is_in_her_directory_line(variant):
    """Harriet rules only on a piece of copy she is shown (a gate): the directory says so before anyone
    pays to find out, and a question citing a slug meets the gate at the first ask."""
    p = people(variant)
    line = next(d for d in p.directory() if d["id"] == "legal_counsel")
    assert "not hypotheticals" in line["blurb"] and "send her the item" in line["blurb"], line
    held = p.contact("legal_counsel", "Which agency court stories must you see before they are published?")
    assert "hypothetical" in held.reply.lower(), held.reply
    told = people(variant).contact(
        "legal_counsel", "Kestrel filed slug 'northcott court' (KNA/260407/0171-A6), a first hearing at magistrates' "
        "court. Must you see copy like that before it is published?")
    assert "hypothetical" not in told.reply.lower() and any(t.startswith("legal_") for t in told.tags), told


# From a playtest (sample:8920, Los Angeles): Meridian's emailed answer said their embargo desk "moved to LA
# in March" and, two sentences on, that the field's clock "changed with the 2024 platform migration" - two
# dates for one change. The story now: the 2024 migration put the field on the embargo desk's local clock;
# where the desk has since moved, the answer says when (before INC-2026-034's 18 March break, which the
# workspace dates on the new clock) and that the field has been that city's time since.
CITY = {-4: "New York", -5: "Chicago", -7: "Los Angeles"}


@pytest.mark.parametrize("variant", ["base", "embargo_pacific", "sample:8920", "sample:4", "sample:5", "sample:1"])
def test_meridians_account_of_its_embargo_clock_has_one_history(variant):
    params = TASK.variant(variant).params
    city = CITY[int(params["mrd_embargo_offset_h"])]
    spec = TASK.people_spec(TASK.variant(variant))
    meridian = next(x for x in spec["people"] if x["id"] == "meridian_support")
    topic = next(t for t in meridian["topics"] if t["id"] == "embargo_tz")
    p = people(variant)
    p.contact("meridian_support", "What timezone are the embargo times in your feed? They carry no UTC offset.")
    p.wait(24)
    mail = {m["id"]: m for m in p.read_inbox()}["m_mrd_embargo_tz"]["text"]
    for text in (topic["answer"], mail):
        text = " ".join(text.split())
        assert f"{city} time" in text and "their embargo desk" not in text, text
        assert text.count("2024 platform migration") == 1 and "put the field on our embargo desk's local clock" in text
        assert "that changed with" not in text, text
        moved = [c for c in CITY.values() if f"moved to {c}" in text or f"moved to {c[:2]}" in text]
        if city == "New York":
            assert not moved and "moved" not in text, text
        else:
            assert moved == [city] and f"New York until it moved to {city} on 2 March" in text, text
            assert f"since then the field has been {city} time" in text, text
