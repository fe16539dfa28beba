"""outage_notify: the subtle cases of the held-out traffic exist on every named variant and on
samples, the dev world shows evidence for each, the reference handles them and the diligent
answer does not, and the menu's planner item (the reference's change) applies edit by edit."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import sys
from datetime import datetime

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import held_out_traffic
from fdegym_env.tasklib import menu as tasklib_menu
from fdegym_env.tasklib.replay import Reply

TASK = load_task("outage_notify")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:0", "sample:1", "sample:2", "sample:3"]
NET = TASK.module("on_net")
RAW_MENU = {a["id"]: a for a in yaml.safe_load((TASK.path / "menu.yaml").read_text(encoding="utf-8"))["actions"]}
MENU = {a["id"]: a for a in tasklib_menu.items(TASK)}
SCADA_SECTIONS = {"MBK3102-06", "MBK3102-07"}


def _ts(e: dict) -> datetime:
    return datetime.strptime(e["ts"][:19], "%Y-%m-%dT%H:%M:%S")


@pytest.mark.parametrize("variant", VARIANTS)
def test_held_out_has_every_subtle_case(variant):
    v = TASK.variant(variant)
    weeks = held_out_traffic(TASK, v)["weeks"]
    evs = [e for w in weeks for e in w]
    # escalating incidents: a second LOCKOUT upstream of the first, same OMS incident
    paths = NET.as_operated({})
    by_inc: dict = {}
    for e in evs:
        if e["type"] == "LOCKOUT":
            by_inc.setdefault(e["incident"], []).append(e["device"])
    grown = [d for d in by_inc.values() if len(d) > 1]
    assert len(grown) >= 3, (variant, len(grown))
    for devs in grown:
        first_secs = {s for s, p in paths.items() if devs[0] in p["path"]}
        assert any(devs[1] in paths[s]["path"] for s in first_secs), devs
    # the SCADA transfer spans both weekly batches and sees lockouts while it is in
    sw = [(w, e) for w, batch in enumerate(weeks) for e in batch if e["type"] == "SWITCH"]
    assert {w for w, _e in sw} == {0, 1}, variant
    on, off = _ts(sw[0][1]), _ts(sw[-1][1])
    custs = NET.customers(int(v.params["world_seed"]), v.params)
    hit_scada = [e for e, hit in NET.replay(evs, v.params, custs)
                 if on < _ts(e) < off and any(c["section"] in SCADA_SECTIONS for c in hit)
                 and e["feeder"] == "ORC-1201"]
    assert hit_scada, variant
    # that tail has no priority customers (its miss is cost, not an incident), and landlines are out
    assert not [c for c in custs if c["section"] in SCADA_SECTIONS and c["med_code"]]
    landline_out = {c["account"] for _e, hit in NET.replay(evs, v.params, custs) for c in hit
                    if c["phone_type"] == "landline" and not c["med_code"]}
    assert len(landline_out) >= 10, (variant, len(landline_out))


@pytest.mark.parametrize("variant", NAMED)
def test_dev_world_shows_the_evidence(variant):
    root = world_snapshot(TASK, TASK.variant(variant))
    evs = [json.loads(x) for x in (root / "data" / "oms_events_2026-11.jsonl").read_text(encoding="utf-8").splitlines()]
    assert any(e["type"] == "SWITCH" and e["device"] == "T-103" for e in evs)
    incs = [e["incident"] for e in evs if e["type"] == "LOCKOUT"]
    assert len(incs) > len(set(incs)), "no incident with two lockouts in the November file"
    log = (root / "logs" / "ons.log").read_text(encoding="utf-8")
    assert "ErrorCode=30006" in log and "SWITCH T-103 closed" in log
    calls = (root / "data" / "call_centre" / "inbound_outage_calls_2026-11.csv").read_text(encoding="utf-8")
    assert "DUP_MSG" in calls and "landline" in calls.lower()
    assert "system/ons/state/" in (root / "system" / "README.md").read_text(encoding="utf-8")
    assert (root / "docs" / "mail" / "FW_life_support_no_call.txt").is_file()


@pytest.mark.parametrize("variant", NAMED)
def test_world_names_no_variant_or_param(variant):
    v = TASK.variant(variant)
    words = {w for w in set(NAMED) | set(v.params) if "_" in w}
    root = world_snapshot(TASK, v)
    for f in root.rglob("*"):
        if f.is_file() and "__pycache__" not in f.parts:
            text = f.read_text(encoding="utf-8", errors="replace")
            for w in words:
                assert not re.search(rf"\b{re.escape(w)}\b", text), (f.relative_to(root), w)


def test_menu_planner_item_edits_apply_one_by_one_to_the_world(tmp_path):
    """apply_planner_v2 is kept once (solutions/menu/planner_v2.patch) and reaches the agent as edit_file
    steps: each step's old text must occur exactly once in the file as the earlier steps left it."""
    assert "apply" in RAW_MENU["apply_planner_v2"] and "steps" not in RAW_MENU["apply_planner_v2"]
    steps = MENU["apply_planner_v2"]["steps"]
    assert {s["path"] for s in steps} == {"system/ons/planner.py", "system/ons/config.json"}
    ws = tmp_path / "ws"
    shutil.copytree(world_snapshot(TASK, TASK.variant("base")), ws)
    for st in steps:
        assert st["tool"] == "edit_file", st
        text = (ws / st["path"]).read_text(encoding="utf-8")
        assert text.count(st["old"]) == 1, (st["path"], st["old"][:80])
        (ws / st["path"]).write_text(text.replace(st["old"], st["new"]), encoding="utf-8")
    planner = (ws / "system" / "ons" / "planner.py").read_text(encoding="utf-8")
    assert "_load_state" in planner and "call_rules" in planner
    assert json.loads((ws / "system" / "ons" / "config.json").read_text(encoding="utf-8"))["call_rules"] == \
        {"LS": {"deadline_min": 30}}


def _evaluate(tmp_path, solution: str | None, variant: str = "base") -> dict:
    v = TASK.variant(variant)
    ws = tmp_path / (solution or "none")
    shutil.copytree(world_snapshot(TASK, v), ws)
    if solution:
        TASK.module(f"solutions/{solution}").apply(ws, dict(v.params))
    for k in [k for k in sys.modules if k == "ons" or k.startswith("ons.")]:
        del sys.modules[k]
    sys.path.insert(0, str(ws / "system"))
    try:
        planner = importlib.import_module("ons.planner")
    finally:
        sys.path.remove(str(ws / "system"))

    def decide(batch):
        return Reply(True, json.loads(json.dumps(planner.plan_batch(json.loads(json.dumps(batch))))))

    try:
        return TASK.module("grader").evaluate(decide, dict(v.params), held_out_traffic(TASK, v))
    finally:
        for k in [k for k in sys.modules if k == "ons" or k.startswith("ons.")]:
            del sys.modules[k]


def test_reference_handles_the_subtle_cases_and_diligent_does_not(tmp_path):
    ref = _evaluate(tmp_path, "reference")["details"]
    dil = _evaluate(tmp_path, "diligent")["details"]
    assert (ref["missed"], ref["wrong"], ref["repeat"], ref["late_calls"]) == (0, 0, 0, 0), ref
    assert dil["late_calls"] == 0, dil
    assert dil["repeat"] > 0 and dil["missed"] > 0 and dil["wrong"] > 0, dil


def test_untouched_world_misses_and_misdirects(tmp_path):
    out = _evaluate(tmp_path, None)
    assert out["details"]["missed"] > 0 and out["details"]["wrong"] > 0
    assert any(i.startswith("priority_customer_not_called") for i in out["incidents"])
