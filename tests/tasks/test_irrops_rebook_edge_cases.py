"""irrops_rebook: the subtle cases of the held-out traffic exist on every named variant and on
samples, the dev world shows evidence for each, and each named variant's truth is met by the
held-out traffic (a delivery tuned to base breaks on it)."""

from __future__ import annotations

import csv
import json
import shutil

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import held_out_traffic

TASK = load_task("irrops_rebook")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:0", "sample:1", "sample:2"]
SIM = TASK.module("sim")


@pytest.mark.parametrize("variant", VARIANTS)
def test_held_out_has_every_subtle_case(variant):
    tr = held_out_traffic(TASK, TASK.variant(variant))
    pax = [p for plan in tr["plans"] for p in plan["passengers"]]
    finals = [p["segments"][-1]["to"] for p in pax]
    assert sum(f in ("LHR", "CDG") for f in finals) >= 0.1 * len(pax), "too few London/Paris passengers"
    sizes = {}
    for p in pax:
        sizes[p["pnr"]] = sizes.get(p["pnr"], 0) + 1
    assert sum(n >= 3 for n in sizes.values()) >= 30, "too few parties of three or more"
    assert any(s[:4] in SIM.PRM_SSR for p in pax for s in p["ssr"]), "no assisted passengers"
    for plan in tr["plans"]:
        oversold = [f for f in plan["schedule"] if f["avail"] > f["cap"] - f["booked"]]
        assert oversold, "avail never exceeds the physical seats"
        for f in plan["schedule"]:
            assert f["avail"] >= 0 and f["booked"] <= f["cap"] <= f["au"]
    assert sum(any(s.startswith("UMNR") for s in p["ssr"]) for p in pax) >= 1
    assert sum(any(s.startswith("YPTA") for s in p["ssr"]) for p in pax) >= 3


@pytest.mark.parametrize("variant", NAMED)
def test_dev_world_shows_the_evidence(variant):
    w = world_snapshot(TASK, TASK.variant(variant))
    rows = list(csv.DictReader((w / "data" / "desk_log.csv").open(encoding="utf-8")))
    notes = " ".join(r["notes"].lower() for r in rows)
    assert "lgw" in notes and "ory" in notes, "the desk log shows no co-terminal re-routing"
    assert "together" in notes or "split" in notes, "the desk log shows no party kept together"
    assert "hotel" in notes or "htl" in notes
    plans = sorted((w / "data" / "plans").glob("*.json"))
    assert len(plans) == 3
    plan = json.loads(plans[0].read_text(encoding="utf-8"))
    assert {"cap", "au", "booked", "avail"} <= set(plan["schedule"][0])
    docs = (w / "docs" / "seat_inventory_note.md").read_text(encoding="utf-8")
    assert "cap - booked" in docs
    world_text = "\n".join(p.read_text(encoding="utf-8") for p in (w / "docs").glob("*.md"))
    for held in ("75", "110"):
        assert f"T1 to T2 {held}" not in world_text and f"US flight {held}" not in world_text


@pytest.mark.parametrize("variant", [v for v in NAMED if v != "base"])
def test_named_variant_changes_a_truth_the_traffic_meets(variant):
    base, v = TASK.variant("base").params, TASK.variant(variant).params
    changed = {k for k in ("mct_t2", "mct_cross", "mct_us_t2", "ypta_as_umnr", "eu261_exempt") if base[k] != v[k]}
    assert changed, variant
    if "mct_t2" in changed:
        assert v["mct_t2"] > base["mct_t2"]
    if "mct_cross" in changed:
        assert v["mct_cross"] > base["mct_cross"]
    if "mct_us_t2" in changed:
        assert v["mct_us_t2"] > base["mct_us_t2"]


def test_menu_installs_the_reference_engine(tmp_path):
    """The menu's v2 engine is the reference's (kept once in solutions/menu/v2_engine.patch, which the
    solutions apply too); the per-truth edits find the text apply_v2 writes into rules.json."""
    from fdegym_env.grading.grade import apply_solution
    from fdegym_env.tasklib import menu

    engine = "system/reaccom/engine.py"
    ref, plan = tmp_path / "reference", tmp_path / "menu"
    for ws in (ref, plan):
        shutil.copytree(TASK.path / "world", ws)
    apply_solution(TASK, "reference", ref, TASK.variant("base").params)
    menu.apply(TASK, ["apply_v2"], plan)
    world = (TASK.path / "world" / engine).read_text(encoding="utf-8")
    assert (plan / engine).read_text(encoding="utf-8") == (ref / engine).read_text(encoding="utf-8") != world
    rules = (plan / "system" / "reaccom" / "rules.json").read_text(encoding="utf-8")
    assert json.loads(rules)["mct"] == json.loads((ref / "system" / "reaccom" / "rules.json").read_text())["mct"]
    items = {i["id"]: i for i in menu.items(TASK)}
    for item in ("mct_t1_t2_75", "mct_us_110", "ypta_to_desk", "us_under_eu261"):
        assert items[item]["steps"][0]["old"] in rules, item

class _Console:
    """A deployment stub that sends every passenger to the desk and then ``spoil``s the decisions."""

    task = TASK

    def __init__(self, spoil):
        self.spoil = spoil

    def call(self, module, function, plan, timeout_s=None):
        from fdegym_env.grading.grade import CallResult
        decisions = [{"pax_id": p["pax_id"], "action": "desk", "reason": "manual"} for p in plan["passengers"]]
        return CallResult(True, {"decisions": self.spoil(decisions, plan)})


def _rebook_original(ds, plan):
    p = plan["passengers"][0]
    return [dict(pax_id=p["pax_id"], action="rebook", segments=[s["key"] for s in p["segments"]])] + ds[1:]


@pytest.mark.parametrize("spoil, why", [
    (lambda ds, plan: ds[1:], "no decision"),                                       # tasklib.replay (task.yaml)
    (lambda ds, plan: [dict(ds[0], action="cancel")] + ds[1:], "action='cancel' not one of"),
    (lambda ds, plan: ds + ds[:1], "1 for a passenger already decided (P600"),     # the grader's own checks
    (lambda ds, plan: ds + [{"pax_id": "PX-NOT-ON-PLAN", "action": "desk"}], "1 for a passenger not on the plan (PX-NOT-ON-PLAN)"),
    (_rebook_original, "1 rebooked on a flight that is not operating (P600"),
])
def test_malformed_decisions_are_one_incident_and_go_to_the_desk(spoil, why):
    params = dict(TASK.variant("base").params)
    held = held_out_traffic(TASK, TASK.variant("base"))
    one = dict(held, plans=held["plans"][:1])
    good = TASK.module("grader").grade(_Console(lambda ds, plan: ds), params, one)
    bad = TASK.module("grader").grade(_Console(spoil), params, one)
    assert not any(i.startswith("malformed_output") for i in good["incidents"])
    assert good["details"]["desk"] == good["details"]["pax"] == len(one["plans"][0]["passengers"])
    assert bad["details"]["desk"] == bad["details"]["pax"] == good["details"]["pax"]   # the desk still works them
    [inc] = [i for i in bad["incidents"] if i.startswith("malformed_output")]
    assert why in inc
