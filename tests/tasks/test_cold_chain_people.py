"""cold_chain people and world: whoever holds Halden's SOP states the allowance the grader applies in
every variant (Anjali, or Hannah when Anjali is on leave and shown a QR number); Lucy's promised list
arrives and names exactly the lines the grader treats as misread ambient; the sponsor signs off only
once the QP's outcomes are known; the trial report gives counts; the workspace shows the evidence."""

from __future__ import annotations

import csv
import json
import warnings

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("cold_chain")
CC = TASK.module("coldchain")
SOP_Q = "The SOP copy in docs is rev 5. Which revision of QA-SOP-014 is in force, and what counts as an excursion for a 2-8 line?"


def people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


def minutes_said(text: str, window: int) -> bool:
    words = {15: "fifteen", 20: "twenty", 30: "thirty"}
    return f"{window} minutes" in text or f"{window} cumulative" in text or words[window] in text.lower()


@pytest.mark.parametrize("variant", ["base", "sop_rev7", "peak_cap", "tenths_loggers", "vaccine_window"])
def test_anjali_states_the_allowance_the_grader_applies(variant):
    p = TASK.variant(variant).params
    r = people(variant).contact("anjali_mistry", SOP_Q)
    assert "client_sop" in r.tags and "F_sop" in r.facts, (r.tags, r.reply)
    assert minutes_said(r.reply, p["window_min"]) and "cumulative" in r.reply.lower() + " total"
    assert (f"{p['peak_c']} °C" in r.reply) == bool(p["peak_c"])


def test_anjali_states_the_vaccines_own_allowance_only_where_the_sop_has_it():
    p = TASK.variant("vaccine_window").params
    r = people("vaccine_window").contact("anjali_mistry", SOP_Q)
    assert f"{p['vaccine_min']} minutes" in r.reply and "HAL-QIV-05" in r.reply and "HAL-RZV-01" in r.reply
    assert set(CC.VACCINES) == {"HAL-QIV-05", "HAL-RZV-01"}
    assert CC.allowance("HAL-QIV-05", p) == p["vaccine_min"] and CC.allowance("HAL-INS-GLA", p) == p["window_min"]
    base = people("base").contact("anjali_mistry", SOP_Q)
    assert "Appendix C" not in base.reply and CC.allowance("HAL-QIV-05", TASK.variant("base").params) == 30


def test_on_leave_anjali_is_away_and_hannah_holds_the_sop_behind_a_qr_number():
    eng = people("qa_on_leave")
    away = eng.contact("anjali_mistry", SOP_Q)
    assert away.reply.startswith("(automatic reply)") and not away.facts
    miss = eng.contact("hannah_brook", "Which revision of the Halden SOP are you working to, and what does it allow above 8?")
    assert "QR" in miss.reply and not miss.facts
    hit = eng.contact("hannah_brook", "QR-26-2640 in the register - which SOP revision was it raised under, and what does it allow above 8 °C?")
    assert "F_sop" in hit.facts and minutes_said(hit.reply, TASK.variant("qa_on_leave").params["window_min"])


def test_hannah_does_not_hold_the_sop_where_anjali_is_in():
    r = people("base").contact("hannah_brook", "QR-26-2640 - which SOP revision was it raised under, and what does it allow?")
    assert "sop_on_file" in r.tags and not r.facts and "Anjali" in r.reply


def test_lucys_promised_list_arrives_and_matches_the_misread_lines():
    eng = people("base")
    first = eng.contact("lucy_haigh", "Can you list every storage wording the import read as 2-8 when the product is really ambient?")
    assert "this afternoon" in first.reply and not first.facts
    eng.wait(6)
    msgs = {m["id"]: m["text"] for m in eng.read_inbox()}
    assert "m2_lucy_list" in msgs and "F_master" in eng.known
    misread = [p for p in CC.PRODUCTS if p[6] in ("dnr", "odd")]
    assert "nine ambient lines" in msgs["m2_lucy_list"].lower() and len(misread) == 9
    for p in misread:
        assert p[1].split()[0].lower() in msgs["m2_lucy_list"].lower(), p[1]


def test_gareth_signs_off_only_once_the_qp_outcomes_are_known():
    eng = people("base")
    ask = "Most of July's quarantines were released by Halden's QP. If I fix the rules instead of buying loggers, will you sign that off?"
    assert "F_qp" not in eng.known
    first = eng.contact("gareth_holroyd", ask)
    assert "register" in first.reply and "Go ahead" not in first.reply
    eng.contact("anjali_mistry", "When coldwatch quarantines a line, who decides whether it goes back to stock, and what does it cost us?")
    assert "F_qp" in eng.known
    again = eng.contact("gareth_holroyd", ask)
    assert "Go ahead" in again.reply


def test_qp_costs_said_are_the_graders():
    r = people("base").contact("anjali_mistry", "When coldwatch quarantines a line, who decides whether it goes back to stock, and what does it cost us?")
    assert f"£{CC.QP_REVIEW:.0f}" in r.reply
    s = people("base").contact("sophie_ramsden", "How much does a replacement run cost us, all in?")
    assert f"£{CC.REDELIVERY:.0f}" in s.reply


@pytest.mark.parametrize("variant, tenths", [("base", False), ("tenths_loggers", True)])
def test_the_workspace_shows_the_k2_export_as_the_variant_has_it(variant, tenths):
    ws = world_snapshot(TASK, TASK.variant(variant))
    traces = [json.loads(line) for f in sorted((ws / "data" / "logger_traces").glob("*.jsonl"))
              for line in f.read_text(encoding="utf-8").splitlines()]
    k2 = [x for x in traces if x["logger"] == "K2"]
    assert k2 and all(isinstance(t, int) for t in k2[0]["temps"]) is tenths
    assert ("0.1 °C units" in (ws / "docs" / "logger_fleet.md").read_text(encoding="utf-8")) is tenths


def test_the_register_shows_most_holds_released_by_the_qp():
    ws = world_snapshot(TASK, TASK.variant("base"))
    rows = list(csv.DictReader((ws / "data" / "quarantine_register.csv").read_text(encoding="utf-8").splitlines()))
    outcomes = [r["qp_outcome"] for r in rows]
    assert outcomes.count("released") > 3 * outcomes.count("destroyed") > 0
    assert {"HAL-SAL-100", "HAL-EST-PT"} <= {r["product_code"] for r in rows}


def test_the_trial_reports_counts_not_the_rule():
    from fdegym_env import FDEGymEnv
    env = FDEGymEnv(task="cold_chain", sandbox="none", variant="base")
    try:
        env.reset(seed=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            text = env.step({"tool": "trial"})[0]["text"]
        assert "would have quarantined" in text and "upheld as excursions" in text and "shown)" in text
        assert "SOP" not in text and "cumulative" not in text and "minutes" not in text
    finally:
        env.close()
