"""helpdesk_tutorial: the reference is the best a careful engineer can do from the evidence, so a
careful delivery scores about 1 against it, not far above.

A playtest delivery scored 1.47 on sample:7712 (a Korvex sample) against the old reference: it
matched handheld faults that name no device by their RT7-only symptoms, and it sent "wave N stuck
in released" Stockwise tickets (which matched no rule and bounced L1 -> apps) to apps. The
reference now matches those symptoms, and the world's R50 knows "wave" (DESIGN_NOTES.md).

Another scored 1.84 on sample:5905: on top of the reference's R15 it raised R40 (Zebra label printers)
from P3 to P2, worth about 200-300 user-hours on every variant and unrelated to the handheld story. The
world's R40 is P2 already (CHANGELOG, like R50), so that delivery now scores about 1."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import anchors, grade_system, uplift

TASK = load_task("helpdesk_tutorial")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
SAMPLES = ["sample:7712"] + [f"sample:{i}" for i in range(12)]

# A careful delivery of the kind the playtest made: R15 on (owner and priority as the variant's
# facts say; the kiosk category first where the kiosks are live), more names and symptoms for the
# RT7, copiers kept with L1, and R50 widened to the stuck waves it saw bouncing in the log.
CAREFUL_R15 = ["rt7", "rt 7", "rt-7", "kx7", "korvex", "handheld", "hand held", "hand-held", "handehld", "hht",
               "rf gun", "scan gun", "scanner", "scnaner", "scaner", "mdm", "0x2f", "failed 2f", "enrolment failed",
               "profile missing", "lost its profile", "device password", "not compliant"]
COPIERS = ["copier", "photocopier", "ricoh", "mfp", "scan to email", "scan to my email", "scan to folder"]
WMS = ["stockwise", "wms", "pick list", "replen", "stuck in released", "coming through to the pickers"]


def _careful(ws: Path, p: dict) -> None:
    path = ws / "system" / "config.json"
    cfg = json.loads(path.read_text())
    rules = []
    for r in cfg["rules"]:
        if r["id"] == "R15-handheld":
            target = {"queue": p["owner_queue"], "priority": p["scanner_priority"]}
            rules.append({"id": "R12-copier", "enabled": True, "field": "text", "match": COPIERS,
                          "queue": "service_desk", "priority": "P3"})
            if p["match_on"] == "category":
                rules.append({"id": "R14-kiosk", "enabled": True, "field": "category", "match": ["device/handheld"],
                              **target})
            r = dict(r, enabled=True, match=CAREFUL_R15, **target)
        elif r["id"] == "R50-wms":
            r = dict(r, match=WMS)
        rules.append(r)
    cfg["rules"] = rules
    path.write_text(json.dumps(cfg, indent=1))


def _careful_uplift(variant: str, tmp_path: Path) -> float:
    v = TASK.variant(variant)
    ws = tmp_path / variant.replace(":", "_")
    shutil.copytree(world_snapshot(TASK, v), ws, symlinks=True)
    _careful(ws, v.params)
    g = grade_system(TASK, v, ws, sandbox="none")
    assert not g.incidents, g.incidents
    a = anchors(TASK, v, sandbox="none")
    return uplift(g.kpi, a["kpi_baseline"], a["kpi_reference"])


@pytest.mark.parametrize("variant", NAMED + SAMPLES)
def test_a_careful_delivery_does_not_beat_the_reference(variant, tmp_path):
    u = _careful_uplift(variant, tmp_path)
    assert 0.85 <= u <= 1.02, (variant, round(u, 3))


def test_stuck_waves_go_to_apps_in_the_world_as_found():
    import importlib.util
    ws = world_snapshot(TASK, TASK.variant("base"))
    spec = importlib.util.spec_from_file_location("_hd_router", ws / "system" / "triage" / "router.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    cfg = mod.load_config(ws / "system" / "config.json")
    t = {"id": "INC0049999", "opened": "2026-03-10T07:05:00+00:00", "channel": "portal", "site": "HLN",
         "requester": "a.boyd.hln", "category": "Other", "subject": "wave stuck",
         "body": "wave 4 stuck in released, nothing coming through to the pickers."}
    d = mod.route(t, cfg)
    assert (d["queue"], d["priority"]) == ("apps", "P2"), d
    log = (ws / "logs" / "triage.log").read_text(encoding="utf-8")
    assert not [ln for ln in log.splitlines() if "wave" in ln and "triage.router" in ln and "-> apps/" not in ln]


# The delivered system/config.json of that playtest (sample:5905): R12 copiers, R15 -> vendor_korvex P2 with
# names and symptoms, R16 on the kiosk category, R40 at P2.
LABELS_P2_DELIVERY = Path(__file__).with_name("data") / "helpdesk_tutorial_r15_korvex_labels_p2_config.json"


def test_a_delivery_that_raised_label_printers_to_p2_scores_about_1(tmp_path):
    v = TASK.variant("sample:5905")
    ws = tmp_path / "ws"
    shutil.copytree(world_snapshot(TASK, v), ws, symlinks=True)
    (ws / "system" / "config.json").write_text(LABELS_P2_DELIVERY.read_text())
    g = grade_system(TASK, v, ws, sandbox="none")
    assert not g.incidents, g.incidents
    a = anchors(TASK, v, sandbox="none")
    u = uplift(g.kpi, a["kpi_baseline"], a["kpi_reference"])
    assert 0.9 <= u <= 1.1, round(u, 3)


def test_label_printers_are_p2_in_the_world_as_found():
    cfg = json.loads((world_snapshot(TASK, TASK.variant("base")) / "system" / "config.json").read_text())
    r40 = next(r for r in cfg["rules"] if r["id"] == "R40-labels")
    assert (r40["queue"], r40["priority"]) == ("field_ops", "P2")
