"""irrops_rebook, from the playtests: what the console's SMS says and what a decision can carry.

- Asked whether the console's SMS to a rebooked passenger shows the new arrival airport (LGW for LHR)
  and whether a rebook decision can carry a 'note' for the SMS, Conor (who wrote the console
  integration) answered with the history of the SSR rule.
- Marek and Aoife said the tool may re-route to the other airport by SMS "if the message says which
  airport and that the transfer's on us", while the decision format has no way to say anything: the
  console's own template does both (system/README.md says so).
- Asked how much earlier an LGW/ORY arrival must be, Marek opened with "I don't have that number to
  hand". The grader has no threshold (a co-terminal is a flyable rebooking that costs its transfer,
  whatever the margin), so he says plainly there is no set number: any clearly earlier arrival is fine."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router
from tests.tasks.test_irrops_rebook_audit import SIM, flight, grade, pax, plan

TASK = load_task("irrops_rebook")
VARIANTS = ["base", "sample:8995", "sample:1"]


def ask(variant: str, to: str, message: str):
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router(TASK.router, spec["people"])).contact(to, message)


SMS_ASKS = [
    # the playtest's question, as the brief gives it
    "Does the console's SMS to a rebooked passenger show the new arrival airport (e.g. LGW instead of LHR), and "
    "can a rebook decision carry an extra 'note' field for the SMS (e.g. 'transfer on us')?",
    "Conor - you built the console integration. When the tool rebooks someone, what does the console carry onto "
    "the passenger's SMS? For a co-terminal rebook (LGW instead of LHR), does the SMS show the new arrival airport, "
    "and can the rebook decision carry an extra \"note\" field that the console puts in the SMS, like \"transfer on "
    "us\"?",
    "I'm adding co-terminal re-protection (LHR->LGW, CDG->ORY). Marek wants the SMS to name the new airport and say "
    "the transfer's on us. Does the console's SMS show the new arrival airport, and can a rebook decision carry a "
    "'note' field for the SMS?",
    "What does the rebooking SMS actually say?",
    "Can I add extra fields to a decision, like a note for the passenger?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", SMS_ASKS, ids=["playtest", "console_carry", "marek_wants", "short", "fields"])
def test_conor_says_what_the_sms_shows_and_what_a_decision_carries(variant, message):
    r = ask(variant, "conor_hegarty", message)
    assert r.tags == ["sms_content"], (r.tags, r.reply)
    for said in ("There's no note field", "pax_id, action and segments", "London Gatwick, not Heathrow",
                 "the ground transfer to Heathrow is on Skellig Air"):
        assert said in r.reply, said


SSR_ASKS = [
    "CHANGELOG 1.2.0 says desk_if_any_ssr went in after a WCHR incident at CDG. What actually happened?",
    "If reaccom rebooks a passenger with a wheelchair request, does the console move the SSR onto the new flight, "
    "or would it get lost?",
    "What would break if I turned desk_if_any_ssr off?",
    "Why does a vegetarian meal code send someone to the desk? Is there a reason every SSR has to go there?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", SSR_ASKS)
def test_the_ssr_history_still_answers_its_own_questions(variant, message):
    r = ask(variant, "conor_hegarty", message)
    assert r.tags == ["ssr_desk_rule"], (r.tags, r.reply)


def test_the_readme_says_what_the_sms_carries_and_that_other_keys_are_ignored():
    readme = " ".join((world_snapshot(TASK, TASK.variant("base")) / "system" / "README.md")
                      .read_text(encoding="utf-8").split())
    assert "anything else on a decision is ignored" in readme
    assert "ground transfer to the booked airport is on Skellig Air" in readme


def _london_world(lgw_at: str):
    cnl = flight("SK401/10MAR", "CDG", "DUB", "2026-03-10T07:00", 105)
    new = flight("SK403/10MAR", "CDG", "DUB", "2026-03-10T10:00", 105)
    lhr = flight("SK420/10MAR", "DUB", "LHR", "2026-03-10T14:00", 75)
    lgw = flight("SK450/10MAR", "DUB", "LGW", lgw_at, 75)
    return [cnl, new, lhr, lgw]


def test_a_note_on_a_decision_is_ignored_as_the_console_ignores_it():
    """No note field: an extra key changes nothing, and is no malformed output either."""
    from fdegym_env.tasklib.replay import OutputSpec, entry_point
    spec = OutputSpec.of(entry_point(TASK).output)
    note = {"note": "Arriving Gatwick - transfer to Heathrow on us"}
    decision = {"pax_id": "P00006", "action": "rebook", "segments": ["SK403/10MAR", "SK450/10MAR"]}
    assert spec is not None
    good, bad = spec.check({"decisions": [{**decision, **note}]}, ["P00006"])
    assert bad == [] and list(good) == ["P00006"]
    out = []
    for extra in ({}, note):
        fl = _london_world("2026-03-10T13:00")
        p = plan(fl, "SK401/10MAR", [pax("P00006", [fl[0], fl[2]], "SK401/10MAR")])
        out.append(grade(p, [{**decision, **extra}]))
    assert out[0]["incidents"] == out[1]["incidents"] == []
    assert out[0]["kpi"] == out[1]["kpi"] and out[1]["details"]["coterm"] == 1


def test_the_grader_has_no_earlier_arrival_threshold():
    """The tool's co-terminal is never rejected for landing only a little earlier: it is a flyable
    rebooking that pays its transfer, whatever the margin (Marek: no set number)."""
    for lgw_at in ("2026-03-10T13:55", "2026-03-10T12:30"):            # LGW lands 5 min / 90 min before LHR
        fl = _london_world(lgw_at)
        p = plan(fl, "SK401/10MAR", [pax("P00006", [fl[0], fl[2]], "SK401/10MAR")])
        out = grade(p, [{"pax_id": "P00006", "action": "rebook", "segments": ["SK403/10MAR", "SK450/10MAR"]}])
        assert out["incidents"] == [] and out["details"]["coterm"] == 1 and out["details"]["auto"] == 1
    assert not [n for n in vars(SIM) if "COTERM" in n and n != "COTERM_EUR"]


THRESHOLD_ASKS = [
    "How much earlier does Gatwick need to get someone in before you'd move them off Heathrow - one hour? two?",
    "For the co-terminal rebooking: how much earlier must an LGW/ORY arrival be than the best LHR/CDG option before "
    "the tool should use it? I've set it at 2 hours for now.",
    "What's the threshold for using Orly instead of CDG - how many minutes earlier does the arrival need to be?",
    "I'm writing the co-terminal rule into reaccom. When the Heathrow flights are full and the Gatwick flight lands "
    "earlier, what margin do your agents use to decide it's worth the transfer? Is there a minimum number of "
    "minutes?",
]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("message", THRESHOLD_ASKS, ids=["playtest", "set_2h", "threshold", "margin"])
def test_marek_says_how_much_earlier_the_other_airport_must_be(variant, message):
    r = ask(variant, "marek_zielinski", message)
    assert r.tags == ["coterminals"], (r.tags, r.reply)
    assert "There's no set number for how much earlier: any clearly earlier arrival is fine" in r.reply
    assert "to hand" not in r.reply and "not_to_hand" not in r.tags
    # consistent with Conor and the README: the console's SMS names the airport and the transfer
    assert "the rebooking SMS already names the new airport" in r.reply


def test_marek_and_aoife_agree_the_console_sms_names_the_airport_and_the_transfer():
    desk = ask("base", "marek_zielinski", "Once the tool rebooks connecting passengers too, which passengers would "
               "you still want your agents to handle rather than getting an SMS?")
    assert desk.tags == ["desk_keeps"], (desk.tags, desk.reply)
    assert "the rebooking text names the other airport and says the transfer's on us" in desk.reply
    art = ask("base", "aoife_brennan", "Can reaccom move a Heathrow passenger onto the Gatwick flight by itself and "
              "just text them, or does Article 8(3) need an agent to agree the change with the passenger?")
    assert art.tags == ["coterminal_policy"], (art.tags, art.reply)
    assert "the rebooking SMS does that on its own" in art.reply
