"""clinic_inbox: what a strong-agent L3 playtest (sample:5750, seed 12) found, pinned.

- Both red flags it missed were written "coughing up bloody phlegm" (traffic.INFLECT: how patients
  write "coughing up blood"). No one said that wording counted: every other patient wording of a listed
  phrase is the list's own words, at most with a plural or -ing ending, which the owner's "match
  generously" examples ("chest pains") show. The list owner now names it with the list, in every
  variant, and so do Dr Okafor's decisions and Nadia's word on how patients write.
  The second one went to the nurse line as routine (its category's queue, no red flag seen), so it
  queued behind the bank-holiday weekend's work; as urgent it would have been first.
- Dr Okafor's decisions said "option B every time" to an agent offered no options.
- Hamza's note after Dr Okafor's agreement said "ask me how many a day the desk can take" while the
  March rota already gives his figure; the note now gives the figure the rota gives.
"""
from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task
from tests.tasks.people_of import people_of
from tests.tasks.test_clinic_inbox_people_and_trials import SIGN_OFF_ASK

TASK = load_task("clinic_inbox")
TRAFFIC = TASK.module("traffic")
# Okafor-owned lists (base, samples) and Nadia-owned ones (rf_list_2026, sample:2, sample:6)
VARIANTS = ["base", "rf_list_2026", "sample:5750", "sample:2", "sample:6", "sample:10"]
WORDING = "coughing up bloody phlegm"

OKAFOR_LIST_ASKS = [
    # the playtest's question (it drew the list without the wording)
    "Dr Okafor, I am working on the PortalRouter change (body scanning for red flags, per SEA-2025-14 action 4). "
    "The policy folder only has red-flag list v2 (2023). Could you give me the exact items on v3 - in particular "
    "the mental-health crisis and sepsis items - so the router flags the same things your navigators do?",
    "Re SEA-2025-14: what's the current red-flag list the router should match?",
    "Nadia flagged PM-260302-0117 (chest pain at the bottom of a change of address). Which red-flag phrases should "
    "the router look for in the subject and body?",
    "Following SEA-2025-14 and complaint C-25-031, could you send me the exact red-flag wording the care navigators "
    "are trained on, so I can code against it?",
]
NADIA_LIST_ASKS = [
    "Who owns the red-flag list, and what's in it?",
    "Which red-flag list do the nurses and navigators work from - the v2 sheet in the clinical folder?",
    "Dr Okafor says the list is yours now. Could you send me the current red-flag symptoms, word for word, so the "
    "router can read them in the subject and body of every portal message?",
    "What's on the red flag list these days?",
]
DECISION_ASKS = [
    # the playtest's design put to her (the reply said "option B every time")
    "Thanks - v4 is in. Here is the concrete design for your review, tested on the 732 portal messages of 16-22 "
    "Feb. (1) Red flags: the v4 list is matched generously on subject AND body of every message, any category -> "
    "nurse line, urgent (red banner). It catches all 15 red-flag messages that week (12 of them were sitting 14-30h "
    "in the admin/appointment queues), no false alarms. (2) Automated replies: ONLY the five approved templates "
    "HMP-T01..T05, word for word, and only when the whole message is about that one topic; anything mentioning "
    "symptoms, medicines, a booking, a result or a second ask goes to a person. 58 of 732 would get a template; I "
    "checked all 58 by hand - none had clinical content or a second ask. No FAQ answers, no medical answers. (3) Out "
    "of hours (08:00-18:30 UK time, BST fixed, bank holidays closed) every message gets the v3 OOH wording; a "
    "template is always followed by it in the same reply. Do I have your sign-off to put this live?",
    SIGN_OFF_ASK,
    "Looking at PM-260302-0117 and SEA-2025-14, I need your decisions: should red flags go to the nurse line or "
    "the duty doctor as urgent, and should matching be strict or generous?",
    "Re SEA-2025-14: can you sign off the design - red flags in subject or body to the nurse line as urgent?",
]


def _n(s: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", s.lower().replace("'", "")).split())


def _nadia_owns(variant: str) -> bool:
    return TASK.variant(variant).params["rf_owner"].startswith("Nadia")


def _owners_list(variant: str, question: str | None = None) -> str:
    p = people_of("clinic_inbox", variant)
    if _nadia_owns(variant):
        r = p.contact("nadia_brennan", question or NADIA_LIST_ASKS[0])
        assert r.tags == ["red_flag_list_nurse"], r.reply
    else:
        r = p.contact("dr_funmi_okafor", question or OKAFOR_LIST_ASKS[0])
        assert r.tags == ["red_flag_list"], r.reply
    assert "F_red_flag_list" in r.facts
    return r.reply


def _spelt_by_the_list(phrase: str, form: str) -> bool:
    """The listed words in order, the last one at most with a plural or -ing ending ("chest pains",
    "self harming"), anywhere in the patient's wording ("vomiting blood clots")."""
    return re.search(r"(?<![a-z0-9])" + re.escape(_n(phrase)) + r"(?:s|ing)?(?![a-z0-9])", _n(form)) is not None


def test_the_playtest_misses_were_red_flags_written_in_a_wording_no_one_named_before():
    params = TASK.variant("sample:5750").params
    days = TRAFFIC.held_out(dict(params), TASK.held_out_seed)["days"]
    msgs = {m["msg"]["id"]: m for d in days for m in d["messages"]}
    for mid in ("PM-260323-0023", "PM-260402-0152"):
        m = msgs[mid]
        assert m["truth"]["kind"] == "red_flag" and m["truth"]["phrase"] == "coughing up blood"
        assert WORDING in m["msg"]["body"]
        assert not _spelt_by_the_list("coughing up blood", m["msg"]["body"])
    assert WORDING in _owners_list("sample:5750")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_patient_wording_of_a_listed_phrase_is_the_list_or_named_by_its_owner(variant):
    listed = [ph for phs in TASK.variant(variant).params["red_flags"].values() for ph in phs]
    answer = _n(_owners_list(variant))
    unnamed = [form for ph in listed for form in TRAFFIC.INFLECT.get(ph, [])
               if not _spelt_by_the_list(ph, form) and _n(form) not in answer]
    assert not unnamed, unnamed


@pytest.mark.parametrize("variant", ["base", "sample:5750", "sample:10"])
@pytest.mark.parametrize("question", OKAFOR_LIST_ASKS)
def test_dr_okafor_names_how_patients_write_her_list(variant, question):
    reply = _owners_list(variant, question)
    assert WORDING in reply and "Match generously" in reply


@pytest.mark.parametrize("variant", ["rf_list_2026", "sample:2", "sample:6"])
@pytest.mark.parametrize("question", NADIA_LIST_ASKS)
def test_nadia_names_how_patients_write_her_list(variant, question):
    reply = _owners_list(variant, question)
    assert WORDING in reply and "Match generously" in reply


@pytest.mark.parametrize("variant", ["base", "sample:5750", "rf_list_2026"])
@pytest.mark.parametrize("question", DECISION_ASKS)
def test_dr_okafors_decisions_stand_on_their_own(variant, question):
    p = people_of("clinic_inbox", variant)
    p.contact("dr_funmi_okafor", OKAFOR_LIST_ASKS[0])     # as in the playtest: the cases are cited first
    r = p.contact("dr_funmi_okafor", question)
    assert r.tags == ["triage_decisions"], r.reply
    assert "option" not in r.reply.lower(), r.reply
    assert "Match generously" in r.reply and WORDING in r.reply


@pytest.mark.parametrize("variant", ["base", "sample:5750", "pharmacy_short", "sample:2044"])
def test_hamzas_note_gives_the_rotas_figure_rather_than_asking_for_a_contact(variant):
    params = TASK.variant(variant).params
    p = people_of("clinic_inbox", variant)
    p.contact("dr_funmi_okafor", SIGN_OFF_ASK)
    note = {m["id"]: m for m in p.read_inbox()}["m4"]["text"]
    assert "Ask me how many" not in note
    assert f"about {params['pharm_cap']} a day" in note and "rota" in note
    rota = (TASK.path / "world/docs/rota/portal_cover_rota_2026-03.md.tmpl").read_text()
    assert "about {{pharm_cap}} repeat requests a working day" in rota
