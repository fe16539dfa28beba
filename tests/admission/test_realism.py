"""The realism checks of ``fdegym validate``: each defect planted in a copy of the tiny fixture trips
its check and names where; the clean fixture passes them all."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from fdegym_env.admission import realism
from fdegym_env.admission.validate import leak_report
from fdegym_env.core.task import Task
from fdegym_env.core.workspace import world_snapshot
from tests.conftest import TINY


@pytest.fixture()
def tiny(tmp_path) -> Path:
    dest = tmp_path / "tiny_task"
    shutil.copytree(TINY, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _failing(task: Task) -> list[dict]:
    return [c for c in realism.realism_checks(task) if not c["passed"]]


def test_clean_fixture_passes_every_realism_check(tiny):
    assert _failing(Task.load(tiny)) == []


def test_a_record_dated_after_the_start_clock_fails_unless_declared(tiny):
    (tiny / "world" / "data").mkdir()
    (tiny / "world" / "data" / "log.csv").write_text(
        "when,who\n2026-03-01,ann\n2026-03-02T08:59,bob\n2026-03-02T09:30,cy\n", encoding="utf-8")
    bad = _failing(Task.load(tiny))
    assert bad and all("start clock" in c["check"] for c in bad)
    assert "data/log.csv:4" in bad[0]["value"] and "data/log.csv:3" not in bad[0]["value"]
    with open(tiny / "task.yaml", "a", encoding="utf-8") as f:
        f.write("scheduled_dates_ok: [data/log.csv]\n")
    assert _failing(Task.load(tiny)) == []


def test_future_dates_in_sqlite_and_day_first_slashed_dates(tmp_path):
    world = tmp_path / "w"
    world.mkdir()
    con = sqlite3.connect(world / "x.db")
    con.execute("CREATE TABLE t (id TEXT, flagged_on TEXT)")
    con.executemany("INSERT INTO t VALUES (?, ?)", [("a", "2026-02-27"), ("b", "2026-03-08")])
    con.commit()
    con.close()
    (world / "uk.csv").write_text("d\n25/02/2026\n04/03/2026\n", encoding="utf-8")   # 4 March, day first
    start = realism.datetime(2026, 3, 2, 9, 0)
    out = realism.future_records(world, start)
    assert out == ["uk.csv:3 '04/03/2026'", "x.db:t.flagged_on row 2 '2026-03-08'"]


def test_epoch_numbers_in_a_date_column_of_a_database_are_dates(tmp_path):
    world = tmp_path / "w"
    world.mkdir()
    con = sqlite3.connect(world / "events.sqlite")
    con.execute("CREATE TABLE events (id INTEGER, created_at INTEGER, amount_cents INTEGER, seen_ts REAL)")
    late = realism.datetime(2026, 3, 4, 12, 0).timestamp()
    early = realism.datetime(2026, 2, 20, 12, 0).timestamp()
    con.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", [
        (1, int(early), int(late), early * 1000),            # a big amount is no date
        (2, int(late), 5, early * 1000),                     # epoch seconds after the start
        (3, int(early), 7, late * 1000)])                    # epoch milliseconds after the start
    con.commit()
    con.close()
    out = realism.future_records(world, realism.datetime(2026, 3, 2, 9, 0))
    assert out == [f"events.sqlite:events.created_at row 2 {int(late)}",
                   f"events.sqlite:events.seen_ts row 3 {late * 1000!r}"]


def _with_sampler(tiny: Path, drawn_visit: str) -> Task:
    """The tiny fixture whose world has a database written from the variant's params, and a sampler
    that draws ``drawn_visit`` as its last visit (base keeps a date before the start)."""
    with open(tiny / "traffic.py", "a", encoding="utf-8") as f:
        f.write("\n\ndef _visits(params, out):\n"
                "    import sqlite3\n"
                "    con = sqlite3.connect(out / 'data' / 'visits.db')\n"
                "    con.execute('CREATE TABLE visits (who TEXT, seen_on TEXT)')\n"
                "    con.execute('INSERT INTO visits VALUES (?, ?)', ('ann', params.get('last_visit', '2026-02-27')))\n"
                "    con.commit()\n"
                "    con.close()\n\n\n"
                "_dev = dev\n\n\n"
                "def dev(params, out):\n"
                "    _dev(params, out)\n"
                "    _visits(params, out)\n")
    (tiny / "sampler.py").write_text(
        f"def sample(rng):\n    return {{'angle': 'rule', 'params': {{'threshold': rng.randint(40, 60), "
        f"'last_visit': {drawn_visit!r}}}}}\n", encoding="utf-8")
    return Task.load(tiny)


def test_a_future_record_in_a_sampled_world_fails_though_every_named_world_is_clean(tiny):
    task = _with_sampler(tiny, "2026-03-03")
    bad = _failing(task)
    assert [c["check"].split("(")[-1].split(";")[0] for c in bad] == ["sample:0", "sample:1", "sample:2"], bad
    assert "data/visits.db:visits.seen_on row 1 '2026-03-03'" in bad[0]["value"]
    # --samples widens the draw
    assert len([c for c in realism.realism_checks(task, samples=5) if not c["passed"]]) == 5


def test_a_sampled_world_dated_on_the_start_day_passes(tiny):
    assert _failing(_with_sampler(tiny, "2026-03-02")) == []


def test_a_note_repeated_verbatim_across_records_fails(tiny):
    (tiny / "world" / "data").mkdir()
    rows = [f"{i},note number {i} about the customer's order today" for i in range(30)]
    rows[3:6] = [f"{i},customer rang again about the late parcel" for i in range(3, 6)]
    (tiny / "world" / "data" / "notes.csv").write_text("id,note\n" + "\n".join(rows) + "\n", encoding="utf-8")
    bad = _failing(Task.load(tiny))
    assert len(bad) == 4 and all("repeated" in c["check"] for c in bad)       # one per variant
    assert "notes.csv note: 3 of 30" in bad[0]["value"]
    # twice in thirty is within the share
    rows[5] = "5,a different note written by someone else entirely"
    (tiny / "world" / "data" / "notes.csv").write_text("id,note\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert _failing(Task.load(tiny)) == []


def test_brief_saying_someone_left_who_is_listed_reachable_fails(tiny):
    brief = tiny / "briefs" / "L1.md"
    brief.write_text(brief.read_text(encoding="utf-8") + "\nOlu has left the company.\n", encoding="utf-8")
    bad = _failing(Task.load(tiny))
    assert bad and "L1 says Olu Ops is not reachable" in bad[0]["value"]
    # gone from the start (a 0 is a setting, not "unset") agrees with the brief
    people = tiny / "people.yaml"
    people.write_text(people.read_text(encoding="utf-8").replace("    patience: 3\n", "    patience: 3\n    gone_after_hours: 0\n", 1),
                      encoding="utf-8")
    assert _failing(Task.load(tiny)) == []


def test_a_deputy_for_when_someone_is_away_is_not_said_to_be_away(tiny):
    brief = tiny / "briefs" / "L1.md"
    brief.write_text(brief.read_text(encoding="utf-8") + "\nCee Eo owns the rule (Olu Ops deputises when she is away).\n",
                     encoding="utf-8")
    assert _failing(Task.load(tiny)) == []
    brief.write_text(brief.read_text(encoding="utf-8") + "\nOlu Ops is away this week.\n", encoding="utf-8")
    assert _failing(Task.load(tiny))


def test_brief_sending_the_agent_to_an_off_limits_person_fails(tiny):
    brief = tiny / "briefs" / "L0.md"
    brief.write_text(brief.read_text(encoding="utf-8") + "\nIf unsure, ask Cee Eo.\n", encoding="utf-8")
    bad = _failing(Task.load(tiny))
    assert bad and "reach Cee Eo" in bad[0]["value"]
    # saying they must not be contacted agrees with the directory
    brief.write_text("Brief L0: {{threshold}}. Cee Eo must not be contacted.\n", encoding="utf-8")
    assert _failing(Task.load(tiny)) == []


def test_rule_change_said_nowhere_fails(tiny):
    people = tiny / "people.yaml"
    people.write_text(people.read_text(encoding="utf-8").replace("The real cutoff is {{threshold}}.",
                                                                 "The cutoff is what the config says."),
                      encoding="utf-8")
    for lv in ("L0", "L1", "L2", "L3"):
        (tiny / "briefs" / f"{lv}.md").write_text("Make classification right.\n", encoding="utf-8")
    bad = _failing(Task.load(tiny))
    values = sorted(c["value"] for c in bad)
    assert all("rule the variant changes" in c["check"] for c in bad)
    assert "1: threshold=70" in values and "1: threshold=90" in values


def test_trial_capping_examples_without_a_count_fails(tiny):
    (tiny / "trial.py").write_text(
        "def run(deploy, params, day, traffic):\n"
        "    wrong = [x for x in traffic if x > params['threshold']]\n"
        "    return {'feedback': 'e.g. ' + ', '.join(map(str, wrong[:3])), 'facts': []}\n", encoding="utf-8")
    bad = _failing(Task.load(tiny))
    assert len(bad) == 1 and "trial.py line 3: wrong[:3]" in bad[0]["value"]
    assert realism.capped_examples("def f(xs):\n    return f'{len(xs)} misses, e.g. {xs[:2]} {str(xs)[:10]}'\n") == []


def test_leaks_only_report_includes_the_realism_checks(tiny):
    (tiny / "briefs" / "L2.md").write_text("Olu has left.\n", encoding="utf-8")
    task = Task.load(tiny)
    world_snapshot(task, task.variant("base"))
    report = leak_report(task)
    assert not report.passed
    assert any("who is reachable" in f for f in report.failures)


def test_a_scheduled_column_exempts_only_itself_and_a_same_day_time_after_the_clock_counts(tmp_path):
    """A renewals export: not_after is scheduled, but renewed_utc is history. Declaring the whole
    file hid a renewal 'done' at 14:50 on the start day (09:00); declaring the column does not."""
    world = tmp_path / "w"
    (world / "data").mkdir(parents=True)
    (world / "data" / "renewals.csv").write_text(
        "key,not_after,status,renewed_utc\n"
        "S-1,2026-03-17T22:51:31Z,Done,2026-02-27 11:02\n"
        "S-2,2026-03-18T14:59:34Z,Done,2026-03-02 14:50\n"
        "S-3,2026-03-21T03:47:55Z,In Progress,\n", encoding="utf-8")
    (world / "data" / "events.jsonl").write_text(
        '{"ts": "2026-03-01T23:05:00Z", "labels": {"not_after": "2026-03-20T17:43:01Z"}}\n'
        '{"ts": "2026-03-02T09:30:00Z", "labels": {"not_after": "2026-03-20T17:43:01Z"}}\n', encoding="utf-8")
    (world / "data" / "uk_log.txt").write_text(      # day first (13/02), so 02/03 is 2 March
        "opened 13/02/2026 10:00\nseen 02/03/2026 08:15\nfixed 02/03/2026 14:50\n", encoding="utf-8")
    start = realism.datetime(2026, 3, 2, 9, 0)
    scheduled = [{"path": "data/renewals.csv", "fields": ["not_after"]},
                 {"path": "data/*.jsonl", "fields": ["labels"]}]
    out = realism.future_records(world, start, scheduled)
    assert out == ["data/events.jsonl:2 ts '2026-03-02T09:30'",
                   "data/renewals.csv:3 renewed_utc '2026-03-02 14:50'",
                   "data/uk_log.txt:3 '02/03/2026 14:50'"]
    # the whole file declared: nothing in it is checked (how the late renewal went unseen)
    assert realism.future_records(world, start, ["data/renewals.csv", "data/*.jsonl", "data/uk_log.txt"]) == []


def test_a_scheduled_fields_entry_in_task_yaml_exempts_that_column_only(tiny):
    (tiny / "world" / "data").mkdir()
    (tiny / "world" / "data" / "certs.csv").write_text(
        "cert,expires,renewed\na,2026-04-01,2026-02-20 10:00\nb,2026-04-09,2026-03-02 09:30\n", encoding="utf-8")
    text = (tiny / "task.yaml").read_text(encoding="utf-8")
    (tiny / "task.yaml").write_text(text + "scheduled_dates_ok: [{path: data/certs.csv, fields: [expires]}]\n",
                                    encoding="utf-8")
    bad = _failing(Task.load(tiny))
    assert bad and all(c["value"] == "1: data/certs.csv:3 renewed '2026-03-02 09:30'" for c in bad)   # every variant
    (tiny / "task.yaml").write_text(text + "scheduled_dates_ok: [{path: data/certs.csv, fields: [expires, renewed]}]\n",
                                    encoding="utf-8")
    assert _failing(Task.load(tiny)) == []
