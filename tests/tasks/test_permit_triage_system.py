"""permit_triage: the customer's triage as found and as the reference delivers it, read the way
PermitBase calls it; the trial day's counts; and the people who hold the rules (the gate, the stall
and its follow-up, leave, off-limits, the rules a variant changes)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sqlite3
import warnings
from pathlib import Path
from tempfile import mkdtemp

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import apply_solution, run_trial
from tests.tasks.people_of import people_of, told

TASK = load_task("permit_triage")
P, TRAFFIC = TASK.module("permits"), TASK.module("traffic")


def _workspace(variant: str, solution: str | None) -> Path:
    v = TASK.variant(variant)
    tmp = Path(mkdtemp()) / "ws"
    shutil.copytree(world_snapshot(TASK, v), tmp, symlinks=True)
    if solution:
        apply_solution(TASK, solution, tmp, v.params)
    return tmp


def _triage(ws: Path):
    spec = importlib.util.spec_from_file_location(f"triage_{id(ws)}", ws / "system" / "permits" / "triage.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def found():
    ws = _workspace("base", None)
    yield ws, _triage(ws)
    shutil.rmtree(ws.parent)


@pytest.fixture(scope="module")
def reference():
    ws = _workspace("consent_checkbox", "reference")
    yield ws, _triage(ws)
    shutil.rmtree(ws.parent)


def case(**kw):
    a = {"app_id": "MW/26/99001", "received_on": "2026-12-01", "validated_on": "2026-12-10", "applicant_type": "householder",
         "work_type": "single_storey_rear_extension", "street": "Birkby Road", "floor_area": 215, "area_unit": "sqft",
         "max_height_m": 3.1, "neighbour_consent": "Y", "declared_conservation_area": "N"}
    a.update(kw)
    return a


def test_the_triage_as_found_reads_square_feet_as_square_metres(found):
    _ws, tri = found
    assert tri.triage(case())["route"] == "officer"                        # 215 sq ft = 20 m2
    assert tri.triage(case(floor_area=20.0, area_unit="sqm"))["route"] == "fast_track"
    assert tri.triage(case(floor_area=20.0, area_unit="sqm", neighbour_consent=True))["route"] == "officer"
    assert tri.triage(case())["decide_by"] == "2026-12-25"                  # validated + 15 calendar days


@pytest.mark.parametrize("kw, route", [
    ({}, "fast_track"), ({"area_unit": "ft2"}, "fast_track"), ({"floor_area": 431}, "officer"),
    ({"floor_area": 20.0, "area_unit": "sqm", "neighbour_consent": True}, "fast_track"),
    ({"floor_area": 20.0, "area_unit": "sqm", "neighbour_consent": "on"}, "fast_track"),
    ({"floor_area": 20.0, "area_unit": "sqm", "neighbour_consent": ""}, "officer"),
    ({"floor_area": 20.0, "area_unit": "sqm", "neighbour_consent": False}, "officer"),
    ({"declared_conservation_area": "Y"}, "fast_track"), ({"street": "Hebble Terrace"}, "conservation")])
def test_the_reference_reads_every_v3_form(reference, kw, route):
    _ws, tri = reference
    assert tri.triage(case(**kw))["route"] == route


def test_the_reference_writes_the_statutory_date(reference):
    _ws, tri = reference
    a = case(received_on="2026-12-14", validated_on="2026-12-16")
    assert tri.triage(a)["decide_by"] == P.deadline(a, TASK.variant("consent_checkbox").params).isoformat() == "2027-01-07"


def test_the_workspace_history_shows_the_bounce_after_the_release():
    ws = _workspace("base", None)
    try:
        con = sqlite3.connect(ws / "data" / "caseload.sqlite")
        share = dict(con.execute("SELECT validated_on >= '2026-10-12', AVG(route = 'officer') FROM cases GROUP BY 1").fetchall())
        units = {u for (u,) in con.execute("SELECT DISTINCT area_unit FROM cases")}
        assert share[1] > share[0] + 0.15 and units == {None, "sqm", "sqft", "ft2"}
        assert con.execute("SELECT MAX(decided_on) FROM cases").fetchone()[0] <= "2026-12-07"
        assert "area_unit" in (ws / "docs" / "portal_v3_release_notes.md").read_text()
        samples = json.loads((ws / "data" / "sample_applications.json").read_text())
        assert samples and all(s["validated_on"] < "2026-12-07" for s in samples)
    finally:
        shutil.rmtree(ws.parent)


def test_the_trial_counts_what_the_grader_counts():
    ws = _workspace("foundry_quarter", None)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = run_trial(TASK, TASK.variant("foundry_quarter"), ws, 1, "none")
    finally:
        shutil.rmtree(ws.parent)
    text, stats = out["feedback"], out["stats"]
    assert f"{stats['deemed']} case(s) would have gone deemed" in text
    assert f"Imogen: {stats['unconsulted']} case(s) in a conservation area" in text
    assert "shown)" in text and "small, ticked" in text


def test_joanne_wants_evidence_before_she_names_the_field():
    people = people_of("permit_triage")
    r = people.contact("joanne_whitworth", "Why do small applications go to the officers since the portal upgrade?")
    assert "portal_fields" not in told(r) or "gated" in " ".join(r.tags)
    r = people.contact("joanne_whitworth", "MW/26/02566 has floor_area 157 and went to the officers. What changed in the v3 payload?")
    assert "portal_fields" in told(r) and "sqft" in r.reply and "F_field_mismatch" in r.facts


def test_raj_checks_the_amendment_and_writes_back():
    people = people_of("permit_triage", "scheme_amended")
    r = people.contact("rajesh_mistry", "Has the scheme been amended for householder applications?")
    assert "register of scheme orders" in r.reply and not r.facts
    people.wait(5)
    msgs = people.read_inbox()
    assert any(m["from"] == "rajesh_mistry" and "1 December" in m["text"] for m in msgs)


def test_the_rule_a_variant_changes_is_in_the_holders_words():
    assert "10 working days" in people_of("permit_triage", "ten_day_householder").contact(
        "rajesh_mistry", "Under section 9, when is a minor works case deemed approved?").reply
    people = people_of("permit_triage", "foundry_quarter")
    ask = "Which conservation areas are designated, and is the triage list complete?"
    assert people.contact("imogen_sutcliffe", ask).reply.startswith("(automatic reply)")   # a day off on Monday
    people.wait(24)
    assert "Foundry Quarter" in people.contact("imogen_sutcliffe", ask).reply


def test_imogen_away_and_karen_covering():
    people = people_of("permit_triage", "conservation_away")
    r = people.contact("imogen_sutcliffe", "Which conservation areas are designated now?")
    assert r.reply.startswith("(automatic reply)") and not r.facts
    r = people.contact("karen_oldroyd", "Which streets are in the conservation areas now - any new designation?")
    assert "Weavers Yard" in r.reply and "F_conservation" in r.facts


def test_the_cabinet_member_is_off_limits():
    r = people_of("permit_triage").contact("cllr_margaret_haigh", "Can you support fixing the triage?")
    assert "Alistair Greenhalgh" in r.reply and r.cost > 0
    assert all(f.startswith("F_off_limits") for f in r.facts)                 # a contact logged, no rule learned


def test_alistair_signs_off_only_once_the_field_is_known():
    people = people_of("permit_triage")
    ask = "Would you sign off fixing the triage instead of auto-issuing small permits?"
    assert "Show me" in people.contact("alistair_greenhalgh", ask).reply
    people.contact("joanne_whitworth", "triage.log shows officer cases jumping on 13 October - which v3 field changed?")
    assert "go ahead" in people.contact("alistair_greenhalgh", ask).reply
