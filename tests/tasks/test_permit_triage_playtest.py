"""permit_triage findings of the first two playtests: appeals cited case numbers whose caseload row was
another job with another outcome; Imogen's own open ticket asking for new conservation streets went
unexplained where she said the list was right; Legal answered the cases already past their statutory
date with "As I said"; the operations lead had no word on them either."""

from __future__ import annotations

import csv
import sqlite3

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from tests.tasks.people_of import people_of, told

TASK = load_task("permit_triage")
PAST = ("One follow-up: when the corrected triage is released, PermitBase re-triages every open case. About 77 open "
        "householder cases are already past the statutory date. What date should they get - and can the council still "
        "decide them, or agree an extension of time?")


@pytest.mark.parametrize("variant", list(TASK.variants) + ["sample:1"])
def test_an_appeal_cites_a_case_that_fits_it(variant):
    world = world_snapshot(TASK, TASK.variant(variant))
    con = sqlite3.connect(world / "data" / "caseload.sqlite")
    appeals = list(csv.DictReader(open(world / "data" / "appeals_2026.csv", encoding="utf-8")))
    for a in appeals:
        if a["lodged"] < "2026-08-03":
            continue                                    # before the caseload extract begins
        row = con.execute("SELECT decision, decided_on, description FROM cases WHERE app_id = ?", (a["app_id"],)).fetchone()
        assert row, a
        assert row[1] < a["lodged"] <= "2026-12-04", (a, row)
        assert (row[0] == "DEEMED (DA1)") == (a["route_at_decision"] == "DEEMED (DA1)"), (a, row)
        assert row[2].lower() in a["grounds"], (a, row)


def test_imogen_explains_her_ticket_where_nothing_is_designated():
    ppl = people_of("permit_triage")
    ppl.wait(24)                                        # back on Tuesday
    r = ppl.contact("imogen_sutcliffe", "Your REQ-20511 asked for new conservation area streets to be added. "
                                        "Which area was designated, and which streets?")
    assert "conservation_areas" in told(r) and "REQ-20511" in r.reply and "neither is designated" in r.reply


def test_legal_answers_the_cases_already_past_their_date():
    r = people_of("permit_triage").contact("rajesh_mistry", PAST)
    assert "already_deemed" in told(r) and "deemed approved by operation of the scheme" in r.reply


def test_the_operations_lead_says_a_case_past_its_date_is_deemed():
    r = people_of("permit_triage").contact("karen_oldroyd", "What happens when a case reaches its decide_by still open?")
    assert "deemed_notices" in told(r) and "can't decide the past" in r.reply


IMOGEN = ("Dr Sutcliffe - I'm the engineer fixing the minor works triage that routes cases to your queue. Three questions:\n"
          "1) Your ticket REQ-20511 (add new CA streets per the Cabinet minute) is still waiting for the list. Which "
          "conservation area was designated, on what date, and exactly which streets should the triage route to you?\n"
          "2) Any other street-list changes (streets added/removed in existing areas, spelling variants of street names)?\n"
          "3) Applicants often tick \"in a conservation area\" for streets that are not (you return them as \"not CA\"), "
          "and since portal v3 the question defaults to \"Don't know\" sent as N. Do you want the applicant's tick to keep "
          "sending a case to you (belt and braces), or should the street list alone decide?")


@pytest.mark.parametrize("variant", ["base", "foundry_quarter"])
def test_the_conservation_officer_says_the_street_decides_not_the_tick(variant):
    """Round 15b: asked three things, the tick third, she gave the areas only, after "I couldn't give you the
    exact date offhand" where nothing had been designated."""
    ppl = people_of("permit_triage", variant)
    ppl.wait(24)
    r = ppl.contact("imogen_sutcliffe", IMOGEN)
    assert "conservation_areas" in told(r) and "not what the applicant ticks" in r.reply
    assert "couldn't give you the exact date" not in r.reply
