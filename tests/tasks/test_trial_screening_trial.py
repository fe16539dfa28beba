"""trial_screening trial report and workspace data: the report counts what the grader counts on that
day's shadow visits (decisions, screen failures by referral route, redraws in range, ineligible
patients passed) and says "(4 of n shown)" when it names only some; the workspace's screening log
agrees with the legacy screener on its own lab rows and shows every Niagara referral failing."""

from __future__ import annotations

import csv
import re
from collections import Counter

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("trial_screening")
S, TRAFFIC, TRIAL = TASK.module("screening"), TASK.module("traffic"), TASK.module("trial")
SHOWN = re.compile(r"\((\d+) of (\d+) shown\)")


class _Canned:
    """A deployment without a sandbox: ``decide(visit) -> decision``."""

    def __init__(self, decide):
        self.task, self.decide = TASK, decide

    def call(self, module, function, batch, timeout_s=None):
        value = [{"screening_id": p["screening_id"], "decision": self.decide(p), "reason": "canned"} for p in batch]
        return type("R", (), {"ok": True, "error": None, "value": value})()


def _first_draw(p):
    return S.legacy_decision(p)[0]


@pytest.mark.parametrize("variant", ["base", "amend_glucose", "monitor_away"])
def test_the_report_counts_what_the_grader_counts(variant):
    params = dict(TASK.variant(variant).params)
    traffic = TRAFFIC.shadow(params, 0)
    out = TRIAL.run(_Canned(_first_draw), params, 0, traffic)
    visits = [p for b in traffic["batches"] for p in b]
    stats = out["stats"]
    assert stats["visits"] == len(visits)
    assert f"{stats['visits']} booked screening visits" in out["feedback"]
    fails = [p for p in visits if _first_draw(p) == "screen_fail"]
    by_src = Counter(p["source"] for p in fails)
    assert f"niagara_referral {by_src['niagara_referral']}" in out["feedback"]
    redrawn = [p for p in fails if p["_retest"] and p["_eligible"]]
    if redrawn:
        assert f"{len(redrawn)} of the screen failures had a redraw" in out["feedback"]
    for shown, total in SHOWN.findall(out["feedback"]):
        assert int(shown) == 4 and int(total) > 4


def test_passing_everyone_is_reported_as_deviations_with_a_count():
    params = dict(TASK.variant("base").params)
    traffic = TRAFFIC.shadow(params, 1)
    out = TRIAL.run(_Canned(lambda p: "eligible"), params, 1, traffic)
    bad = sum(1 for b in traffic["batches"] for p in b if not p["_eligible"])
    assert f"I would have had to stop {bad} patient(s)" in out["feedback"]


def test_the_screening_log_is_what_the_legacy_screener_decided(tmp_path):
    params = dict(TASK.variant("base").params)
    TRAFFIC.dev(params, tmp_path)
    log = list(csv.DictReader((tmp_path / "data" / "screening_log.csv").open()))
    labs = list(csv.DictReader((tmp_path / "data" / "lab_results.csv").open()))
    first: dict = {}
    for r in labs:
        first.setdefault((r["screening_id"], r["analyte"]), r)
    niagara = [row for row in log if row["source"] == "niagara_referral"]
    assert niagara and all(row["screener_decision"] == "screen_fail" and "E4" in row["screener_reason"] for row in niagara)
    for row in niagara:
        r = first[(row["screening_id"], "CREAT")]
        assert r["units"].lower().replace("µ", "u") == "umol/l" and f"E4 CREAT {float(r['value']):g} > 1.5" in row["screener_reason"]
    assert max(row["visit_date"] for row in log) <= "2026-10-30"
    assert max(r["collected"] for r in labs) <= "2026-10-30"
