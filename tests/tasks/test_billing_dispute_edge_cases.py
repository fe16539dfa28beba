"""billing_dispute: the held-out edge cases exist, the truth treats them as the world documents,
the reference handles them and the diligent solution does not.

Edge cases: plan changes stamped account-local near midnight on the month boundary (the extract is
cut on UTC), signed order-form amendments that restate or end a price lock from their effective
date, and invoices that already carry credit notes when they are disputed."""

from __future__ import annotations

import importlib.util
import shutil
import sys
import uuid
from pathlib import Path

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.grading.grade import apply_solution
from fdegym_env.tasklib import replay

TASK = load_task("billing_dispute")
T = TASK.module("traffic")
NAMED = list(TASK.variants)


def _params(variant: str) -> dict:
    return dict(TASK.variant(variant).params)


def _engine(tmp_path: Path, solution: str, params: dict):
    """The delivered billing package of `solution`, imported under a unique name."""
    ws = tmp_path / solution
    shutil.copytree(TASK.path / "world" / "system", ws / "system")
    apply_solution(TASK, solution, ws, params)   # a module or an overlay folder
    name = f"_billing_{solution}_{uuid.uuid4().hex[:8]}"
    pkg = importlib.util.spec_from_file_location(name, ws / "system" / "billing" / "__init__.py",
                                                 submodule_search_locations=[str(ws / "system" / "billing")])
    m = importlib.util.module_from_spec(pkg)
    sys.modules[name] = m
    pkg.loader.exec_module(m)
    return importlib.import_module(name + ".rating")


def _boundary(cycle: dict) -> list[dict]:
    return [c for c in cycle["plan_changes"] if c["effective"][:7] != cycle["period"]]


def _amended(cycle: dict) -> list[dict]:
    return [c for c in cycle["contracts"] if c.get("amendments")]


@pytest.mark.parametrize("variant", NAMED + ["sample:0", "sample:3"])
def test_held_out_traffic_exercises_every_edge_case(variant):
    h = T.held_out(_params(variant), TASK.held_out_seed)
    sides = set()
    for cyc in h["cycles"]:
        b = _boundary(cyc["input"])
        assert len(b) >= 4, f"{variant} {cyc['input']['period']}: {len(b)} month-boundary plan changes, expected >= 4"
        sides |= {c["effective"][:7] > cyc["input"]["period"] for c in b}
    assert sides == {True, False}, f"{variant}: boundary changes only on one side of the month ({sides})"
    effective = [am for c in _amended(h["cycles"][-1]["input"]) for am in c["amendments"]]
    assert len(effective) >= 5, f"{variant}: only {len(effective)} amendments in the April extract"
    prior = [d for share in h["legacy_disputes"] for d in share if d.get("prior_credits")]
    assert len(prior) >= 3, f"{variant}: only {len(prior)} January disputes on part-credited invoices"
    assert all(d["valid"] and 0 < d["prior_credits"][0]["amount_usd"] <= d["over"] + 0.005 for d in prior)


def test_truth_reads_the_date_part_against_the_period():
    acc = {"account_id": "A", "plan_at_start": "team"}
    later = {"change_id": "PC-1", "effective": "2026-03-01T00:30:00+10:00", "from_plan": "team", "to_plan": "growth"}
    earlier = {"change_id": "PC-2", "effective": "2026-01-31T21:10:00-08:00", "from_plan": "team", "to_plan": "growth"}
    p = {"proration": "daily"}
    assert T.rate(acc, [later], 0, None, "2026-02", p)["lines"] == [
        {"kind": "subscription", "plan": "team", "from": "2026-02-01", "to": "2026-02-28", "unit_price_usd": 1320.0,
         "amount_usd": 1320.0}]
    lines = T.rate(acc, [earlier], 0, None, "2026-02", p)["lines"]
    assert [(ln["plan"], ln["from"], ln["to"]) for ln in lines] == [("growth", "2026-02-01", "2026-02-28")]
    # the engine as found takes the day number whatever the month: both plans billed
    legacy = T.rate(acc, [later], 0, None, "2026-02", p, mode="legacy")
    assert legacy["total_usd"] == 1320.0 + 2750.0


def test_amendments_restate_or_end_the_lock_from_their_effective_date():
    accs = T.population(extra_seed=7919, n_new=10, n_amend=5)
    amended = [a for a in accs if a["amendments"]]
    assert {am["kind"] for a in amended for am in a["amendments"]} == {"fee", "end"}
    for a in amended:
        am = a["amendments"][0]
        con = T.contract_record(a, {"lock_source": "register"}, period="2026-04")
        before = f"{int(am['effective'][:4]) - (am['effective'][5:7] == '01'):04d}-" \
                 f"{(int(am['effective'][5:7]) - 2) % 12 + 1:02d}"
        assert T.true_lock(con, {}, before)["fee"] == a["lock"]["fee"]
        after = T.true_lock(con, {}, am["effective"][:7])
        if am["kind"] == "end":
            assert after is None, am
        else:
            assert after == {"fee": am["fee"], "plan": am["plan"], "until": am["until"]}, am


@pytest.mark.parametrize("variant", NAMED)
def test_reference_rates_held_out_cycles_as_the_truth_does(tmp_path, variant):
    params = _params(variant)
    rating = _engine(tmp_path, "reference", params)
    h = T.held_out(params, TASK.held_out_seed)
    for cyc in [h["legacy_cycle"]] + [c["input"] for c in h["cycles"]]:
        truth = T.rate_cycle(cyc, params, "truth")
        for a in cyc["accounts"]:
            ctx = T.context_for(cyc, a["account_id"])
            got = round(sum(ln["amount_usd"] for ln in rating.rate_account(
                a, ctx["plan_changes"], ctx["credits_used"], ctx["contract"], cyc["period"])), 2)
            assert got == pytest.approx(truth[a["account_id"]]["total_usd"], abs=0.02), (variant, cyc["period"], a)


def test_diligent_misses_the_edge_cases_the_reference_handles(tmp_path):
    params = _params("base")
    rating = _engine(tmp_path, "diligent", params)
    h = T.held_out(params, TASK.held_out_seed)
    wrong_boundary = wrong_amended = 0
    for cyc in (c["input"] for c in h["cycles"]):
        truth = T.rate_cycle(cyc, params, "truth")
        boundary = {c["account_id"] for c in _boundary(cyc)}
        amended = {c["account_id"] for c in _amended(cyc)}
        for a in cyc["accounts"]:
            ctx = T.context_for(cyc, a["account_id"])
            got = sum(ln["amount_usd"] for ln in rating.rate_account(
                a, ctx["plan_changes"], ctx["credits_used"], ctx["contract"], cyc["period"]))
            off = abs(got - truth[a["account_id"]]["total_usd"]) > 1.0
            wrong_boundary += off and a["account_id"] in boundary
            wrong_amended += off and a["account_id"] in amended and a["account_id"] not in boundary
            assert not off or a["account_id"] in boundary | amended, (cyc["period"], a["account_id"])
    assert wrong_boundary >= 6 and wrong_amended >= 3, (wrong_boundary, wrong_amended)


def test_world_shows_the_evidence():
    world = TASK.path / "world"
    readme = (world / "system" / "README.md").read_text()
    assert "amendments[]" in readme and "credit_notes" in readme
    assert "00:00 UTC" in (world / "docs" / "billing_runbook.md").read_text()
    import json
    sample = json.loads((world / "data" / "bridge_samples" / "2026-01-29T14-00Z.json").read_text())
    assert any(d["invoice"]["credit_notes"] for d in sample["disputes"])
    dec = json.loads((world / "data" / "cycles" / "2025-12.json").read_text())
    assert _boundary(dec) and _amended(dec)


def _system_files(ws: Path) -> dict[str, str]:
    b = ws / "system" / "billing"
    return {p.name: p.read_text() for p in sorted(b.glob("*.py")) + sorted(b.glob("*.json"))}


# solution -> the menu items (by position; labels are action ids) that make the same change: each
# change is stored once and both apply it (the shortcut items build on the engine fix and the handler)
_MENU_OF = {"reference": [12, 13], "literal": [18], "shortcut_credit_everything": [12, 13, 19],
            "shortcut_disable_proration": [12, 13, 20]}


@pytest.mark.parametrize("solution", sorted(_MENU_OF))
def test_menu_items_make_the_solutions_changes(tmp_path, solution):
    from fdegym_env.tasklib import menu
    labels = [item["label"] for item in menu.items(TASK)]
    by_menu, by_solution = tmp_path / "menu", tmp_path / "solution"
    for ws in (by_menu, by_solution):
        shutil.copytree(TASK.path / "world", ws)
    menu.apply(TASK, [labels[i] for i in _MENU_OF[solution]], by_menu)
    apply_solution(TASK, solution, by_solution, _params("base"))
    assert _system_files(by_menu) == _system_files(by_solution)


class _Deploy:
    """A deployment stub: handle_disputes answers with ``reply``."""

    def __init__(self, reply):
        self.task, self.reply = TASK, reply

    def call(self, module, function, *args, timeout_s=None):
        from fdegym_env.grading.grade import CallResult
        return CallResult(True, self.reply)


def test_dispute_decisions_are_checked_as_task_yaml_declares():
    batch = {"disputes": [{"dispute_id": "D1"}, {"dispute_id": "D2"}, {"dispute_id": "D3"}]}
    handle = replay.Decider(_Deploy({"decisions": [{"dispute_id": "D1", "action": "credit", "amount_usd": 5},
                                                   {"dispute_id": "D2", "action": "resolved"}]}), "handle_disputes")
    reply = handle(batch)
    assert sorted(reply.decisions) == ["D1"]
    assert [m.split(":")[0] for m in reply.malformed] == ["D2", "D3"]
    assert handle.incidents()[0].startswith("malformed_output: 2 item(s)")
    bare = replay.Decider(_Deploy([{"dispute_id": "D1", "action": "reject"}]), "handle_disputes")
    assert not bare(batch).decisions and len(bare.malformed) == 3      # a bare list is not the bridge's shape
