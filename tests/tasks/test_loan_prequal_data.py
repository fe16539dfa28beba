"""loan_prequal workspace data agrees with the rules its documents and people state.

- Every reconsideration that says an applicant was (or would be) approved - at the branch, by hand, "clearly
  fine", "qualify easy" - is an application that clears the credit policy on its real income: the reference
  engine (the committee's appetite, the 640 floor, income read on its true basis) approves it. A note never
  claims an approval for a file under the FICO floor, with a recent bankruptcy or past the DTI limit.
- What a note quotes from the file (its score, its decline codes) is what the extract holds.
- The intake log's weekly OLA counts are the extract's counts.
- One event, one date: the CHANGELOG's OLA 2.0 go-live is the date Marisol gives for the relaunch.
"""
from __future__ import annotations

import csv
import re
import shutil
from datetime import datetime, timedelta

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import apply_solution
from fdegym_env.people import People, make_router

TASK = load_task("loan_prequal")
VARIANTS = ["base", "partner_feed", "tight_appetite", "underwriter_knows", "weekly_gig",
            "sample:4418", "sample:713", "sample:9289", "sample:21", "sample:5150"]
CLAIMS_APPROVAL = re.compile(r"approved|would approve|qualify easy|clearly fine", re.I)


def _rows(ws, name):
    return list(csv.DictReader((ws / "data" / name).read_text(encoding="utf-8").splitlines()))


def _app(row: dict) -> dict:
    a = {k: row[k] for k in ("app_id", "received", "channel", "form", "first_name", "last_name", "title",
                             "marital_status", "zip", "employment", "employer", "income_amount", "purpose")}
    a.update(age=int(row["age"]), fico=int(row["fico"]), term_months=int(row["term_months"]),
             monthly_debt=float(row["monthly_debt"]), requested_amount=float(row["requested_amount"]),
             bankruptcy_24m=row["bankruptcy_24m"] == "Y")
    return a


def _reference_decide(variant, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(world_snapshot(TASK, TASK.variant(variant)), ws)
    for p in ws.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    apply_solution(TASK, "reference", ws, dict(TASK.variant(variant).params))
    return TASK.module("traffic")._world_engine(ws)


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_reconsideration_claims_an_approval_the_policy_forbids(variant, tmp_path):
    ws = world_snapshot(TASK, TASK.variant(variant))
    apps = {r["app_id"]: r for r in _rows(ws, "applications_2026-02.csv")}
    recons = _rows(ws, "reconsiderations.csv")
    claimed = [r for r in recons if CLAIMS_APPROVAL.search(r["note"]) or "approved" in r["outcome"]]
    decide = _reference_decide(variant, tmp_path)
    floor = int(TASK.variant(variant).params["appetite_fico"])
    for r in claimed:
        row = apps[r["app_id"]]
        d = decide([_app(row)])[0]
        assert int(row["fico"]) >= floor and row["bankruptcy_24m"] != "Y", (variant, r, row["fico"])
        assert d["decision"] == "approve", (variant, r, d)


@pytest.mark.parametrize("variant", VARIANTS)
def test_what_a_note_quotes_from_the_file_is_in_the_extract(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    apps = {r["app_id"]: r for r in _rows(ws, "applications_2026-02.csv")}
    floor = int(TASK.variant(variant).params["appetite_fico"])
    for r in _rows(ws, "reconsiderations.csv"):
        row, note = apps[r["app_id"]], r["note"]
        for m in re.finditer(r"\b(?:credit|score) \(?(\d{3})\b", note):
            assert m[1] == row["fico"], (variant, r)
        if re.search(r"good credit", note):
            assert int(row["fico"]) >= floor, (variant, r)
        codes = set(filter(None, row["reasons"].split(";")))
        for m in re.finditer(r"\b(?:declined?|decline reason|stands \(?)\s*((?:AA\d\d/?)+)", note):
            assert set(m[1].strip("/").split("/")) <= codes, (variant, r, row["reasons"])
        if re.search(r"declined for income|declined insufficient income", note):
            assert "AA11" in codes or "AA07" in codes, (variant, r, row["reasons"])


@pytest.mark.parametrize("variant", ["base", "partner_feed", "sample:4418"])
def test_the_intake_log_counts_agree_with_the_extract(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    apps = _rows(ws, "applications_2026-02.csv")
    log = (ws / "logs" / "prequal_intake.log").read_text(encoding="utf-8").splitlines()
    lines = [ln for ln in log if "OLA:" in ln and "submissions this week" in ln]
    assert lines
    for ln in lines:
        stamp = datetime.strptime(ln[:19], "%Y-%m-%d %H:%M:%S")
        m = re.search(r"OLA: (\d+) submissions this week \(OLA-2\.0 (\d+), OLA-1\.9 (\d+) resumed\)", ln)
        assert m, ln
        monday = stamp.replace(hour=0, minute=0, second=0) - timedelta(days=stamp.weekday())
        week = [a for a in apps if a["channel"] == "online"
                and monday <= datetime.strptime(a["received"], "%Y-%m-%dT%H:%M") <= stamp]
        new = sum(a["form"] == "OLA-2.0" for a in week)
        old = sum(a["form"] == "OLA-1.9" for a in week)
        assert (int(m[1]), int(m[2]), int(m[3])) == (len(week), new, old), (variant, ln)


@pytest.mark.parametrize("variant", ["base", "partner_feed", "underwriter_knows", "sample:4418"])
def test_the_changelog_and_marisol_give_the_relaunch_one_date(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    changelog = (ws / "system" / "CHANGELOG.md").read_text(encoding="utf-8")
    m = re.search(r"OLA 2\.0 go-live (?:on )?(?:Mon )?(\d{1,2}) Feb", changelog)
    assert m, "the CHANGELOG's OLA entry names the go-live date"
    spec = TASK.people_spec(TASK.variant(variant))
    r = People(spec, make_router("semantic", spec["people"])).contact(
        "marisol_vega", "When exactly did OLA 2.0 go live for applicants?")
    assert r.tags and f"Feb {m[1]}" in r.reply, (changelog, r.reply)
    assert not re.search(r"Feb (?!%s\b)\d{1,2}\b" % m[1], r.reply), r.reply
