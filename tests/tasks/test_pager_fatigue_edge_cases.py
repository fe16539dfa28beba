"""pager_fatigue: the held-out edge cases exist on every named variant and on samples, the world
holds evidence for each, and the reference's hooks treat them the way the evidence says while
the diligent solution's hooks do not (facts found is not delivery)."""

from __future__ import annotations

import importlib.util
import re
from datetime import date, datetime, timezone
from types import ModuleType

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot

TASK = load_task("pager_fatigue")
VARIANTS = sorted(TASK.variants)
UTC = timezone.utc


def _load(path, name) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _held(variant_name: str) -> dict:
    v = TASK.variant(variant_name)
    return TASK.module("traffic").held_out(dict(v.params), TASK.held_out_seed)


def _kinds(held: dict) -> dict:
    out: dict = {}
    for m in held["incidents"].values():
        out[m["kind"]] = out.get(m["kind"], 0) + 1
    return out


@pytest.mark.parametrize("variant", VARIANTS + ["sample:0", "sample:3"])
def test_heldout_has_every_edge_case(variant):
    held = _held(variant)
    kinds = _kinds(held)
    assert kinds.get("lb_flap_down", 0) >= 2, f"expected >= 2 flapping members that die; got {kinds}"
    assert kinds.get("synth_apac", 0) >= 1, f"expected an APAC edge failure seen by the Sydney probe; got {kinds}"
    hol = [m for m in held["incidents"].values() if m["kind"] == "lag_real"
           and datetime.fromisoformat(m["start"].replace("Z", "+00:00")).date() in (date(2026, 4, 3), date(2026, 4, 6))]
    assert hol, "expected ledger replica lag on a bank-holiday night (no batch run)"
    certs = [e for d in held["days"] for e in d["batch"]["events"] if e["alert"] == "CertExpirySoon"]
    assert certs and all(e["value"] is None and (e.get("labels") or {}).get("days_left") for e in certs), \
        "expected every March/April cert event in certscan 3 shape (value null, labels.days_left)"


def test_flaps_before_a_dead_member_share_its_key():
    held = _held("base")
    dead = [(iid, m) for iid, m in held["incidents"].items() if m["kind"] == "lb_flap_down"]
    for iid, m in dead:
        start = datetime.fromisoformat(m["start"].replace("Z", "+00:00"))
        flaps = [e for d in held["days"] for e in d["batch"]["events"]
                 if e["alert"] == "LBHealthCheckFailed" and d["truth"].get(e["id"]) is None
                 and e["instance"].split("#g")[0] == m["instance"]
                 and 0 < (start - datetime.fromisoformat(e["ts"])).total_seconds() < 30 * 60]
        assert flaps, f"{iid}: no flap of {m['instance']} within 30 min before it died"
        assert all(isinstance(e["value"], int) and e["value"] <= 3 for e in flaps)


@pytest.mark.parametrize("variant", VARIANTS)
def test_world_holds_the_evidence(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    rota = (ws / "docs" / "oncall_rota.md").read_text()
    assert re.search(r"Good Friday 3 April and Easter Monday 6 April", rota)
    assert "timeout" in (ws / "docs" / "tickets" / "OPS-1150.md").read_text()
    assert "days_left" in (ws / "docs" / "tickets" / "OPS-1209.md").read_text()
    incidents = (ws / "data" / "incidents.csv").read_text()
    assert "merchant complaint (APAC)" in incidents and "flapp" in incidents
    late_feb = "".join((ws / "data" / "events" / f"2026-02-{d}.jsonl").read_text() for d in range(23, 29))
    assert '"days_left"' in late_feb, "certscan 3 events should already show in the last week of February"


def _module(solution: str, modname: str, tmp_path_factory) -> ModuleType:
    """Import ``modname`` from a copy of world/system with ``solution`` applied (isolated import)."""
    import importlib
    import shutil
    import sys
    ws = tmp_path_factory.mktemp(solution)
    shutil.copytree(TASK.path / "world" / "system", ws / "system")
    TASK.module(f"solutions/{solution}").apply(ws, dict(TASK.variant("base").params))
    stale = {k: sys.modules.pop(k) for k in list(sys.modules) if k == "alertrouter" or k.startswith("alertrouter.")}
    sys.path.insert(0, str(ws / "system"))
    try:
        return importlib.import_module(modname)
    finally:
        sys.path.remove(str(ws / "system"))
        for k in [k for k in sys.modules if k == "alertrouter" or k.startswith("alertrouter.")]:
            del sys.modules[k]
        sys.modules.update(stale)


def test_reference_escalates_a_dead_member_and_diligent_does_not(tmp_path_factory):
    ref = _module("reference", "alertrouter.dedup", tmp_path_factory)
    dil = _module("diligent", "alertrouter.dedup", tmp_path_factory)
    flap = {"alert": "LBHealthCheckFailed", "service": "lb-edge", "instance": "lbe-man-02/x/10.0.0.1:443", "value": 3}
    dead = dict(flap, value=5)
    assert ref.key_for(flap, None) != ref.key_for(dead, None)
    assert dil.key_for(flap, None) == dil.key_for(dead, None)


def test_reference_reads_certscan3_days_and_sydney_http_errors(tmp_path_factory):
    ref = _module("reference", "alertrouter.hooks.ticket_only", tmp_path_factory)
    dil = _module("diligent", "alertrouter.hooks.ticket_only", tmp_path_factory)
    v3 = {"alert": "CertExpirySoon", "value": None, "labels": {"days_left": "19"},
          "summary": "api.halyardpay.co.uk: 19d left (notAfter 2026-04-20T03:00:00Z, Sectigo RSA DV)"}
    summary_only = {"alert": "CertExpirySoon", "value": None, "summary": "api.halyardpay.co.uk: 19d left (notAfter ...)"}
    near = {"alert": "CertExpirySoon", "value": None, "labels": {"days_left": "4"}, "summary": "x: 4d left"}
    http = {"alert": "SyntheticCheckFailed", "instance": "apse2-probe-3/portal-login",
            "summary": "check portal-login failed from apse2-probe-3: HTTP 503 (portal.halyardpay.co.uk, 210ms)"}
    tmo = dict(http, summary="check portal-login failed from apse2-probe-3: connect timeout after 10000ms")
    assert ref.applies(v3, None) and ref.applies(summary_only, None) and not ref.applies(near, None)
    assert not dil.applies(v3, None)
    assert ref.applies(tmo, None) and not ref.applies(http, None)
    assert dil.applies(http, None)


def test_reference_pages_lag_on_a_bank_holiday_night(tmp_path_factory):
    ref = _module("reference", "alertrouter.hooks.quiet_hours", tmp_path_factory)
    dil = _module("diligent", "alertrouter.hooks.quiet_hours", tmp_path_factory)
    lag = {"alert": "PgReplicationLagHigh", "instance": "pg-ledger-replica-02"}
    normal, good_friday = datetime(2026, 4, 2, 1, 20, tzinfo=UTC), datetime(2026, 4, 3, 1, 20, tzinfo=UTC)
    assert ref.applies(lag, normal) and dil.applies(lag, normal)           # 02:20 BST on a normal night
    assert not ref.applies(lag, good_friday) and dil.applies(lag, good_friday)
    assert not ref.applies(lag, datetime(2026, 4, 6, 0, 40, tzinfo=UTC))  # Easter Monday 01:40 BST


@pytest.mark.parametrize("variant", VARIANTS + [f"sample:{i}" for i in range(12)])
def test_reference_is_built_from_kept_changes(variant):
    """The reference picks one change per file from solutions/menu/ by the truth (no copy of world
    code in solutions/): every named and sampled truth has its change there."""
    params = dict(TASK.variant(variant).params)
    ref = TASK.module("solutions/reference")
    for careful in (True, False):
        picked = ref.changes(params, careful)
        assert sorted(picked) == ["always_page", "dedup", "maintenance", "quiet_hours", "ticket_only"]
        for name in picked.values():
            for part in ref.PARTS.get(name, [name]):
                assert (ref.MENU / f"{part}.patch").is_file() or (ref.MENU / part).is_dir(), \
                    f"{variant}: no change {part} (of {name})"


def test_reference_rejects_a_truth_it_has_no_change_for():
    params = dict(TASK.variant("base").params, batch_windows=[["20:00", "22:00"], ["05:00", "05:45"]])
    with pytest.raises(ValueError, match="settlement start '20:00'"):
        TASK.module("solutions/reference").changes(params)


class _Router:
    """A deployment stub whose router pages every event of a shift and then ``spoil``s the reply."""

    task = TASK

    def __init__(self, spoil):
        self.spoil = spoil

    def call(self, module, function, batch, timeout_s=None):
        from fdegym_env.grading.grade import CallResult
        decisions = [{"id": e["id"], "action": "page"} for e in batch["events"]]
        return CallResult(True, {"decisions": self.spoil(decisions)})


@pytest.mark.parametrize("spoil, why", [
    (lambda ds: ds + ds[:1], "decided twice"),
    (lambda ds: ds[1:], "no decision"),
    (lambda ds: ds + [{"id": "EV-not-sent", "action": "page"}], "not in the batch"),
    (lambda ds: [dict(ds[0], action="escalate")] + ds[1:], "action='escalate' not one of"),
])
def test_any_bad_decision_rejects_the_whole_shift(spoil, why):
    """task.yaml declares on_malformed: batch: alertbridge fails open, nothing of the shift is kept,
    and the replay records one malformed_output incident."""
    held = _held("base")
    one = dict(held, days=held["days"][:1])
    good = TASK.module("grader").grade(_Router(lambda ds: ds), dict(TASK.variant("base").params), one)
    bad = TASK.module("grader").grade(_Router(spoil), dict(TASK.variant("base").params), one)
    assert good["details"]["pages"] == len(one["days"][0]["batch"]["events"]) and good["details"]["failed_shifts"] == 0
    assert bad["details"]["pages"] == 0 and bad["details"]["failed_shifts"] == 1
    [inc] = [i for i in bad["incidents"] if i.startswith("malformed_output")]
    assert inc.startswith("malformed_output: 1 repl(ies) rejected whole") and why in inc
