"""claims_fasttrack, from the playtests.

- A trial day takes a customer day, but the report named the shadow day from the traffic (day 1 =
  Wed 04 Mar, day 2 = Thu 05 Mar) whatever the clock said: after two trials from Monday morning the
  clock was on Wed 04 Mar and the report already spoke of Thursday.
- Aileen (compliance) had the straight-through limit but nothing on manual 7.1's "automated payment
  not permitted", and the acknowledgement rule but nothing on whether setting photo-less claims up
  at once (PhotoDrop) meets it: a message asking both got neither.
- Aileen's Monday out-of-office said only "back in the office tomorrow morning"; a player who asked on
  Monday waited for her to answer the email on Tuesday, which she never does (she answers what she is
  sent once back). The auto-reply now says she won't see Monday's mail and to send it again on Tuesday."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import yaml

from fdegym_env import FDEGymEnv
from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router
from tests.tasks.trial_clock import trial_on_the_clock

TASK = load_task("claims_fasttrack")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:1737", "sample:0", "sample:1"]



@pytest.mark.parametrize("variant", ["base", "sample:1737"])
def test_trial_reports_name_no_day_the_clock_has_not_reached(variant):
    env = FDEGymEnv(task="claims_fasttrack", sandbox="none", variant=variant)
    try:
        env.reset(seed=1)
        for _ in range(2):
            text, after = trial_on_the_clock(env, "Shadow intake")
        # a reply after the trials is stamped on the clock the reports agree with
        reply = env.step({"tool": "contact", "to": "hector_villanueva", "message": "How many FNOLs come in a day?"})
        assert f"({after.strftime('%a %d %b')}" in reply[0]["text"]
    finally:
        env.close()


def _aileen(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    eng = People(spec, make_router(TASK.router, spec["people"]))
    eng.wait(24)                                    # back from the DOI hearing
    return eng


@pytest.mark.parametrize("variant", VARIANTS)
def test_aileen_answers_the_manual_and_the_photodrop_question_together_and_alone(variant):
    both = ("Two things from the intake work. The claims manual's payment authority section says automated "
            "payment isn't permitted - can fast track be switched on at all? And if photo-less claims were set "
            "up straight away with an upload link instead of waiting in PEND_PHOTO, would that keep us inside "
            "the acknowledgement deadline?")
    r = _aileen(variant).contact("aileen_park", both)
    assert sorted(r.tags) == ["ack_rule", "authority"], (r.tags, r.reply)
    r = _aileen(variant).contact("aileen_park", "Does manual 7.1 stop fast track from paying small claims straight through?")
    assert r.tags == ["authority"], (r.tags, r.reply)
    assert "7.1" in r.reply and "doesn't hold you up" in r.reply
    r = _aileen(variant).contact("aileen_park", "Would setting photo-less claims up at first notice through PhotoDrop satisfy the acknowledgement rule?")
    assert r.tags == ["ack_rule"], (r.tags, r.reply)
    assert "PhotoDrop" in r.reply and "fixes it from my side" in r.reply


# - Renata's directory blurb said she works the Delta file while her answer, in the SIU-handover
#   variant, said she handed it over in January: the directory states her current role and what she
#   says (answer, inbox note) agrees with it, in every variant.
# - Hector's note "Friday sweep again this week" arrived on a Tuesday: it speaks of last Friday's
#   sweep, in figures the intake log's sweep line bears out.

def _people(variant: str) -> People:
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router(TASK.router, spec["people"]))


@pytest.mark.parametrize("variant", VARIANTS + ["sample:4567"])
def test_renata_directory_line_agrees_with_what_she_says(variant):
    eng = _people(variant)
    handed_over = TASK.variant(variant).params["siu_holder"] == "marcus_lindqvist"
    blurb = eng.people["renata_okafor"]["blurb"]
    r = eng.contact("renata_okafor", "Three claims on data/siu_referrals_2026.csv are at Crestline Collision with the "
                                     "same damage photos on different policies. Which claims does SIU want referred?")
    assert r.tags == ["ring_pattern"], (r.tags, r.reply)
    quiet = _people(variant)                        # her note goes only to an agent she has not talked to
    quiet.wait(40)
    note = next(m["text"] for m in quiet.read_inbox() if m["from"] == "renata_okafor")
    if handed_over:
        assert "Delta" not in blurb and "Reno" in blurb, blurb
        assert "handed the Delta file to Marcus" in r.reply and "Reno" in r.reply, r.reply
        assert "Marcus" in note and "talk to me" not in note, note
    else:
        assert "Delta" in blurb and "Reno" not in blurb, blurb
        assert "handed" not in r.reply and "Reno" not in r.reply, r.reply
        assert "talk to me" in note, note


@pytest.mark.parametrize("variant", ["base", "siu_handover", "sample:4567"])
def test_hectors_sweep_note_fits_the_day_it_arrives(variant):
    eng = _people(variant)
    first = None
    for _ in range(48):
        if any(m["id"] == "m2_sweep" for m in eng.read_inbox()):
            first = eng.clock.now()
            break
        eng.wait(1)
    assert first is not None and first.weekday() < 4, first          # it lands Mon-Thu, before this week's sweep
    text = next(m["text"] for m in eng.read_inbox() if m["id"] == "m2_sweep")
    assert "last Friday" in text and "this week" not in text and "about a hundred" in text, text
    last_friday = first.date() - dt.timedelta(days=(first.weekday() - 4) % 7)
    log = (world_snapshot(TASK, TASK.variant(variant)) / "logs" / "intake.log").read_text(encoding="utf-8")
    sweep = re.search(rf"^{last_friday.isoformat()}T\S+ INFO  pend\.sweep +(\d+) .*oldest (\d+) days", log, re.M)
    assert sweep, last_friday                                         # the sweep he speaks of is in the log
    assert 70 <= int(sweep[1]) <= 140 and 12 <= int(sweep[2]) <= 16  # "about a hundred", "about two weeks"


@pytest.mark.parametrize("variant", ["base", "ring_vin", "siu_handover"])
def test_marcus_trial_line_names_the_giveaway_and_the_holder_of_the_variant(variant, monkeypatch):
    trial = TASK.module("trial")
    params = dict(TASK.variant(variant).params)
    out = {"_lost": 0, "incidents": [], "details": {"by_queue": {"fast_track": 2}},
           "_per": [{"queue": "fast_track", "kind": "ring"}, {"queue": "fast_track", "kind": "legit"}]}
    monkeypatch.setattr(trial.evaluation, "evaluate_on", lambda *a, **k: out)
    text = trial.run(None, params, 1, {})["feedback"]
    line = next(s for s in text.split("\n") if s.startswith("Marcus:"))
    assert "stopped 1 of those" in line
    assert ("VINs look familiar" in line) == (params["ring_key"] == "vin"), line
    assert ("pictures look familiar" in line) == (params["ring_key"] == "photo"), line
    assert ("asking Renata" in line) == (params["siu_holder"] == "renata_okafor"), line


# - claims.db, "the nightly extract" ("Today's FNOLs are NOT in it") held a claim first notified the
#   day after the Monday 2 March start: a two-car partner's report was dated up to two days after the
#   generated window. Every window's claims are dated inside it now.
# - Paid claims had a median of 11 days with photos and without, on every channel, while the documents
#   say photo-less files sit in PEND_PHOTO to the Friday sweep and then wait for an appraiser, and the
#   dashboard said 13.1: decisions now follow the grader's model (sweep, appraisal, desk queue), and the
#   dashboard's weeks that the extract covers are what it gives (data/README.md says the population).
# - Jorge, asked whether the SnapClaim mailbox is wired (a `snapclaim` list on the FNOL), re-explained
#   photo_link; Marcus, asked for a current SIU shop list by EIN, said "the ring file is Renata's".

EXTRACT = ["base", "photo_email", "siu_handover", "sample:6029", "sample:0", "sample:1", "sample:2", "sample:5"]
START = dt.date(2026, 3, 2)


def _db(variant: str):
    import sqlite3
    return sqlite3.connect(world_snapshot(TASK, TASK.variant(variant)) / "system" / "data" / "claims.db")


@pytest.mark.parametrize("variant", EXTRACT)
def test_the_nightly_extract_holds_nothing_from_the_start_day_on(variant):
    con = _db(variant)
    cols = [("claims", "fnol_date"), ("claims", "loss_date"), ("claims", "closed_date"), ("siu_flags", "flagged_on")]
    for table, col in cols:
        late = con.execute(f"SELECT count(*), max({col}) FROM {table} WHERE {col} >= ?", (START.isoformat(),)).fetchone()
        assert late[0] == 0, (variant, table, col, late)
    # the same generator makes the trial days: a shadow day's claims are all that day's
    traffic = TASK.module("traffic")
    day = traffic.shadow(dict(TASK.variant(variant).params), 1)
    assert {c["fnol_date"] for c in day["batches"][0]} == {(traffic.SHADOW_START + dt.timedelta(days=1)).isoformat()}


def _paid(con):
    """(fnol, paid on, channel, has photos) of every paid claim."""
    return [(dt.date.fromisoformat(f), dt.date.fromisoformat(c), ch, bool(ph)) for f, c, ch, ph in con.execute(
        "SELECT fnol_date, closed_date, channel, EXISTS (SELECT 1 FROM photos p WHERE p.claim_id = c.claim_id) "
        "FROM claims c WHERE status = 'PAID'")]


def _median(xs):
    import statistics
    return statistics.median(xs)


@pytest.mark.parametrize("variant", EXTRACT)
def test_photo_less_claims_wait_for_the_sweep_and_an_appraiser_and_the_dashboard_agrees(variant):
    sim = TASK.module("sim")
    paid = _paid(_db(variant))
    days = {ph: [(c - f).days for f, c, _ch, p in paid if p == ph] for ph in (True, False)}
    # the pend: never decided before the Friday sweep, a field appraisal and the review
    for f, c, _ch, ph in paid:
        if not ph:
            assert (c - f).days >= sim._friday_sweep(f) + sim.APPRAISAL_DAYS + sim.REVIEW_DAYS - 1, (variant, f, c)
    assert _median(days[False]) >= _median(days[True]) + 10, (variant, _median(days[False]), _median(days[True]))
    by_channel = {ch: _median([(c - f).days for f, c, x, _p in paid if x == ch])
                  for ch in ("app", "web", "phone", "agent")}
    assert min(by_channel["phone"], by_channel["agent"]) > max(by_channel["app"], by_channel["web"]) + 5, by_channel
    # the dashboard's last two weeks are the extract's payments in those weeks, about 13 days
    ws = world_snapshot(TASK, TASK.variant(variant))
    import csv
    rows = {r["week_ending"]: r for r in csv.DictReader((ws / "data" / "cycle_time_weekly.csv").open(encoding="utf-8"))}
    for end in (START - dt.timedelta(days=8), START - dt.timedelta(days=1)):
        week = [(c - f).days for f, c, _ch, _p in paid if end - dt.timedelta(days=6) <= c <= end]
        row = rows[end.isoformat()]
        assert int(row["paid"]) == len(week), (variant, end, row)
        assert float(row["median_days_fnol_to_pay"]) == _median(week), (variant, end, row)
        assert 11 <= _median(week) <= 14, (variant, end, _median(week))
    assert "claims paid that week (by payment date" in (ws / "data" / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("variant", ["base", "photo_email", "sample:6029"])
def test_the_sweep_lines_count_the_photo_less_files_the_extract_holds(variant):
    sim = TASK.module("sim")
    con = _db(variant)
    nophoto = [dt.date.fromisoformat(f) for (f,) in con.execute(
        "SELECT fnol_date FROM claims WHERE claim_id NOT IN (SELECT claim_id FROM photos)")]
    log = (world_snapshot(TASK, TASK.variant(variant)) / "logs" / "intake.log").read_text(encoding="utf-8")
    sweeps = re.findall(r"^(\S{10})T\S+ INFO  pend\.sweep +(\d+) .*oldest (\d+) days", log, re.M)
    assert len(sweeps) == 2
    for day, n, oldest in sweeps:
        friday = dt.date.fromisoformat(day)
        ages = [(friday - f).days for f in nophoto if f + dt.timedelta(days=sim._friday_sweep(f)) == friday]
        assert (int(n), int(oldest)) == (len(ages), max(ages)), (variant, day)


JORGE = ["Is the SnapClaim email-in mailbox wired to the FNOL job now, i.e. can an FNOL arrive with images in a "
         "separate `snapclaim` list (and empty `photos`)? If so, what does that list look like?",
         "Quick one on the FNOL payload: if a customer emails photos to photos@svmutual-claims.com, do they reach "
         "triage_batch? In what field?",
         "Your tech note says emailed images would come in a separate snapclaim list if the mailbox were wired. Is it?",
         "What fields does an FNOL have for images?"]


@pytest.mark.parametrize("variant", ["base", "photo_email", "ring_vin", "sample:6029", "sample:5"])
def test_jorge_says_what_the_fnol_feed_carries_for_photos_as_the_traffic_has_it(variant):
    from fdegym_env.grading.grade import held_out_traffic
    v = TASK.variant(variant)
    fnols = [c for b in held_out_traffic(TASK, v)["batches"] for c in b]
    emailed = v.params["photo_channel"] == "email"
    assert all(("snapclaim" in c) == emailed for c in fnols)
    if emailed:
        assert {k for c in fnols for a in c["snapclaim"] for k in a} == {"file", "sha1", "received"}
    for q in JORGE:
        r = _people(variant).contact("jorge_castellanos", q)
        assert r.tags == ["snapclaim_feed"], (variant, q, r.tags, r.reply)
        if emailed:
            assert "mailbox is wired" in r.reply and "sha1" in r.reply and "photos list is empty" in r.reply, r.reply
        else:
            assert "no snapclaim list" in r.reply and "isn't wired" in r.reply, r.reply
    r = _people(variant).contact("jorge_castellanos", "How does the photo_link route work?")
    assert r.tags == ["photodrop_build"] and "snapclaim" not in r.reply


MARCUS = ["Is the siu_flags table complete, and is there a current SIU shop list (by EIN) I could use in intake?",
          "The SIU bulletin says the March shop list is out of date - is there a newer one?",
          "Do you keep a watch list of body shops by EIN?",
          "Which shops should intake treat as suspect - do you keep a list?"]


@pytest.mark.parametrize("variant", ["base", "siu_handover", "sample:6029", "sample:0"])
def test_marcus_says_there_is_no_shop_list_and_where_the_shops_are_known(variant):
    handed_over = TASK.variant(variant).params["siu_holder"] == "marcus_lindqvist"
    for q in MARCUS:
        r = _people(variant).contact("marcus_lindqvist", q)
        assert "shop_list" in r.tags, (variant, q, r.tags, r.reply)
        text = r.reply
        assert "The shop list that went round in March last year is dead" in text, text
        assert "never complete" in text and "siu_flags" in text, text
        assert ("mine since January" in text) == handed_over and ("that's Renata's" in text) == (not handed_over), text
    # no shop list in the workspace either
    ws = world_snapshot(TASK, TASK.variant(variant))
    assert not [p for p in ws.rglob("*") if re.search(r"shop.?list|watch.?list", p.name, re.I)]


MONDAY_ASKS = [
    "Two compliance questions for the fast-track work: what's the statutory deadline to acknowledge a claim, and "
    "does setting photo-less claims up at once with the PhotoDrop link meet it?",
    "What's the delegated authority for paying a claim straight through without an adjuster review?",
]


@pytest.mark.parametrize("variant", ["base", "sample:0", "sample:1"])
@pytest.mark.parametrize("message", MONDAY_ASKS)
def test_aileens_out_of_office_says_to_send_it_again_and_tuesday_gets_her_answer(variant, message):
    spec = TASK.people_spec(TASK.variant(variant))
    eng = People(spec, make_router(TASK.router, spec["people"]))
    r = eng.contact("aileen_park", message)                      # Monday morning: at the hearing
    assert "auto_reply" in r.tags and not r.facts, r.tags
    assert "send it again" in r.reply and "Tuesday 3 March" in r.reply, r.reply
    r = eng.contact("aileen_park", message)                      # asked again the same day
    assert "send this again" in r.reply and "Tuesday 3 March" in r.reply, r.reply
    eng.wait(26)                                                 # Tuesday 10:30: nothing came from her meanwhile
    assert not [m for m in eng.read_inbox() if m.get("from") == "aileen_park"]
    assert eng.stamp().startswith("Tue 03 Mar"), eng.stamp()
    r = eng.contact("aileen_park", message)                      # sent again once she is back
    assert "auto_reply" not in r.tags and r.facts and "(auto-reply)" not in r.reply, (r.tags, r.reply)


# Round 11 (sample:4443, ring_vin): the trial said "2 on the desk's list look like ours ... Worth asking Renata what
# she'd send us" to a player already applying Renata's rule; both were the ring's first claims on a fresh car, which
# nothing can match. Marcus then had no claim numbers to give, and Renata recapped the rule.
def test_marcus_names_the_desk_claims_and_says_a_fresh_car_cannot_be_caught(monkeypatch):
    trial = TASK.module("trial")
    params = dict(TASK.variant("sample:4443").params)
    assert params["ring_key"] == "vin"
    out = {"_lost": 0, "incidents": [], "details": {"by_queue": {"desk": 3}},
           "_per": [{"claim_id": "SVM-26-010001", "queue": "desk", "kind": "ring", "leak": 1800.0, "tags": ["fresh_vin"]},
                    {"claim_id": "SVM-26-010002", "queue": "desk", "kind": "ring", "leak": 1740.0, "tags": ["alias"]},
                    {"claim_id": "SVM-26-010003", "queue": "desk", "kind": "legit", "leak": 0.0, "tags": []}]}
    monkeypatch.setattr(trial.evaluation, "evaluate_on", lambda *a, **k: out)
    lines = [s for s in trial.run(None, params, 1, {})["feedback"].split("\n") if s.startswith("Marcus:")]
    copy = next(s for s in lines if "look" in s and "like ours" in s)
    assert "SVM-26-010002" in copy and "SVM-26-010001" not in copy and "asking Renata" in copy, copy
    fresh = next(s for s in lines if "first claim" in s)
    assert "SVM-26-010001" in fresh and "asking Renata" not in fresh, fresh
    # and Renata, asked what else gives such a file away, says the same in her recap
    eng = _people("sample:4443")
    eng.contact("renata_okafor", "Which FNOLs should SIU get? I'm looking at siu_referrals_2026.csv and the Delta shops.")
    again = eng.contact("renata_okafor", "Intake now sends you VIN-tail matches at Delta shops. In a shadow day 2 "
                        "Delta-looking files still went to the desk. What else marks a Delta file as yours that this misses?")
    assert "can't be caught at intake" in again.reply, again.reply
