"""outage_notify: what people say and what the workspace shows agree.

- The November complaints agree with the switching dates the control room gives: nobody in a section
  a standing transfer moved complains of a wrong or missing text dated before that transfer began.
- The trial report prices the day for the system as found as well as for the shadow system, so the
  cost figure has something to compare with.
- Wendell's note from the floor is about the production night before the engagement, in its words and
  its timing, and does not read as feedback on a trial.
- No MOMENTARY or LOCKOUT in the OMS feed is on a device that the switching holds open at that time.
- The runbook's "GIS update connectivity within two business days of any switching" stays (the scenario's
  misconception) but reads as a stale, attributed claim: dated before the GIS notes that contradict it, and
  disowned by the GIS lead.
"""

from __future__ import annotations

import csv
import json
import re
from datetime import datetime

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import held_out_traffic, shadow_traffic

TASK = load_task("outage_notify")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:0", "sample:1", "sample:2", "sample:3", "sample:8142"]
NET = TASK.module("on_net")
MONTHS = {"October": 10, "November": 11, "December": 12}
FORMATS = ("%m/%d/%Y %H:%M", "%Y-%m-%d %H:%M:%S", "%m/%d/%y %I:%M %p", "%d-%b-%Y %H:%M")


def _received(s: str) -> datetime:
    for fmt in FORMATS:
        try:
            return datetime.strptime(s, fmt)
        except ValueError:
            pass
    raise ValueError(s)


def _answer(spec: dict, person: str, topic: str) -> str:
    p = next(p for p in spec["people"] if p["id"] == person)
    return next(t for t in p["topics"] if t["id"] == topic)["answer"]


def _spoken_since(variant) -> dict[str, datetime]:
    """Transfer -> the date its switching began, as the person who holds it says it."""
    spec = TASK.people_spec(variant)
    if variant.params.get("ray_gone_after_hours", 100000) == 0:
        words = _answer(spec, "priya_ramaswamy", "redlines")
    else:
        words = _answer(spec, "ray_tolliver", "standing_transfers")
    out = {}
    sentences = re.split(r"(?<=\.) ", words)
    for tr in variant.params["transfers"]:
        opened = tr.split(":")[1]
        said = [s for s in sentences if opened in s]
        assert said, (variant.key, tr, words)
        m = re.search(r"(October|November|December) (\d{1,2})(?:st|nd|rd|th)", said[0])
        assert m, (variant.key, tr, said[0])
        out[tr] = datetime(2026, MONTHS[m.group(1)], int(m.group(2)))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_complaints_from_switched_sections_start_after_the_switching(variant):
    v = TASK.variant(variant)
    since = _spoken_since(v)
    normal = NET.as_operated({})
    custs = {c["account"]: c for c in NET.customers(int(v.params["world_seed"]), v.params)}
    root = world_snapshot(TASK, v)
    with open(root / "data" / "call_centre" / "inbound_outage_calls_2026-11.csv", encoding="utf-8") as fh:
        calls = list(csv.DictReader(fh))
    bad = []
    for tr, began in since.items():
        moved = {s for s, x in NET.as_operated(NET.transfer_state([tr])).items() if x["feeder"] != normal[s]["feeder"]}
        assert moved, tr
        for r in calls:
            c = custs[r["account"]]
            if c["section"] not in moved or _received(r["received"]) >= began:
                continue
            # before the switching a section is fed as GIS says: no false alert, and only a landline misses a text
            if r["reason"] == "FALSE_ALERT" or (r["reason"] == "NO_NOTIFY" and c["phone_type"] != "landline"):
                bad.append((tr, r["call_id"], r["received"], r["premise"], r["reason"], r["notes"]))
    assert not bad, bad
    # the generator's switching dates are the ones spoken
    for tr, began in since.items():
        assert NET.transfer_began(v.params, tr).date() == began.date(), (variant, tr)


def _cost_line(feedback: str) -> str:
    lines = [x for x in feedback.splitlines() if x.startswith("Marisol: on the cost sheet")]
    assert len(lines) == 1, feedback
    return lines[0]


def _dollars(line: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+)", line)]


@pytest.mark.parametrize("variant", ["base", "sample:8142"])
def test_trial_report_gives_the_day_as_found_next_to_the_shadow_cost(tmp_path, variant):
    import shutil

    from fdegym_env.grading.grade import apply_solution, run_trial

    v = TASK.variant(variant)
    found = tmp_path / "found"
    shutil.copytree(world_snapshot(TASK, v), found)
    ref = tmp_path / "ref"
    shutil.copytree(found, ref)
    apply_solution(TASK, "reference", ref, dict(v.params))
    as_found = run_trial(TASK, v, found, 0, sandbox="none")
    with_ref = run_trial(TASK, v, ref, 0, sandbox="none")
    # the system as found, trialled: both figures are its own cost, so the emulation is the real v1
    f_shadow, f_base = _dollars(_cost_line(as_found["feedback"]))
    assert f_shadow == f_base
    assert as_found["stats"]["cost"] == as_found["stats"]["cost_as_found"]
    # the reference: its own cost, and the same day as found, which differs
    line = _cost_line(with_ref["feedback"])
    r_shadow, r_base = _dollars(line)
    assert "as it runs in production today" in line
    assert r_base == f_base and r_shadow < r_base, line


@pytest.mark.parametrize("variant", NAMED + ["sample:8142"])
def test_wendells_floor_note_is_about_production_before_the_engagement(variant):
    from fdegym_env.core.env import FDEGymEnv

    v = TASK.variant(variant)
    spec = TASK.people_spec(v)
    note = next(m for m in spec["inbox"] if m["from"] == "wendell_pruitt")
    start = datetime.fromisoformat(spec["clock"]["start"])
    # it names its night, a date before the engagement started, and the system it is about
    m = re.search(r"(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day night \((\d{1,2}) Dec\)", note["text"])
    assert m, note["text"]
    night = datetime(start.year, 12, int(m.group(2)))
    assert night.date() < start.date() and night.strftime("%A").startswith(m.group(1)), note["text"]
    assert "production ONS" in note["text"] and "last night" not in note["text"]
    # it says nothing the variant's staffing contradicts
    if int(v.params["agents_night"]) == 0:
        assert "night agents" not in note["text"], note["text"]
    # and it is in the inbox from the start, so it cannot arrive with a trial report
    assert float(note.get("after_hours", 0)) == 0
    env = FDEGymEnv(task=TASK.path, variant=variant, sandbox="none")
    env.reset(seed=0)
    obs = env.step({"tool": "inbox"})[0]
    env.close()
    assert "Wednesday night (2 Dec)" in obs["text"], obs["text"]


def test_the_runbooks_two_day_claim_is_dated_before_the_gis_notes_and_disowned():
    docs = TASK.path / "world" / "docs"
    runbook = (docs / "ons_runbook.md").read_text(encoding="utf-8")
    para = runbook.split("## Where connectivity comes from", 1)[1].split("##", 1)[0]
    assert "two business days of any switching" in " ".join(para.split())          # the trap is kept
    m = re.search(r"GIS lead at the time \(v1\.0, (January|February|March|April|May|June|July|August|September|"
                  r"October|November|December) (20\d\d)\)", para)
    assert m, para
    said = datetime.strptime(f"1 {m.group(1)} {m.group(2)}", "%d %B %Y")
    notes = (docs / "gis_data_notes.md").read_text(encoding="utf-8")
    edited = datetime.strptime(re.search(r"last edited .* (\d{4}-\d\d-\d\d)", notes).group(1), "%Y-%m-%d")
    assert said < edited and "Temporary switching: not posted" in notes and "6-10 weeks" in notes
    changelog = (TASK.path / "world" / "system" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(r"## v1\.0 - %d-%02d" % (said.year, said.month), changelog)  # v1.0 shipped that month
    priya = _answer(TASK.people_spec(TASK.variant("base")), "priya_ramaswamy", "gis_normal_state")
    assert "runbook line" in priya and "never true for temporary switching" in priya


def _event_streams(v):
    """Every OMS event stream of a variant: November's feed, the held-out weeks and three trial days."""
    root = world_snapshot(TASK, v)
    with open(root / "data" / "oms_events_2026-11.jsonl", encoding="utf-8") as fh:
        yield "dev", [json.loads(x) for x in fh if x.strip()]
    for i, week in enumerate(held_out_traffic(TASK, v)["weeks"]):
        yield f"held_out:{i}", week
    for day in range(3):
        for week in shadow_traffic(TASK, v, day)["weeks"]:
            yield f"shadow:{day}", week


@pytest.mark.parametrize("variant", ["base"] + [f"sample:{i}" for i in range(8)] + NAMED[1:])
def test_no_trip_on_a_device_the_switching_holds_open(variant):
    # a recloser or switch that is open cannot trip, reclose or lock out
    v = TASK.variant(variant)
    standing = {tr.split(":")[1]: NET.transfer_began(v.params, tr) for tr in v.params.get("transfers") or []}
    bad = []
    for name, evs in _event_streams(v):
        scada: dict[str, str] = {}
        for ev in sorted(evs, key=lambda e: e["ts"]):
            if ev["type"] == "SWITCH":
                scada[ev["device"]] = ev["state"]
                continue
            t = datetime.fromisoformat(ev["ts"][:19])
            held = (ev["device"] in standing and t >= standing[ev["device"]]) or scada.get(ev["device"]) == "open"
            if ev["type"] in ("MOMENTARY", "LOCKOUT") and held:
                bad.append((name, ev["event_id"], ev["ts"], ev["type"], ev["device"]))
    assert not bad, bad
