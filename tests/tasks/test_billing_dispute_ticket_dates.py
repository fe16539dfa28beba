"""billing_dispute: dispute tickets agree with the calendar and the history.

A forwarded email quoted in a ticket was sent before the ticket was opened (and its weekday is the
date's), and a locked customer says "Nth month running" only for the Nth invoice since 4.0.0 (28 Oct)
stopped reading the lock: the October invoice is the first."""

from __future__ import annotations

import csv
import datetime as dt
import json
import re
from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("billing_dispute")
T = TASK.module("traffic")
G = TASK.module("grader")
VARIANTS = ["base", "mid_month", "sample:5127", "sample:0", "sample:3"]
MON3 = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
WD = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7}


def _sent(note: str) -> dt.date | None:
    """The date on a quoted "Sent:" line (weekday checked), or None when the note quotes none."""
    m = re.search(r"^Sent: (.*)$", note, re.M)
    if not m:
        return None
    s = m.group(1)
    if g := re.fullmatch(r"(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})", s):
        return dt.date(int(g[3]), MON3.index(g[2]) + 1, int(g[1]))
    if g := re.fullmatch(r"([A-Z][a-z]{2}), ([A-Z][a-z]{2}) (\d{1,2}), (\d{4}) \d{1,2}:\d{2}", s):
        d = dt.date(int(g[4]), MON3.index(g[2]) + 1, int(g[3]))
        assert WD[d.weekday()] == g[1], f"weekday of {s!r}"
        return d
    if g := re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", s):
        return dt.date(int(g[1]), int(g[2]), int(g[3]))
    raise AssertionError(f"unknown Sent: format {s!r}")


def _check(tickets: list[tuple[str, str, str]]) -> int:
    """(ticket, opened_at, note): every quoted email was sent before the ticket's opened date."""
    n = 0
    for ticket, opened, note in tickets:
        sent = _sent(note or "")
        if sent is None:
            continue
        n += 1
        assert sent < dt.date.fromisoformat(opened[:10]), f"{ticket} opened {opened} quotes an email sent {sent}"
    return n


def _running(note: str, period: str) -> None:
    m = re.search(r"this is the (\w+) month running", note, re.I)
    if not m:
        return
    w = m.group(1).lower()
    n = NTH.get(w) or int(re.match(r"\d+", w).group())
    assert n == (int(period[:4]) - 2025) * 12 + int(period[5:7]) - 9, f"{period} invoice, note says {w}: {note!r}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_dev_tickets_quote_emails_sent_before_they_were_opened(tmp_path, variant):
    T.dev(dict(TASK.variant(variant).params), tmp_path)
    data = tmp_path / "data"
    rows = [r for r in csv.DictReader((data / "disputes_export.csv").open()) if r.get("customer_note")]
    bridge = json.loads((data / "bridge_samples" / "2026-01-29T14-00Z.json").read_text())["disputes"]
    n = _check([(r["ticket"], r["opened_at"], r["customer_note"]) for r in rows])
    n += _check([(d["ticket"], d["opened_at"], d["customer_note"]) for d in bridge])
    assert n >= 5, f"{variant}: only {n} forwarded emails to check"
    for r in rows:
        if r["invoice_no"].startswith("INV-"):
            inv = r["invoice_no"][4:10]
            _running(r["customer_note"], f"{inv[:4]}-{inv[4:]}")


def test_committed_world_data_is_what_the_generator_writes(tmp_path):
    T.dev(dict(TASK.variant("base").params), tmp_path)
    for rel in ["disputes_export.csv", "bridge_samples/2026-01-29T14-00Z.json"]:
        assert (TASK.path / "world" / "data" / rel).read_text() == (tmp_path / "data" / rel).read_text(), rel


def test_october_lock_dispute_is_the_first_month():
    rows = {r["ticket"]: r for r in csv.DictReader((TASK.path / "world" / "data" / "disputes_export.csv").open())}
    note = rows["ZD-40107"]["customer_note"]
    assert rows["ZD-40107"]["invoice_no"].startswith("INV-202510")
    assert "running" not in note and "again" not in note, note
    for period, word in [("2025-10", None), ("2025-11", "second"), ("2025-12", "third"), ("2026-02", "fifth")]:
        got = " ".join(T._lock_running("X", "Q-1", "Team", period, "third"))
        assert (word is None and "running" not in got) or f"the {word} month running" in got, (period, got)


@pytest.mark.parametrize("variant", ["base", "sample:5127", "sample:3"])
def test_held_out_tickets_quote_emails_sent_before_they_were_opened(monkeypatch, variant):
    params = dict(TASK.variant(variant).params)
    seen: list[dict] = []

    class Capture:
        def __init__(self, deploy, name):
            pass

        def __call__(self, batch):
            seen.extend(batch["disputes"])
            return SimpleNamespace(decisions={})

        def incidents(self):
            return []

    def decide(cin):
        rated = T.rate_cycle(cin, params, "legacy")
        return SimpleNamespace(ok=True, value={"invoices": [
            dict(v, account_id=aid, invoice_no=f"INV-{cin['period']}-{aid}") for aid, v in rated.items()]})

    decide.deploy = None
    monkeypatch.setattr(G.replay, "Decider", Capture)
    G.evaluate(decide, params, T.held_out(params, TASK.held_out_seed))
    assert len(seen) > 50
    assert _check([(d["ticket"], d["opened_at"], d["customer_note"]) for d in seen]) >= 5
    for d in seen:
        _running(d["customer_note"], d["invoice"]["period"])
