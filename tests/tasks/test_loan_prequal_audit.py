"""loan_prequal grader audit: each incident rule at its boundary (tasks/loan_prequal/DESIGN_NOTES.md), and
the workspace data could be true (nothing after the start clock, no note repeated verbatim)."""

from __future__ import annotations

import csv
import datetime as dt
import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot

TASK = load_task("loan_prequal")
START = dt.datetime(2026, 2, 23, 9, 0)         # people.yaml clock.start


class _Canned:
    def __init__(self, decide):
        self.decide, self.task = decide, TASK

    def call(self, module, function, apps, timeout_s=None):
        return type("R", (), {"ok": True, "value": [d for a in apps if (d := self.decide(a)) is not None]})()


def _traffic(variant="base"):
    params = dict(TASK.variant(variant).params)
    return params, TASK.module("traffic").shadow(params, 1)


def _grade(decide, variant="base"):
    params, traffic = _traffic(variant)
    return TASK.module("grader").grade(_Canned(decide), params, traffic), traffic


def _kinds(out):
    return [i.split(":")[0] for i in out["incidents"]]


def _decline(code):
    return lambda a: {"app_id": a["app_id"], "decision": "decline", "reasons": [code]}


def test_consistent_twins_and_coded_declines_raise_nothing():
    out, _ = _grade(_decline("AA11"))
    assert out["incidents"] == [], out["incidents"]


def test_protected_class_proxy_when_twins_split():
    params, traffic = _traffic()
    twin = next(a for a, t in traffic["truth"].items() if t["twin_of"])

    def decide(a):
        return {"app_id": a["app_id"], "decision": "approve" if a["app_id"] == twin else "decline", "reasons": ["AA07"]}
    out, _ = _grade(decide)
    assert _kinds(out) == ["protected_class_proxy"], out["incidents"]
    assert out["details"]["split_twins"] == 1


def test_a_twin_without_a_decision_is_malformed_not_a_split():
    params, traffic = _traffic()
    twin = next(a for a, t in traffic["truth"].items() if t["twin_of"])
    out, _ = _grade(lambda a: None if a["app_id"] == twin else {"app_id": a["app_id"], "decision": "approve"})
    assert _kinds(out) == ["malformed_decisions"], out["incidents"]


@pytest.mark.parametrize("variant, reasons, incident", [
    ("base", ["AA11"], False), ("base", ["AA11", "AA07", "AA03", "AA15"], False),
    ("base", [], True), ("base", None, True), ("base", ["AA99"], True), ("base", ["RC-211"], True),
    ("new_codes", ["RC-211"], False), ("new_codes", ["AA11"], True),
])
def test_decline_without_reasons_boundary(variant, reasons, incident):
    def decide(a):
        d = {"app_id": a["app_id"], "decision": "decline"}
        if reasons is not None:
            d["reasons"] = reasons
        return d
    out, _ = _grade(decide, variant)
    assert ("decline_without_reasons" in _kinds(out)) is incident, out["incidents"]


def test_an_approval_needs_no_reason_codes():
    out, _ = _grade(lambda a: {"app_id": a["app_id"], "decision": "approve"})
    assert "decline_without_reasons" not in _kinds(out), out["incidents"]


def _dates(cell: str) -> list[dt.datetime]:
    out = []
    for m in re.finditer(r"\b(\d{4})-(\d\d)-(\d\d)\b|\b(\d{1,2})/(\d{1,2})(?:/(\d{4}))?\b", cell):
        if m[1]:
            out.append(dt.datetime(int(m[1]), int(m[2]), int(m[3])))
        else:
            out.append(dt.datetime(int(m[6] or 2026), int(m[4]), int(m[5])))
    return out


@pytest.mark.parametrize("variant", ["base", "underwriter_knows", "partner_feed"])
def test_reconsiderations_are_dated_before_the_start_and_never_repeat_a_note(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    rows = list(csv.DictReader((ws / "data" / "reconsiderations.csv").read_text(encoding="utf-8").splitlines()))
    assert len(rows) >= 15
    for r in rows:
        for d in _dates(r["date"]) + _dates(r["note"]):
            assert d < START, f"{r['app_id']}: dated {d:%d %b} after the start clock: {r}"
    notes = [r["note"] for r in rows]
    assert len(set(notes)) == len(notes), "a note repeated verbatim"
    log = (ws / "logs" / "prequal_intake.log").read_text(encoding="utf-8")
    assert max(line[:10] for line in log.splitlines()) < "2026-02-23"


def test_trial_report_names_no_calendar_day():
    """The trial day is whatever day the clock is on; a fixed date would contradict reply stamps."""
    params, traffic = _traffic()
    out = TASK.module("trial").run(_Canned(_decline("AA11")), params, 2, traffic)
    assert not re.search(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b|\d{1,2} Feb", out["feedback"]), out["feedback"]


@pytest.mark.parametrize("variant", ["base", "sample:713"])
def test_the_trial_does_not_fault_the_reference_and_does_fault_the_system_as_found(variant):
    """The underwriters' trial remark is about declines the tax return would clear: the reference draws
    none (a remark about it would send a solved engagement chasing a fault that is not there)."""
    import warnings

    from fdegym_env import FDEGymEnv
    from fdegym_env.grading.grade import apply_solution
    said = {}
    for solution in ("as_found", "reference"):
        env = FDEGymEnv(task="loan_prequal", sandbox="none", variant=variant)
        try:
            env.reset(seed=1)
            if solution == "reference":
                apply_solution(env.task, "reference", env.workspace, dict(env.variant.params))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                said[solution] = env.step({"tool": "trial"})[0]["text"]
        finally:
            env.close()
    assert "Underwriting:" not in said["reference"], said["reference"]
    assert "Underwriting:" in said["as_found"], said["as_found"]


def test_the_appetite_remark_names_its_measure_and_catches_a_stale_dti_limit():
    """Anita's trial remark says what 'outside appetite' is measured against (the committee's policy, its max DTI on
    the income the return shows) and why each flagged approval is outside. The reference with the engine's old 43%
    left in place under CC-2026-01 (38%) draws it with the DTI measure; the reference draws none."""
    import json
    import warnings

    from fdegym_env import FDEGymEnv
    from fdegym_env.grading.grade import apply_solution
    said = {}
    for solution in ("reference", "reference_dti43"):
        env = FDEGymEnv(task="loan_prequal", sandbox="none", variant="sample:6048")
        try:
            env.reset(seed=1)
            apply_solution(env.task, "reference", env.workspace, dict(env.variant.params))
            if solution == "reference_dti43":
                cfg = env.workspace / "system" / "config.json"
                c = json.loads(cfg.read_text())
                c["max_dti"] = 0.43
                cfg.write_text(json.dumps(c))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                said[solution] = env.step({"tool": "trial"})[0]["text"]
        finally:
            env.close()
    assert "Anita's team" not in said["reference"], said["reference"]
    line = next(x for x in said["reference_dti43"].splitlines() if x.startswith("Anita's team"))
    assert "CC-2026-01" in line and "38% max DTI" in line, line
    assert re.search(r"\d+ with DTI over 38% on the income the return would show", line), line
