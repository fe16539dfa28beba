"""pager_fatigue grader audit: each incident rule at its boundary (tasks/pager_fatigue/DESIGN_NOTES.md), on
a hand-made shift with canned router answers."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("pager_fatigue")
BASE = dict(TASK.variant("base").params)
CONTRACT = "CardAuthLatencyP99High"


class _Canned:
    def __init__(self, acts):
        self.task, self.acts = TASK, acts

    def call(self, module, function, batch, timeout_s=None):
        return type("R", (), {"ok": True, "error": None, "value": {
            "decisions": [{"id": e["id"], "action": self.acts.get(e["id"], "group")} for e in batch["events"]]}})()


def _ev(eid, ts, alert="PgReplicationLagHigh"):
    return {"id": eid, "ts": f"2026-03-03T{ts}Z", "alert": alert, "instance": "i-1", "service": "svc"}


def _grade(acts, sev="sev1", alert="PgReplicationLagHigh", second="02:05:00"):
    events = [_ev("e1", "02:00:00", alert), _ev("e2", second, alert), _ev("noise", "02:30:00", CONTRACT)]
    traffic = {"days": [{"batch": {"shift_start": "2026-03-02T18:00:00Z", "events": events},
                         "truth": {"e1": "INC-1", "e2": "INC-1"}}],
               "incidents": {"INC-1": {"start": "2026-03-03T02:00:00Z", "sev": sev, "alert": alert, "instance": "i-1",
                                       "summary": "replica lag", "kind": "lag_real"}},
               "contract_alerts": [CONTRACT]}
    return TASK.module("grader").grade(_Canned(acts), BASE, traffic)


def _kinds(out):
    return sorted({i.split(":")[0] for i in out["incidents"]})


@pytest.mark.parametrize("second, acts, incident", [
    ("02:05:00", {"e1": "page"}, False),                  # paged at once
    ("02:05:00", {"e2": "page"}, False),                  # first page 5:00 after the first alert: on the SLA
    ("02:05:01", {"e2": "page"}, True),                   # 5:01: late
    ("02:05:00", {"e1": "ticket", "e2": "ticket"}, True),  # ticket only
    ("02:05:00", {}, True),                               # grouped, never paged
])
def test_sev1_not_paged_within_five_minutes(second, acts, incident):
    out = _grade(acts, second=second)
    assert ("sev1_not_paged_5min" in _kinds(out)) is incident, out["incidents"]


@pytest.mark.parametrize("alert, incident", [(CONTRACT, True), ("PgReplicationLagHigh", False)])
def test_a_late_sev2_is_an_incident_only_on_a_contract_alert(alert, incident):
    out = _grade({"e2": "page"}, sev="sev2", alert=alert, second="02:10:00")
    assert ("contract_alert_not_paged_5min" in _kinds(out)) is incident, out["incidents"]
    assert "sev1_not_paged_5min" not in _kinds(out)


@pytest.mark.parametrize("action, incident", [("suppress", True), ("group", False), ("ticket", False)])
def test_any_contract_alert_suppressed_even_noise(action, incident):
    out = _grade({"e1": "page", "noise": action})
    assert ("contract_alert_suppressed" in _kinds(out)) is incident, out["incidents"]


def test_an_unknown_action_rejects_the_shift():
    out = _grade({"e1": "escalate"})
    assert "malformed_output" in _kinds(out), out["incidents"]


def test_night_pages_weigh_three_times_a_day_page():
    g = TASK.module("grader")
    assert [g.hour_weight(g._ts(f"2026-03-03T{h}:00:00Z")) for h in ("22", "23", "06", "07", "09", "19")] == \
        [2.0, 3.0, 3.0, 2.0, 1.0, 2.0]


def test_trial_report_names_no_calendar_day():
    params = dict(BASE)
    traffic = TASK.module("traffic").shadow(params, 1)
    out = TASK.module("trial").run(_Canned({}), params, 1, traffic)
    assert "2026-" not in out["feedback"], out["feedback"]


# ---------------------------------------------------------------------------------------------------------
# The February workspace data could be true (traffic.dev and the world's documents agree with each other).

import csv  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402

from fdegym_env.admission.realism import dates_in, start_clock  # noqa: E402
from fdegym_env.core.workspace import world_snapshot  # noqa: E402
from fdegym_env.tasklib.timeutil import local, parse_iso, utc  # noqa: E402

VARIANTS = sorted(TASK.variants)
NAMES = {"kasia.wrona": "Kasia Wrona", "tomas.ferreira": "Tomás Ferreira", "ben.okafor": "Ben Okafor"}
MONTHS = {m: i for i, m in enumerate(["Jan", "Feb", "Mar", "Apr"], 1)}


def _world(variant):
    return world_snapshot(TASK, TASK.variant(variant))


def _events(ws):
    """(file name, parsed event or None for a line that is not JSON, raw line) of the February archive."""
    for fn in sorted((ws / "data" / "events").glob("*.jsonl")):
        for line in fn.read_text().splitlines():
            try:
                yield fn.name, json.loads(line), line
            except ValueError:
                yield fn.name, None, line


def _days_left(e):
    return int(e["value"]) if e.get("value") is not None else int(e["labels"]["days_left"])


def _cert_series(events):
    series = {}
    for e in events:
        if e["alert"] == "CertExpirySoon":
            series.setdefault(e["instance"], []).append((utc(parse_iso(e["ts"])), _days_left(e), e))
    return {k: sorted(v, key=lambda x: x[0]) for k, v in series.items()}


# sampled worlds whose last night's scan put a renewal due on the start day (Mon 2 Mar): it used to be
# written as done at 09:42-14:50 that day, after the 09:00 start clock
LAST_NIGHT_RENEWALS = ["sample:7046", "sample:1"]


@pytest.mark.parametrize("variant", VARIANTS + LAST_NIGHT_RENEWALS)
def test_a_certs_days_left_fall_by_one_a_night_until_it_is_renewed(variant):
    ws = _world(variant)
    series = _cert_series([e for _f, e, _l in _events(ws) if e])
    renewals = {r["certificate"]: r for r in csv.DictReader(open(ws / "data" / "seceng_cert_renewals.csv"))}
    last_scan = max(t for xs in series.values() for t, _d, _e in xs)
    assert series
    for inst, xs in series.items():
        for (t0, d0, _), (t1, d1, _) in zip(xs, xs[1:]):
            nights = (t1.date() - t0.date()).days
            assert nights == 1 and d1 == d0 - 1, f"{inst}: {d0} on {t0:%d %b}, {d1} on {t1:%d %b}"
        not_after = {e["labels"]["not_after"] for _t, _d, e in xs if e.get("labels", {}).get("not_after")}
        assert len(not_after) <= 1, (inst, not_after)
        cert = inst.replace("cert:", "")
        if xs[-1][0].date() < last_scan.date():     # it left the scan: the SECENG board shows the renewal
            r = renewals[cert]
            renewed = datetime.fromisoformat(r["renewed_utc"]).replace(tzinfo=xs[-1][0].tzinfo)
            assert r["status"] == "Done" and xs[-1][0] < renewed < xs[-1][0] + timedelta(days=3), (inst, r)
            assert int(r["days_left_at_renewal"]) == xs[-1][1] - (renewed.date() - xs[-1][0].date()).days
        else:
            assert renewals[cert]["status"] in ("To Do", "In Progress"), renewals[cert]
    # OPS-1209 quotes vault-int's first certscan 3 event
    vault = {t.date().isoformat(): (d, e) for t, d, e in series["cert:vault-int.halyard.local"]}
    assert vault["2026-02-23"][0] == 12 and vault["2026-02-23"][1]["labels"]["not_after"] == "2026-03-07T04:00:00Z"
    assert "12d left (notAfter 2026-03-07T04:00:00Z" in (ws / "docs/tickets/OPS-1209.md").read_text()


@pytest.mark.parametrize("variant", ["base", "lb_generation"])
def test_held_out_certs_count_down_and_only_a_week_or_less_is_real(variant):
    params = dict(TASK.variant(variant).params)
    traffic = TASK.module("traffic").held_out(params, TASK.held_out_seed)
    events = [e for day in traffic["days"] for e in day["batch"]["events"]]
    truth = {k: v for day in traffic["days"] for k, v in day["truth"].items()}
    series = _cert_series(events)
    for inst, xs in series.items():
        for (t0, d0, _), (t1, d1, _) in zip(xs, xs[1:]):
            assert (t1.date() - t0.date()).days == 1 and d1 == d0 - 1, (inst, d0, d1)
        for _t, d, e in xs:
            assert (truth.get(e["id"]) is not None) == (d <= 7), (inst, d)
    assert sum(d <= 7 for xs in series.values() for _t, d, _e in xs) >= 1


def _leave_start(ws):
    """Tomás's leave from the rota page: 'annual leave from the 09:00 handover on Mon 23 Feb ...'."""
    text = (ws / "docs" / "oncall_rota.md").read_text()
    m = re.search(r"Tomás Ferreira: annual leave from the (\d\d):00 handover on \w+ (\d+) (\w{3})", text)
    assert m, "the rota page gives Tomás's leave"
    return datetime(2026, MONTHS[m.group(3)], int(m.group(2)), int(m.group(1)))


def _rota(ws):
    """{week start (Mon): (primary, secondary)} of the rota table, the swap resolved."""
    out = {}
    for m in re.finditer(r"^\| (2026-\d\d-\d\d) \| ([^|]+) \| ([^|]+) \|$", (ws / "docs" / "oncall_rota.md").read_text(), re.M):
        primary = m.group(2).split("→")[-1].split("(")[0].strip()
        out[datetime.fromisoformat(m.group(1))] = (primary, m.group(3).strip())
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_nobody_comments_or_acks_pages_while_on_leave(variant):
    ws = _world(variant)
    leave = _leave_start(ws)
    for t in sorted((ws / "docs" / "tickets").glob("*.md")):
        for day, mon in re.findall(r"Tomás Ferreira \((\d+) (\w{3})\)", t.read_text()):
            assert datetime(2026, MONTHS[mon], int(day)) < leave, f"{t.name}: Tomás comments on {day} {mon}"
    rota = _rota(ws)
    rows = list(csv.DictReader(open(ws / "data" / "pager_log.csv")))
    assert {r["acked_by"] for r in rows} - {"-"} == set(NAMES)
    for r in rows:
        if r["acked_by"] == "-":
            continue
        t = local(utc(parse_iso(r["triggered_at"]))).replace(tzinfo=None)
        assert not (r["acked_by"] == "tomas.ferreira" and t >= leave), r
        week = max(w for w in rota if w + timedelta(hours=9) <= t)
        assert NAMES[r["acked_by"]] in rota[week], (r, rota[week])
        # the secondary only gets a page by escalation, after 10 minutes unacked (oncall_handbook.md)
        if NAMES[r["acked_by"]] != rota[week][0]:
            assert int(r["ack_after_s"]) > 600, r


@pytest.mark.parametrize("variant", VARIANTS)
def test_pager_notes_fit_the_time_and_the_alert(variant):
    ws = _world(variant)
    rows = list(csv.DictReader(open(ws / "data" / "pager_log.csv")))
    seen = set()
    for r in rows:
        note = r["note"].lower()
        t = local(utc(parse_iso(r["triggered_at"])))
        h = t.hour + t.minute / 60
        if "lunch" in note:
            assert 11.5 <= h < 14.5, r
            seen.add("lunch")
        if "in the morning" in note:
            assert h >= 21 or h < 6, r
        if re.search(r"\b[23]am\b", note):
            assert 1.5 <= h < 4.5, r
        if "p99" in note:
            assert r["alert"] == "CardAuthLatencyP99High", r
        if r["alert"] == "CardAuthErrorRate" and re.search(r"\d+(\.\d+)?ms", note):
            raise AssertionError(r)
    assert rows


@pytest.mark.parametrize("variant", VARIANTS)
def test_cut_lines_in_the_event_archive_are_explained(variant):
    ws = _world(variant)
    bad = {f for f, e, _line in _events(ws) if e is None}
    docs = "\n".join(p.read_text() for p in (ws / "docs" / "tickets").glob("*.md"))
    named = set(re.findall(r"(2026-\d\d-\d\d\.jsonl)", docs))
    assert bad and bad == named, (bad, named)
    assert "OPS-1214" in (ws / "system" / "tools" / "replay.py").read_text()
    assert "OPS-1214" in (ws / "system" / "README.md").read_text()
    # a cut line is the start of one event, not noise
    for f, e, line in _events(ws):
        if e is None:
            assert line.startswith('{"id":') and len(line) > 40, (f, line)


EXPIRY_COLUMNS = {"not_after", "new_not_after"}


@pytest.mark.parametrize("variant", VARIANTS + LAST_NIGHT_RENEWALS)
def test_every_dated_record_is_before_the_start_clock(variant):
    """Beyond validate's scan (which exempts the event archive for its notAfter): every event's ts,
    every page, incident, renewal and ticket comment is before clock.start; only expiries are after."""
    ws = _world(variant)
    clock = start_clock(TASK, TASK.variant(variant))
    clock_utc = utc(parse_iso(clock.isoformat(), tz="Europe/London"))
    for f, e, _line in _events(ws):
        if e:
            t = local(utc(parse_iso(e["ts"]))).replace(tzinfo=None)
            shift = datetime.fromisoformat(f[:10]) + timedelta(hours=9)     # one file per shift, 09:00 to 09:00
            assert shift <= t < shift + timedelta(days=1) and utc(parse_iso(e["ts"])) < clock_utc, (f, e["ts"])
    for name, col in (("pager_log.csv", "triggered_at"), ("incidents.csv", "opened_utc")):
        for r in csv.DictReader(open(ws / "data" / name)):
            assert utc(parse_iso(r[col].replace(" ", "T") + ("" if len(r[col]) > 16 else ":00Z"))) < clock_utc, (name, r)
    for r in csv.DictReader(open(ws / "data" / "seceng_cert_renewals.csv")):
        for k, v in r.items():
            if k not in EXPIRY_COLUMNS:
                assert all(when < clock for when, _h, _at in dates_in(v)), (k, r)
    export = datetime(2026, 2, 27)   # docs/README.md: tickets/ (Jira OPS export) 2026-02-27
    for t in (ws / "docs" / "tickets").glob("*.md"):
        for day, mon in re.findall(r"\((\d+) (Jan|Feb|Mar|Apr)\)", t.read_text()):
            assert datetime(2026, MONTHS[mon], int(day)) <= export, (t.name, day, mon)
