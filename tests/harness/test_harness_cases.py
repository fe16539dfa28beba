"""Harness-format cases (fdegym_env.harness): loading, gym.make, bin/ask + bin/pilot, services,
scores identical to the harness's formulas (recomputed here independently), CLI run/validate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import fdegym_env
from fdegym_env.harness import load_case, register_cases
from fdegym_env.harness.rules import RULES_V3
from fdegym_env.harness.scoring import harness_scores

HERE = Path(__file__).parent
CASE = HERE / "fixture_case"
GYM_ID = "FDEGymCases/fixture_case-v0"


def harness_uplift(kpi: float, base: float, oracle: float, incidents: list) -> tuple[float, float]:
    """The harness's formulas, written out again: -> (uplift after the incident cap, uplift_bounded)."""
    span = oracle - base
    u = round((kpi - base) / span, 4) if span else 0.0
    return (min(u, 0.0) if incidents else u), max(-1.0, u)


def test_load_case_maps_the_harness_layout():
    case = load_case(CASE)
    assert case.gym_id == GYM_ID
    assert case.solution_names() == ["alternate_no_flags", "bypass_read_truth", "literal", "probe_memorised_base",
                                     "reference", "shortcut_hardcode_fx", "shortcut_hold_all"]
    assert case.harness_kind("reference") == "oracle" and case.harness_kind("probe_memorised_base") == "memorised"
    strict = case.variant("strict")
    assert strict.angle == "rule" and strict.right_here == ("literal",) and strict.params["limit"] == 100
    spec = case.people_spec(strict)
    assert [p["id"] for p in spec["people"]] == ["dana", "priya", "cfo"]
    assert spec["trial"]["cost"] == [0.01, 0.03]          # npcs.json "pilot" is the trial config
    assert "limit is 100 in settled value" in spec["people"][1]["topics"][0]["answer"]
    assert case.truth["key_facts"] == ["F_limit", "F_flag"]
    with pytest.raises(ValueError, match="no L1 brief"):
        case.brief("L1", strict)


def test_unknown_case_folder_error_names_missing_files(tmp_path):
    (tmp_path / "build_world.py").write_text("def build(ws): pass\n")
    with pytest.raises(ValueError, match="missing: grader.py, npcs.json"):
        load_case(tmp_path)


def test_episode_bin_ask_pilot_services_and_score_match_harness():
    register_cases(HERE)
    env = gym.make(GYM_ID, level="L3", variant="base")
    try:
        obs, info = env.reset(seed=0)
        u = env.unwrapped
        task_md = (u.workspace / "TASK.md").read_text()
        brief = (CASE / "briefs" / "L3.md").read_text()
        extra = json.loads((CASE / "engagement.json").read_text())["rules_extra"]
        assert task_md == brief.rstrip() + "\n" + RULES_V3 + extra      # the harness's TASK.md, exactly
        total = 0.0
        steps = [({"tool": "run", "command": "python3 bin/ask --who"}, 0.0),
                 ({"tool": "run", "command": "python3 bin/ask priya 'what is the review limit?'"}, 0.02),
                 ({"tool": "contact", "to": "priya", "message": "which memo flag forces a hold?"}, 0.02),
                 ({"tool": "run", "command": "cd system && python3 -c 'from payments.rates import fx; print(fx())'"}, 0.0),
                 ({"tool": "run", "command": "python3 bin/ask cfo 'can you confirm the limit?'"}, 0.1),
                 ({"tool": "run", "command": "python3 bin/pilot"}, 0.01)]
        texts = []
        for action, cost in steps:
            obs, r, term, trunc, info = env.step(action)
            assert info["last_action_error"] is None, info["last_action_error"]
            assert r == pytest.approx(-cost), (action, obs["text"])      # bin/ask costs land on that step
            total += r
            texts.append(obs["text"])
        assert "Priya Raman" in texts[0] and "Dana Whitlock" in texts[0]
        assert "review limit is 250" in texts[1]
        assert texts[3].splitlines()[1] == "1.0"                         # the dev rates service answered
        assert "Please don't email the CFO" in texts[4]
        assert "Ops cleared" in texts[5]
        # one engine behind both channels: the bin/ask question counts against the same ledger
        assert [r["to"] for r in u.people.ledger] == ["priya", "priya", "cfo", "trial"]
        # deliver the oracle through the ordinary tools, then submit
        src = (u.workspace / "system/payments/review.py").read_text()
        env.step({"tool": "write_file", "path": "system/payments/review.py",
                  "content": src.replace("LIMIT = 1000", "LIMIT = 250")})
        obs, r, term, trunc, info = env.step({"tool": "submit"})
        total += r
        assert term
        res = info["result"]
        cost = 0.02 + 0.02 + 0.1 + 0.01
        assert res["contact_cost"] == pytest.approx(cost)
        assert res["kpi_baseline"] == 0.815 and res["kpi_reference"] == 1.0 and res["incidents"] == []
        uplift, bounded = harness_uplift(res["kpi"], 0.815, 1.0, res["incidents"])
        assert res["uplift"] == pytest.approx(uplift, abs=1e-4)
        assert res["uplift_bounded"] == pytest.approx(bounded, abs=1e-4)
        assert res["score"] == pytest.approx(uplift - cost, abs=1e-4)       # the harness's uplift_net
        assert total == pytest.approx(res["score"], abs=1e-9)
        assert res["facts_obtained"] == ["F_flag", "F_limit", "F_off_limits:cfo", "F_pilot"]
        assert res["key_fact_coverage"] == 1.0 and res["off_limits_contacts"] == ["cfo"]
    finally:
        env.close()


def test_variant_anchors_override_the_graders():
    env = fdegym_env.FDEGymEnv(task=str(CASE), variant="anchored")
    try:
        env.reset(seed=1)
        _, _, term, _, info = env.step({"tool": "submit"})
        res = info["result"]
        assert res["kpi_baseline"] == 0.52 and res["kpi_reference"] == 1.0      # from variants.json
        assert res["kpi"] == 0.525 and any(i.startswith("flagged_paid") for i in res["incidents"])
        uplift, _ = harness_uplift(0.525, 0.52, 1.0, res["incidents"])
        assert res["uplift"] == uplift == 0.0                                 # incident cap
    finally:
        env.close()


def test_harness_scores_formulas():
    out = harness_scores({"kpi": 0.1, "kpi_baseline": 0.5, "kpi_oracle": 0.9, "incidents": ["x"]},
                         None, {"framing": [{"id": "a", "any": ["limit"]}]}, Path("/nonexistent"),
                         {"contact_cost": 0.07})
    assert out["uplift"] == -1.0 and out["uplift_bounded"] == -1.0 and out["uplift_net"] == -1.07
    out = harness_scores({"kpi": -2.0, "kpi_baseline": 0.0, "kpi_oracle": 1.0, "incidents": []}, None, {}, None)
    assert out["uplift"] == -2.0 and out["uplift_bounded"] == -1.0
    assert harness_scores({"kpi": 1, "kpi_baseline": 1, "kpi_oracle": 1}, None, {}, None)["uplift"] == 0.0


def _cli(*args: str, env: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_cli_run_reference_on_a_case_path():
    r = _cli("run", str(CASE), "--agent", "reference", "--variant", "strict", "--json")
    assert r.returncode == 0, r.stderr[-2000:]
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["task"] == "fixture_case" and res["score"] == 1.0 and res["kpi_baseline"] == 0.3


def test_cli_validate_one_variant_and_env_var_registration():
    env = dict(os.environ, FDEGYM_CASES=str(HERE))
    r = _cli("validate", GYM_ID, "--variant", "strict", env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "right here: >= 0.95" in r.stdout and "fixture_case: PASS" in r.stdout
    assert "bypass_read_truth" in r.stdout and "shortcut_hold_all" in r.stdout
    r = _cli("cases", "--json", env=env)
    assert r.returncode == 0 and json.loads(r.stdout)[0]["id"] == GYM_ID


@pytest.mark.slow
def test_validate_all_variants_passes():
    from fdegym_env.admission.validate import validate_task
    report = validate_task(load_case(CASE))
    assert report.passed, report.failures
    assert {r.variant for r in report.rows} == {"base", "strict", "anchored"}
    assert any(c["check"].startswith("literal mean") for c in report.cross)


def test_a_task_deploys_in_the_warm_sandbox_a_case_was_graded_in(tmp_path, monkeypatch):
    """A harness case's grading starts sandboxes of its own on the deployed folder (each hands the
    folder to its uid); the warm sandbox that folder goes back to must own it again before the next
    deployment, or every call of that deployment is refused (exit 70/127, Permission denied)."""
    import shutil

    from fdegym_env.core.registry import load_task
    from fdegym_env.grading.grade import Deployment
    from tests.conftest import TINY
    monkeypatch.setenv("FDEGYM_DEPLOY_POOL", "1")
    monkeypatch.setenv("FDEGYM_PROCESS", "persistent")
    from fdegym_env.grading.grade import _POOL
    env = fdegym_env.FDEGymEnv(task=str(CASE), variant="anchored", sandbox="bwrap")
    try:
        env.reset(seed=1)
        env.step({"tool": "submit"})
    finally:
        env.close()
    warm = [sb for _root, sb in _POOL._idle.get("bwrap", [])]
    assert warm, "the case's deployment did not go back to the pool: this test would prove nothing"
    ws = tmp_path / "workspace"
    shutil.copytree(Path(TINY) / "world", ws)
    (ws / "system" / "app" / "main.py").write_text("def handle(batch):\n    return ['ok'] * len(batch)\n")
    with Deployment(load_task(str(TINY)), ws, "bwrap") as d:
        assert d.sandbox is warm[-1]
        assert os.stat(d.workspace).st_uid == d.sandbox.uid
        got = [d.call("app.main", "handle", [1, 2], timeout_s=10) for _ in range(2)]
    assert [(r.ok, r.value, r.error) for r in got] == [(True, ["ok", "ok"], None)] * 2


def test_a_grading_without_anchors_names_what_the_grader_left_out():
    from fdegym_env.harness import adapters
    case = load_case(CASE)
    variant = case.variant("base")
    assert "kpi_baseline" not in variant.params
    adapters._LOCAL.last = {variant.key: {"kpi": 0.5}}   # the grading that just ran reported no anchors
    with pytest.raises(ValueError, match=r"grade\(\) must return a dict with 'kpi', 'kpi_baseline', 'kpi_oracle'; "
                                         r"variant 'base' got kpi_baseline=None, kpi_oracle=None"):
        adapters.anchors(case, variant)
