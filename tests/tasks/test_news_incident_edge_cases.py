"""news_incident: the held-out edge cases exist, the world carries their evidence, the grader scores
them as the customer would, and the reference handles them (the diligent solution does not)."""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot

TASK = load_task("news_incident")
NAMED = ["base", "ukns_text_kills", "legal_widened", "embargo_pacific", "thin_desk", "night_editor_leaving"]


def _edge_counts(traffic: dict) -> dict:
    truth = traffic["truth"]
    items = {it["guid"]: it for d in traffic["days"] for it in d["items"]}
    out = {"held_fix": 0, "embargo_fix": 0, "kna_resend": 0, "kna_slug_reused": 0}
    for g, t in truth.items():
        if t["kind"] != "version":
            continue
        root, it = truth[t["family"]], items[g]
        if it["agency"] == "KNA":
            assert it["version"] == 1, f"expected a Kestrel re-send to stay version 1, got {it['version']}"
            out["kna_resend"] += 1
        elif root["legal"] and it["version"] > 1:
            out["held_fix"] += 1
        if root.get("embargo_utc") and dt.datetime.fromisoformat(t["t"]) < dt.datetime.fromisoformat(root["embargo_utc"]):
            out["embargo_fix"] += 1
    days_of: dict[str, set] = {}
    for d in traffic["days"]:
        for it in d["items"]:
            if it["agency"] == "KNA" and it.get("msgtype") == "story" and truth[it["guid"]]["kind"] == "story":
                days_of.setdefault(it["slug"].lower(), set()).add(d["date"])
    out["kna_slug_reused"] = sum(1 for v in days_of.values() if len(v) > 1)
    return out


@pytest.mark.parametrize("variant", NAMED + ["sample:0", "sample:3"])
def test_held_out_traffic_carries_every_edge_case(variant):
    v = TASK.variant(variant)
    c = _edge_counts(TASK.module("traffic").held_out(dict(v.params), TASK.held_out_seed))
    assert c["held_fix"] >= 8, c
    assert c["embargo_fix"] >= 5, c
    assert c["kna_resend"] >= 10, c
    assert c["kna_slug_reused"] >= 5, c


def test_dev_week_shows_the_rare_cases_and_the_docs_name_the_rules():
    ws = world_snapshot(TASK, TASK.variant("base"))
    traffic = TASK.module("traffic").generate(dict(TASK.variant("base").params), TASK.module("traffic").DEV_SEED,
                                              TASK.module("traffic").DEV_START, 7, "dev")
    c = _edge_counts(traffic)
    assert 1 <= c["kna_resend"] <= 8 and c["held_fix"] >= 1 and c["kna_slug_reused"] >= 1, c
    files = sorted((ws / "data" / "wire").glob("*.jsonl"))
    assert len(files) == 7
    assert "not live" in (ws / "docs" / "cms_contract.md").read_text(encoding="utf-8")
    feeds = (ws / "docs" / "agency_feeds.md").read_text(encoding="utf-8")
    assert "version` always 1" in feeds and "exeter court" in feeds
    assert (ws / "docs" / "tickets" / "WIRE-219.md").is_file()


class _Deploy:
    """Calls process_batch in-process on a workspace (the grader's deploy interface)."""

    def __init__(self, ws: Path):
        self.ws, self.task = ws, TASK

    def call(self, module, function, items, timeout_s=None):
        if isinstance(self.ws, list):                 # a canned result instead of a workspace
            return type("R", (), {"ok": True, "value": self.ws})()
        sysdir = str(self.ws / "system")
        sys.path.insert(0, sysdir)
        os.environ["INGEST_DB"] = str(self.ws / "state.db")
        try:
            for name in [m for m in sys.modules if m == "wire_ingest" or m.startswith("wire_ingest.")]:
                del sys.modules[name]
            fn = getattr(importlib.import_module(module), function)
            value = json.loads(json.dumps(fn(items)))
        finally:
            sys.path.remove(sysdir)
            os.environ.pop("INGEST_DB", None)
        return type("R", (), {"ok": True, "value": value})()


def _story(guid, when, slug, version=1, agency="UKNS", **kw):
    item = {"guid": guid, "agency": agency, "slug": slug, "version": version, "pubstatus": "usable", "msgtype": "story",
            "priority": 2, "headline": kw.pop("headline", "Adam Moyle appears in court accused of assault"),
            "body": kw.pop("body", "Adam Moyle, 41, of Truro, appeared at Truro Magistrates' Court."),
            "subjects": ["crime", "court-hearing", "justice"], "people": ["Adam Moyle"], "country": "GB",
            "embargo": None, "ref": None, "received": when}
    item.update(kw)
    return item


def _grade(ws: Path, items: list, truth: dict, params: dict) -> dict:
    days: dict[str, list] = {}
    for it in items:
        days.setdefault(it["received"][:10], []).append(it)
    traffic = {"days": [{"date": d, "items": v} for d, v in sorted(days.items())], "truth": truth}
    return TASK.module("grader").grade(_Deploy(ws), params, traffic)


@pytest.fixture()
def workspaces(tmp_path):
    params = dict(TASK.variant("base").params)
    out = {}
    for sol in ("reference", "diligent"):
        ws = tmp_path / sol
        shutil.copytree(world_snapshot(TASK, TASK.variant("base")), ws)
        TASK.module(f"solutions/{sol}").apply(ws, params)
        out[sol] = ws
    return out, params


def test_a_correction_to_held_court_copy_must_go_to_the_queue(workspaces):
    ws, params = workspaces
    t0 = "2026-04-14T10:00:00+01:00"
    items = [_story("urn:ukns:20260414:000001", t0, "COURTS Assault Truro"),
             _story("urn:ukns:20260414:000009", "2026-04-14T10:40:00+01:00", "COURTS Assault Truro", version=2,
                    headline="CORRECTED: Adam Moyle appears in court accused of assault")]
    truth = {"urn:ukns:20260414:000001": {"t": "2026-04-14T09:00:00+00:00", "agency": "UKNS", "kind": "story",
                                          "family": "urn:ukns:20260414:000001", "priority": 2, "crime": True,
                                          "legal": True, "embargo_utc": None, "corrected": True},
             "urn:ukns:20260414:000009": {"t": "2026-04-14T09:40:00+00:00", "agency": "UKNS", "kind": "version",
                                          "family": "urn:ukns:20260414:000001", "version": 2}}
    ref = _grade(ws["reference"], items, truth, params)
    dil = _grade(ws["diligent"], items, truth, params)
    assert ref["details"]["stale_corrections"] == 0, ref["details"]
    assert ref["details"]["desk_peak"] == 1, "the corrected version replaces the queued item: no extra slot"
    assert dil["details"]["stale_corrections"] == 1 and dil["details"]["harm"]["stale"] == 4.0, dil["details"]


def test_kestrel_resend_updates_but_a_reused_slug_is_a_new_story(workspaces):
    ws, params = workspaces
    body = "Sorry - wrong age in para 1. Corrected copy below, replaces earlier (filed 10:02).\n\nLisa Yeo, 34, was jailed."
    items = [_story("KNA/260414/0101-A1", "2026-04-14T09:02:00Z", "yeo sentencing", agency="KNA",
                    subjects=["crime", "sentencing", "justice"], headline="Lisa Yeo jailed for theft"),
             _story("KNA/260414/0107-B2", "2026-04-14T10:15:00Z", "yeo sentencing", agency="KNA",
                    subjects=["crime", "sentencing", "justice"], headline="Corrected version - Lisa Yeo jailed for theft",
                    body=body),
             _story("KNA/260416/0140-C3", "2026-04-16T11:00:00Z", "yeo sentencing", agency="KNA",
                    subjects=["crime", "sentencing", "justice"], headline="Dean Yeo jailed for burglary",
                    people=["Dean Yeo"])]
    st = {"agency": "KNA", "kind": "story", "priority": 2, "crime": True, "legal": False, "embargo_utc": None}
    truth = {"KNA/260414/0101-A1": dict(st, t="2026-04-14T09:02:00+00:00", family="KNA/260414/0101-A1", corrected=True),
             "KNA/260414/0107-B2": {"t": "2026-04-14T10:15:00+00:00", "agency": "KNA", "kind": "version",
                                    "family": "KNA/260414/0101-A1", "version": 2},
             "KNA/260416/0140-C3": dict(st, t="2026-04-16T11:00:00+00:00", family="KNA/260416/0140-C3")}
    ref = _grade(ws["reference"], items, truth, params)
    dil = _grade(ws["diligent"], items, truth, params)
    assert ref["details"]["stale_corrections"] == 0 and ref["details"]["wrong_unpublish"] == 0, ref["details"]
    assert ref["details"]["published_on_time"] == 2, "both Yeo stories go out; the re-send updates the first"
    assert dil["details"]["stale_corrections"] == 1, dil["details"]


def test_malformed_output_is_an_incident_from_the_declared_output():
    """task.yaml declares process_batch's output (guid, action): an item without a valid decision is
    one malformed_output incident, without grader code; a schedule without publish_at is one too."""
    truth = {"g1": {"t": "2026-04-14T09:00:00+00:00", "agency": "UKNS", "kind": "story", "family": "g1",
                    "priority": 3, "crime": False, "legal": False, "embargo_utc": None},
             "g2": {"t": "2026-04-14T09:05:00+00:00", "agency": "UKNS", "kind": "story", "family": "g2",
                    "priority": 3, "crime": False, "legal": False, "embargo_utc": None}}
    traffic = {"days": [{"date": "2026-04-14", "items": [{"guid": "g1"}, {"guid": "g2"}]}], "truth": truth}
    grade = TASK.module("grader").grade
    params = dict(TASK.variant("base").params)
    ok = grade(_Deploy([{"guid": "g1", "action": "publish"}, {"guid": "g2", "action": "drop"}]), params, traffic)
    assert ok["incidents"] == [] and ok["details"]["published_on_time"] == 1, ok
    bad = grade(_Deploy([{"guid": "g1", "action": "publish"}, {"guid": "g2", "action": "post"}]), params, traffic)
    assert [i.split(":")[0] for i in bad["incidents"]] == ["malformed_output"] and "g2" in bad["incidents"][0], bad
    assert bad["details"]["published_on_time"] == 1, "the valid decision still counts"
    sched = grade(_Deploy([{"guid": "g1", "action": "schedule"}, {"guid": "g2", "action": "drop"}]), params, traffic)
    assert sched["incidents"] == ["malformed_output: g1: schedule without a valid publish_at"], sched
