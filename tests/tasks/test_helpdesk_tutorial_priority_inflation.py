"""helpdesk_tutorial: raising priorities buys nothing, as the desk handbook says.

A playtest delivery raised R20-login (passwords) to P2 on top of the reference and scored uplift 2.15-2.26:
L1 expedited every password ticket at no cost to anyone. On the desk a P2 is for people on the floor who
cannot work; the analyst re-triages any other raised ticket to what its kind earns, and every P2 has
used one of the queue's daily expedite slots (sim.py, handbook section 2)."""
from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import anchors, apply_solution, grade_system, uplift

TASK = load_task("helpdesk_tutorial")
VARIANTS = ["base", "sample:5905", "night_pick"]
sim = TASK.module("sim")


def _reference_raised(variant: str, raise_: list[str], tmp_path: Path) -> float:
    """Uplift of the reference with the named rules ("default" for the default) raised to P2."""
    v = TASK.variant(variant)
    ws = tmp_path / "ws"
    shutil.copytree(world_snapshot(TASK, v), ws, symlinks=True)
    apply_solution(TASK, "reference", ws, v.params)
    path = ws / "system" / "config.json"
    cfg = json.loads(path.read_text())
    for r in cfg["rules"]:
        if r["id"] in raise_ or ("*" in raise_ and r["priority"] != "P1"):
            r["priority"] = "P2"
    if "default" in raise_ or "*" in raise_:
        cfg["default"]["priority"] = "P2"
    path.write_text(json.dumps(cfg))
    g = grade_system(TASK, v, ws, sandbox="none")
    assert not g.incidents, g.incidents
    a = anchors(TASK, v, sandbox="none")
    return uplift(g.kpi, a["kpi_baseline"], a["kpi_reference"])


@pytest.mark.parametrize("rule", ["R20-login", "R60-email", "default", "R30-network", "R90-joiners"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_raising_an_office_rule_to_p2_gains_nothing(variant, rule, tmp_path):
    assert _reference_raised(variant, [rule], tmp_path) <= 1.05


@pytest.mark.parametrize("variant", VARIANTS)
def test_raising_every_rule_to_p2_does_not_beat_the_reference(variant, tmp_path):
    assert _reference_raised(variant, ["*"], tmp_path) <= 1.0 + 1e-9


def _hours(kind: str, prio: str, load: dict, queue: str = "service_desk") -> float:
    truth = {"kind": kind, "owner": queue, "p1_ok": False, "users": 1}
    return sim.resolve(datetime(2026, 3, 10, 9, 0), queue, prio, truth, load)[0]


def test_a_raised_p2_is_retriaged_but_uses_an_expedite_slot():
    assert _hours("password", "P2", {}) == _hours("password", "P3", {})
    assert _hours("starter", "P3", {}) == _hours("starter", "P4", {})
    load: dict = {}
    for _ in range(sim.CAP_P2["field_ops"]):
        _hours("laptop", "P2", load, "field_ops")                 # raised, re-triaged, slot used
    assert _hours("labels", "P2", load, "field_ops") == _hours("labels", "P3", {}, "field_ops")
    assert _hours("labels", "P2", {}, "field_ops") < _hours("labels", "P3", {}, "field_ops")


def test_the_handbook_says_what_a_p2_is_for():
    text = (world_snapshot(TASK, TASK.variant("base")) / "docs" / "desk_handbook.md").read_text(encoding="utf-8")
    assert "re-triages it" in text and "Every P2 takes" in text and "joiners/leavers P4" in text
