"""clinic_inbox: the held-out edge cases exist in every named variant, the world holds the evidence
for each, and the grader tells a router that handles them from one that does not.

Edge cases (held-out weeks 23 March - 5 April 2026):
- received_at is a UTC instant and the clocks go forward on 29 March (opening hours are UK time);
- Good Friday 3 April is a bank holiday (closed all day; the pharmacy desk rolls to Tuesday 7 April);
- red flags written off the list's exact wording ("chest pains", "cant catch my breath");
- controlled drugs by brand name (Lyrica, Zomorph, ...);
- admin questions with a second ask, and carers typing someone's repeat into an Admin query.
"""
from __future__ import annotations

import datetime as dt
import re
import shutil

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.grading.grade import Deployment, apply_solution
from fdegym_env.tasklib import replay

TASK = load_task("clinic_inbox")
VARIANTS = sorted(TASK.variants)


@pytest.fixture(scope="module")
def mods():
    return {"traffic": TASK.module("traffic"), "grader": TASK.module("grader"),
            "reference": TASK.module("solutions/reference")}


def _held(mods, name):
    return mods["traffic"].held_out(dict(TASK.variant(name).params), TASK.held_out_seed)


def test_uk_time_of_received_at(mods):
    G = mods["grader"]
    assert G.local("2026-03-27T07:30:00Z") == dt.datetime(2026, 3, 27, 7, 30)       # GMT
    assert G.local("2026-03-30T07:30:00Z") == dt.datetime(2026, 3, 30, 8, 30)       # BST
    assert G.local("2026-03-30T07:30:00+00:00") == dt.datetime(2026, 3, 30, 8, 30)
    assert G.local("2026-03-30 08:30:00") == dt.datetime(2026, 3, 30, 8, 30)        # old MLL build: UK wall-clock
    assert G.local("2026-10-25T00:30:00Z") == dt.datetime(2026, 10, 25, 1, 30)      # still BST before 01:00 UTC
    assert G.local("2026-10-25T01:30:00Z") == dt.datetime(2026, 10, 25, 1, 30)      # GMT again


def test_good_friday_is_closed_and_not_a_desk_day(mods):
    G = mods["grader"]
    wins = G.windows(dict(TASK.variant("base").params), dt.date(2026, 4, 2), 6)
    assert [a.date() for a, _ in wins] == [dt.date(2026, 4, 2), dt.date(2026, 4, 7)]
    late = G.pharmacy_sim([(dt.datetime(2026, 4, 3, 10), "a"), (dt.datetime(2026, 4, 3, 11), "b")], 1,
                          dt.date(2026, 4, 3), 3)
    assert late == {"a": 0, "b": 1}      # both belong to Tuesday 7 April; one slot that day


@pytest.mark.parametrize("name", VARIANTS)
def test_every_named_variant_carries_every_edge_case(mods, name):
    G = mods["grader"]
    days = _held(mods, name)["days"]
    assert days[0]["date"] == "2026-03-23" and days[-1]["date"] == "2026-04-05"
    msgs = [m for d in days for m in d["messages"]]
    bst_mornings = [m for m in msgs if m["msg"]["received_at"].endswith(("Z", "+00:00"))
                    and G.local(m["msg"]["received_at"]).date() >= dt.date(2026, 3, 30)
                    and G.local(m["msg"]["received_at"]).weekday() < 5
                    and G.local(m["msg"]["received_at"]).hour == 8]
    assert len(bst_mornings) >= 20, "too few 08:xx BST messages to tell UTC from UK time"
    good_friday = [m for m in msgs if m["msg"]["id"].startswith("PM-260403-")]
    assert any(m["truth"]["kind"] == "red_flag" for m in good_friday), "no red flag on Good Friday"
    off_list = [m for m in msgs if m["truth"]["kind"] == "red_flag"
                and m["truth"]["phrase"].lower() not in (m["msg"]["subject"] + " " + m["msg"]["body"]).lower()]
    assert len(off_list) >= 3, "no red flag worded off the list"
    brands = [m for m in msgs if m["truth"].get("brand")]
    assert len(brands) >= 5
    for m in brands:
        assert not any(m["truth"]["cd"] in i.lower() for i in m["msg"]["items"]), "a 'brand' item names the generic"
    assert sum(m["truth"].get("host") == "mixed" for m in msgs) >= 40
    assert sum(m["truth"].get("host") == "proxy" for m in msgs) >= 15
    carers = [m for m in msgs if m["truth"].get("host") == "carer"]
    assert carers and all(m["truth"]["about"][3:] in m["msg"]["body"].lower() for m in carers)


def test_every_brand_in_traffic_is_one_the_pharmacist_names(mods):
    T, reference = mods["traffic"], mods["reference"]
    hamza = next(p for p in TASK.people_spec(TASK.variant("base"))["people"] if p["id"] == "hamza_qureshi")
    answer = next(t["answer"] for t in hamza["topics"] if t["id"] == "cd_rule")
    for drug, (_, items) in T.CD_FORMS.items():
        for item in items:
            word = item.split()[0]
            if word.lower() == drug:
                continue
            assert word in reference.CD_BRANDS[drug], f"{word} ({drug}) not in the reference's brand list"
            assert word in answer, f"{word} ({drug}) is generated but Hamza never names it"


def test_the_world_holds_the_evidence():
    world = TASK.path / "world"
    rota = (world / "docs/rota/portal_cover_rota_2026-03.md.tmpl").read_text()
    assert "Good Friday 3 April" in rota and "bank holiday" in rota
    assert "TRIAGE-97" in (world / "tickets/TRIAGE_tickets.md").read_text()
    assert re.search(r"something else as well", (world / "docs/templates/auto_reply_templates.md").read_text())
    people = {p["id"]: p for p in TASK.people_spec(TASK.variant("base"))["people"]}
    ian = {t["id"]: t["answer"] for t in people["ian_morrow"]["topics"]}
    assert "UTC" in ian["connector_timestamps"] and "no zone" in ian["connector_timestamps"]
    lorna = {t["id"]: t["answer"] for t in people["lorna_pike"]["topics"]}
    assert "carers" in lorna["mixed_messages"].lower()


def _route_all(mods, tmp_path, overrides, params, traffic):
    """The reference with ``overrides`` (policy keys) on top, graded on ``traffic`` without a sandbox."""
    ws = tmp_path / "ws"
    shutil.copytree(TASK.path / "world" / "system", ws / "system")
    apply_solution(TASK, "reference", ws, params)
    mods["reference"].write_policy(ws, {"90_overrides.json": overrides})
    G = mods["grader"]
    with Deployment(TASK, ws, "none") as deploy:
        decide = replay.Decider(deploy)
        out = G.evaluate(decide, params, traffic)
    assert not decide.malformed
    return out


def test_the_grader_separates_reference_diligent_and_naive(mods, tmp_path):
    params = dict(TASK.variant("base").params)
    traffic = _held(mods, "base")
    ref = _route_all(mods, tmp_path / "ref", {}, params, traffic)
    assert ref["incidents"] == []
    dil = _route_all(mods, tmp_path / "dil", {"repeat_in_body": False, "second_ask_words": [], "desk_closed_dates": []},
                     params, traffic)
    assert dil["incidents"] == [] and dil["kpi"] > ref["kpi"] + 0.5
    out = _route_all(mods, tmp_path / "utc", {"uk_time": False}, params, traffic)
    assert any(i.startswith("told_closed_while_open") for i in out["incidents"])
    out = _route_all(mods, tmp_path / "easter", {"closed_dates": []}, params, traffic)
    assert any(i.startswith("ooh_red_flag_unsafe") for i in out["incidents"])
    out = _route_all(mods, tmp_path / "brand", {"cd_drugs": list(params["cd_drugs"])}, params, traffic)
    assert any(i.startswith("cd_auto_handled") for i in out["incidents"])


def test_decide_checks_the_decisions_inside_the_connector_envelope(mods):
    """route_batch answers {"decisions": [...]}: an unknown queue, a non-text reply or a missing id is
    malformed (task.yaml's output: queue values, ``reply: str?``) and only the valid decisions count;
    a reply may be null or absent; a bare list is not the connector's shape."""
    class FakeDeploy:
        task = TASK

        def __init__(self, value):
            self.value = value

        def call(self, module, function, batch, timeout_s=None):
            return type("Res", (), {"ok": True, "error": None, "value": self.value})()

    batch = {"batch_id": "B-1", "messages": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}, {"id": "e"}]}
    decide = replay.Decider(FakeDeploy({"decisions": [
        {"id": "a", "queue": "nurse_line", "priority": "urgent", "reply": None},
        {"id": "b", "queue": "reception", "reply": None},
        {"id": "c", "queue": "auto_reply", "reply": 3},
        {"id": "e", "queue": "front_desk"}]}))
    reply = decide(batch)
    assert sorted(reply.decisions) == ["a", "e"] and len(reply.malformed) == 3
    assert decide.incidents()[0].startswith("malformed_output: 3 item(s)")
    assert "c: reply=3 is not str or null" in reply.malformed
    bare = replay.Decider(FakeDeploy([{"id": "a", "queue": "doctor"}]))
    assert bare(batch).decisions == {} and len(bare.malformed) == 5