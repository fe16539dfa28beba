"""irrops_rebook, from the playtests: what people own and were asked about, answered in their own
words and consistent with the grader; trial reports that agree with the customer's clock.

- Conor's CHANGELOG cites "the WCHR incident at CDG" as the reason every SSR goes to the desk, and
  nobody's script said what happened or what the rule still protects.
- Marek, asked which passengers the desk still wants once the tool rebooks more, had nothing: he
  had topics for minors and co-terminals only.
- Aoife's Art 8(3) answer said a same-city airport is allowed but not whether the tool may do it
  without an agent.
- Asked whether any other kind of passenger should still come to the desk (after a list of the ones
  the tool refers), Marek said he did not have that to hand.
- The desk log booked Dublin airport hotels for passengers stranded in Boston; and the plans, said to be
  "exactly as sent", held cancellations notified hours after their issued_at.
- The shadow run named its disruption day (2026-03-04) while the clock was still on 2 March, and a
  trial day took no customer time."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import yaml

from fdegym_env import FDEGymEnv
from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router
from tests.tasks.trial_clock import trial_on_the_clock

TASK = load_task("irrops_rebook")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:1242", "sample:0", "sample:1", "sample:2"]


def ask(variant: str, to: str, message: str):
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router(TASK.router, spec["people"])).contact(to, message)


@pytest.mark.parametrize("variant", VARIANTS)
def test_conor_says_why_every_ssr_goes_to_the_desk_and_what_the_rule_still_protects(variant):
    r = ask(variant, "conor_hegarty",
            "The changelog puts desk_if_any_ssr down to a wheelchair passenger at CDG back in 2023. What went wrong "
            "that time, and is there still a reason for every SSR to go to the desk?")
    assert r.tags == ["ssr_desk_rule"], (r.tags, r.reply)
    # consistent with the grader: an assisted passenger may be rebooked (the SSR follows the booking),
    # UMNRs must not be (the flag is what keeps them off today), connections need the OCS time (Niamh)
    for said in ("carries the SSRs", "UMNR", "Niamh"):
        assert said in r.reply


@pytest.mark.parametrize("variant", VARIANTS)
def test_marek_says_which_passengers_the_desk_wants_to_keep(variant):
    params = TASK.variant(variant).params
    r = ask(variant, "marek_zielinski",
            "Once the tool rebooks connecting passengers too, which passengers would you still want your agents "
            "to handle rather than getting an SMS?")
    assert r.tags == ["desk_keeps"], (r.tags, r.reply)
    assert params["recap_ypta"] in r.reply             # YPTA as the variant's UM procedure has it
    for said in ("UMNR", "accommodation", "together", "meal code", "OCS", "Gold and Silver", "LGW or ORY"):
        assert said in r.reply


@pytest.mark.parametrize("variant", ["base", "sample:1242"])
def test_aoife_says_whether_the_tool_may_use_the_other_airport_without_an_agent(variant):
    r = ask(variant, "aoife_brennan",
            "Can reaccom move a Heathrow passenger onto the Gatwick flight by itself and just text them, or does "
            "Article 8(3) need an agent to agree the change with the passenger?")
    assert r.tags == ["coterminal_policy"], (r.tags, r.reply)
    assert "Nothing in it needs an agent" in r.reply and "transfer" in r.reply





def test_a_trial_day_takes_a_customer_day_and_names_no_day_the_clock_has_not_reached():
    env = FDEGymEnv(task="irrops_rebook", sandbox="none", variant="sample:1242")
    try:
        env.reset(seed=1)
        for _ in range(3):
            text, after = trial_on_the_clock(env, "Shadow run")
    finally:
        env.close()


# --- second playtest round: the YPTA rule had no findable source, Conor had nothing on re-sent plans,
# Niamh never said T2 to T1, Conor's note pointed only at OCC's chart, the historical plans had no UMNR
# and YPTA passengers carried adult titles.

SIM = TASK.module("sim")
HISTORY_VARIANTS = ["base", "ypta_as_umnr", "t1_regional"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_aoife_says_which_um_procedure_is_current_and_what_it_says_about_ypta(variant):
    params = TASK.variant(variant).params
    r = ask(variant, "aoife_brennan",
            "The UM procedure in docs is Rev 2 from 2024. Is that still the one in force, and can the tool "
            "rebook a YPTA passenger travelling on their own?")
    assert r.tags == ["um_procedure"], (r.tags, r.reply)
    assert params["say_um_rev"] in r.reply
    assert ("Rev 3" in r.reply) == bool(params["ypta_as_umnr"])
    assert ("exactly as an UMNR" in r.reply) == bool(params["ypta_as_umnr"])


@pytest.mark.parametrize("variant", ["base", "ypta_as_umnr", "sample:2"])
def test_marek_answers_a_plain_question_about_ypta(variant):
    params = TASK.variant(variant).params
    r = ask(variant, "marek_zielinski", "Should the tool treat a 13-year-old flying alone on a YPTA like any "
                                        "other passenger when their flight is cancelled?")
    assert r.tags == ["minors"], (r.tags, r.reply)
    assert params["say_ypta"] in r.reply


@pytest.mark.parametrize("variant", NAMED + ["sample:2719"])
def test_the_um_procedure_in_the_workspace_says_when_it_is_superseded(variant):
    from fdegym_env.core.workspace import world_snapshot
    params = TASK.variant(variant).params
    doc = (world_snapshot(TASK, TASK.variant(variant)) / "docs" / "um_procedure.md").read_text(encoding="utf-8")
    assert "{{" not in doc and "Rev 2" in doc
    assert ("SUPERSEDED" in doc and "Rev 3" in doc and "A. Brennan" in doc) == bool(params["ypta_as_umnr"])


@pytest.mark.parametrize("variant", ["base", "sample:2719"])
def test_conor_says_what_a_revised_plan_carries(variant):
    r = ask(variant, "conor_hegarty",
            "If OCC cancels a second flight later in the day and the console calls reaccommodate again with the "
            "revised plan, are the passengers of the first cancelled flight listed again, and does booked in the "
            "schedule already include the seats our earlier rebookings took?")
    assert r.tags == ["revised_plans"], (r.tags, r.reply)
    assert "not listed again" in r.reply and "booked" in r.reply and "no state" in r.reply


def test_a_day_is_one_call_with_a_self_contained_plan():
    """What Conor says matches the grader: one entry-point call per disruption day, every passenger of
    the day's cancelled flights in it, and seats counted from cap - booked of that plan's snapshot."""
    from fdegym_env.grading.grade import held_out_traffic
    tr = held_out_traffic(TASK, TASK.variant("base"))
    days = [p["cancelled"][0]["std"][:10] for p in tr["plans"]]
    assert len(days) == len(set(days))
    for plan in tr["plans"]:
        keys = {c["key"] for c in plan["cancelled"]}
        assert {p["disrupted"] for p in plan["passengers"]} == keys


@pytest.mark.parametrize("variant", ["base", "t1_regional", "preclear_cut", "t2_stand_works", "sample:2719",
                                     "sample:0", "sample:1"])
def test_niamh_gives_the_t2_to_t1_connection_time(variant):
    params = TASK.variant(variant).params
    r = ask(variant, "niamh_costigan",
            "SK 511 from LHR arrives in T2 and the passenger connects onto SK 3232 to Manchester out of T1. "
            "What MCT does the station file for T2 to T1?")
    assert r.tags == ["mct_station"], (r.tags, r.reply)
    # the grader uses mct_cross for both directions between the terminals: she must say so
    assert SIM.mct(params, "T2", "T1", "UK") == SIM.mct(params, "T1", "T2", "UK") == params["mct_cross"]
    x = params["mct_cross"]
    assert re.search(rf"(T2 to T1|or back)( is)? {x}\b", r.reply), r.reply


@pytest.mark.parametrize("variant", ["base", "preclear_cut", "sample:2719"])
def test_tadhg_says_the_cross_terminal_time_holds_both_ways(variant):
    r = ask(variant, "tadhg_obriain", "What are the minimum connection times at Dublin by terminal pair, "
                                      "including T2 arrivals connecting onto the ATRs in T1?")
    assert r.tags == ["mct_occ"], (r.tags, r.reply)
    assert "either" in r.reply or "T2 to T1" in r.reply, r.reply


@pytest.mark.parametrize("variant", ["base", "preclear_cut", "sample:2719"])
def test_conors_note_points_at_whoever_holds_the_filed_times(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    note = next(m for m in spec["inbox"] if m["id"] == "m3_conor")["text"]
    ids = {p["id"] for p in spec["people"]}
    assert {"tadhg_obriain", "niamh_costigan"} <= ids
    assert "Tadhg" in note and "Niamh" in note and "station" in note


def test_titles_agree_with_the_passenger():
    import random
    rng = random.Random(3)
    for _ in range(400):
        given = rng.choice(SIM.GIVEN)
        male = given in SIM.MALE
        assert SIM.title_for(rng, given, "ADT", True) == ("MSTR" if male else "MISS")
        assert SIM.title_for(rng, given, "CHD", False) == ("MSTR" if male else "MISS")
        t = SIM.title_for(rng, given, "ADT", False)
        assert t in (("MR", "DR") if male else ("MS", "MRS", "DR"))


@pytest.mark.parametrize("variant", HISTORY_VARIANTS)
def test_historical_plans_carry_minors_with_child_titles(variant):
    import json

    from fdegym_env.core.workspace import world_snapshot
    w = world_snapshot(TASK, TASK.variant(variant))
    for f in sorted((w / "data" / "plans").glob("*.json")):
        pax = json.loads(f.read_text(encoding="utf-8"))["passengers"]
        umnr = [p for p in pax if any(s.startswith("UMNR") for s in p["ssr"])]
        ypta = [p for p in pax if any(s.startswith("YPTA") for s in p["ssr"])]
        assert umnr and ypta, f.name
        for p in umnr + ypta:
            given, title = p["name"].split("/", 1)[1].rsplit(" ", 1)
            assert title == ("MSTR" if given in SIM.MALE else "MISS"), p["name"]
    import csv
    notes = " ".join(r["notes"].lower() for r in csv.DictReader((w / "data" / "desk_log.csv").open(encoding="utf-8")))
    assert "escort" in notes


def test_trial_names_the_minor_the_tool_moved():
    """Marek's shadow-day report names the booking and the SSR of the child the tool moved itself (the
    parked 'all' scope with the SSR rule off, the YPTA-as-UMNR procedure in force)."""
    import json
    import re
    env = FDEGymEnv(task="irrops_rebook", sandbox="none", variant="ypta_as_umnr")
    try:
        env.reset(seed=1)
        rules = env.workspace / "system" / "reaccom" / "rules.json"
        r = json.loads(rules.read_text(encoding="utf-8"))
        rules.write_text(json.dumps(dict(r, auto_scope="all", desk_if_any_ssr=False)), encoding="utf-8")
        lines = []
        for _ in range(3):
            obs = env.step({"tool": "trial"})[0]
            lines += [x for x in obs["text"].splitlines() if x.startswith("Marek (recovery desk): the tool moved")]
    finally:
        env.close()
    assert lines, "no minor moved on any shadow day"
    for line in lines:
        # a count (or "a minor"), a PNR, the name with a child's title and the SSR
        assert re.search(r"moved (a minor|\d+ minors) travelling alone", line), line
        assert re.search(r"[A-Z2-9]{6} [A-Z]+/[A-Z]+ (MSTR|MISS) \((UMNR \d\d|YPTA 1[2-5]), off SK \d+", line), line


# --- third playtest round: Niamh, asked for the MCT table, answered only the PRM part and then held
# with "Which connection?", so a third (double-price) message was needed; her reply was stamped an
# hour before the turn it came back on.

TABLE_ASKS = [
    "Could you send me the full MCT table, all terminal pairs, and any PRM additions?",
    "What are the minimum connection times between terminals?",
    "send me the MCT table",
    "what MCT do I need for T1 to T2 and for PRM passengers?",
    "What MCTs does the station file for Dublin?",
    "What's the minimum connection time from T2 to T1?",
    "What minimum connection times should the tool use at Dublin, including US preclearance?",
]


@pytest.mark.parametrize("variant", ["base", "t1_regional", "preclear_cut", "t2_stand_works", "sample:4117",
                                     "sample:2719", "sample:0"])
@pytest.mark.parametrize("message", TABLE_ASKS)
def test_niamh_asked_for_the_mct_table_gives_all_of_it_in_one_answer(variant, message):
    p = TASK.variant(variant).params
    r = ask(variant, "niamh_costigan", message)
    assert r.tags == ["mct_station"], (r.tags, r.reply)
    us = int(p["mct_us_t2"])
    for said in (rf"T2 to T2( is)? {p['mct_t2']}\b", rf"T1 to T1 {p['mct_t1']}\b",
                 rf"(T2 to T1|or back)( is)? {p['mct_cross']}\b",                 # both directions
                 rf"\b{us} off (a )?T2", rf"\b{us + int(p['mct_us_t1_extra'])} off T1", "15 on top"):
        assert re.search(said, r.reply), (said, r.reply)


@pytest.mark.parametrize("variant", ["base", "sample:4117"])
def test_niamh_asks_which_connection_only_for_one_she_is_not_told(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    p = People(spec, make_router(TASK.router, spec["people"]))
    r = p.contact("niamh_costigan", "What MCT applies to this connection?")
    assert r.tags == ["mct_station:gated"] and "table" in r.reply, (r.tags, r.reply)
    r = p.contact("niamh_costigan", "It's SK 511 from LHR in T2 onto SK 3232 to Manchester out of T1.")
    assert r.tags == ["mct_station"], (r.tags, r.reply)
    r = ask(variant, "niamh_costigan", "What MCT does this passenger need? Or just send me the whole MCT table.")
    assert r.tags == ["mct_station"], (r.tags, r.reply)


def test_replies_are_stamped_on_the_turn_they_come_back():
    """A reply is stamped when it arrives: the customer time of its step, after the message was sent,
    also after a wait and a trial day."""
    env = FDEGymEnv(task="irrops_rebook", sandbox="none", variant="sample:4117")
    try:
        env.reset(seed=53)
        steps = [{"tool": "contact", "to": "niamh_costigan", "message": TABLE_ASKS[0]}, {"tool": "wait", "hours": 2.5},
                 {"tool": "contact", "to": "tadhg_obriain", "message": "How long does a T1 to T2 connection need?"},
                 {"tool": "trial"}, {"tool": "contact", "to": "marek_zielinski", "message": "How long was the queue?"}]
        for action in steps:
            sent = env.people.clock.now()
            obs, _, _, _, info = env.step(action)
            if action["tool"] == "contact":
                stamp = re.match(r"[^(\n]+\((\w{3} \d\d \w{3} \d\d:\d\d)\):", obs["text"]).group(1)
                assert stamp == info["customer_time"], (stamp, info["customer_time"])
                assert dt.datetime.strptime(f"{sent.year} {stamp}", "%Y %a %d %b %H:%M") > sent, (stamp, sent)
    finally:
        env.close()


@pytest.mark.parametrize("variant", ["base", "own_metal_us", "sample:1", "sample:2"])
@pytest.mark.parametrize("message", [
    "The new version rebooks most passengers itself. It will still send to your desk: UMNRs, anyone who would "
    "need a hotel, and PNRs that cannot travel together. Is there any other kind of passenger you need to see at "
    "the desk rather than rebooked automatically?",
    "Plan for go-live: reaccom texts a new flight to everyone it can, and refers to your desk only UMNRs, "
    "passengers owed a hotel, and bookings it can't keep together. Are there other passengers you'd want referred "
    "to you instead of an automatic rebooking?",
    "From the desk's point of view, which kinds of passenger must not be rebooked by SMS?",
    "Does anyone apart from minors and overnight cases still need a desk agent?",
])
def test_marek_says_who_else_the_desk_wants_after_a_proposed_list(variant, message):
    r = ask(variant, "marek_zielinski", message)
    assert r.tags == ["desk_keeps"], (r.tags, r.reply)


def _desk_rows_with_plans(variant):
    import csv
    import json

    from fdegym_env.core.workspace import world_snapshot
    w = world_snapshot(TASK, TASK.variant(variant))
    plans = [json.loads(f.read_text(encoding="utf-8")) for f in sorted((w / "data" / "plans").glob("*.json"))]
    rows = list(csv.DictReader((w / "data" / "desk_log.csv").open(encoding="utf-8")))
    return w, plans, rows


@pytest.mark.parametrize("variant", ["base", "own_metal_us", "sample:1", "sample:2"])
def test_the_desk_books_a_hotel_where_the_passenger_spends_the_night(variant):
    """A night away is spent at the cancelled flight's origin when the first new flight leaves on a
    later day (or none was found), else at the hub waiting for a connection: the hotel named in the
    desk's note is one at that airport."""
    HOTELS = TASK.module("traffic").HOTELS
    _, plans, rows = _desk_rows_with_plans(variant)
    named, away = 0, 0
    for r in rows:
        where = {st for st, names in HOTELS.items() for h in names if h.lower() in r["notes"].lower()}
        if not where:
            continue
        named += 1
        day = r["handled_at"][:10]
        plan = max((p for p in plans if p["cancelled"][0]["std"][:10] <= day), key=lambda p: p["plan_id"][4:12])
        c = next(c for c in plan["cancelled"] if c["flight"].replace(" ", "") == r["orig_flt"])
        first_day = r["new_itin"].split()[0].split("/")[1] if r["new_itin"] != "-" else None
        stranded = c["from"] if first_day != c["std"][8:10] else "DUB"
        away += stranded != "DUB"
        assert where == {stranded}, (r["orig_flt"], r["new_itin"], r["notes"])
    assert named and away, "the desk log names no hotel away from Dublin"


@pytest.mark.parametrize("variant", ["base", "own_metal_us"])
def test_a_plan_holds_flights_cancelled_after_it_first_went_out_and_says_so(variant):
    """issued_at is when the day's plan first went out; each later cancellation is a revision the console
    re-sent, and the tool's log shows it at that flight's notice. The data README says so (it used to
    say the files were exactly as sent)."""
    w, plans, _ = _desk_rows_with_plans(variant)
    log = (w / "logs" / "reaccom.log").read_text(encoding="utf-8")
    later = 0
    for plan in plans:
        assert plan["issued_at"] == min((c["notice"] for c in plan["cancelled"]), key=SIM.to_min)
        assert f"{plan['issued_at']} INFO  reaccom  plan {plan['plan_id']} received:" in log
        for c in plan["cancelled"]:
            if c["notice"] != plan["issued_at"]:
                later += 1
                assert f"{c['notice']} INFO  reaccom  plan {plan['plan_id']} revised:" in log, c["flight"]
    assert later
    readme = " ".join((w / "data" / "README.md").read_text(encoding="utf-8").split())
    assert "exactly as sent" not in readme
    assert "`issued_at` is when the day's plan first went out" in readme and "revised" in readme


# --- fourth playtest round: Tadhg, asked whether 45 minutes from notice is workable for the transatlantic
# departures and the ATRs, said it was not an OCC thing; and both trial days of a delivery at uplift 0.98
# said only "that's the kind of day I want to see", with nothing of who still went to the desk.

LEAD_ASKS = [
    "Hi Tadhg - on lead time for auto-rebooking. reaccom only puts people on a flight leaving at least 45 min "
    "after the cancellation notice (set after the LGW boarding complaint). On 16 Feb SK115 BOS-DUB was cancelled "
    "at 17:40 Boston time and the tool put 55 people on SK113 leaving BOS at 18:30, 50 min later. Is 45 min from "
    "notice workable for the transatlantic departures (and the ATRs), or what minimum lead should the tool use "
    "per flight type?",
    "How long after the cancellation notice should the first new flight leave - is min_lead_minutes 45 enough "
    "for Boston and New York departures, or do the US flights need more?",
]


@pytest.mark.parametrize("variant", ["base", "preclear_cut", "sample:1407", "sample:0"])
@pytest.mark.parametrize("message", LEAD_ASKS, ids=["playtest", "paraphrase"])
def test_tadhg_says_45_from_notice_holds_for_every_departure(variant, message):
    r = ask(variant, "tadhg_obriain", message)
    assert r.tags == ["lead_time"], (r.tags, r.reply)
    # the grader has one lead-time rule for every departure (the delivered rules keep 45; Amadeus takes 30 and
    # more): no longer lead for the US flights, and preclearance is a connection time at Dublin (Niamh's MCT)
    assert "45 from notice is the rule for every departure" in r.reply
    assert "nothing longer for the transatlantics" in r.reply and "Niamh's MCT" in r.reply
    ref_rules = TASK.path / "solutions" / "menu" / "v2_rules" / "system" / "reaccom" / "rules.json"
    assert yaml.safe_load(ref_rules.read_text(encoding="utf-8"))["min_lead_minutes"] == 45
    assert TASK.module("grader").TOO_SOON.endswith("under 30 min after the notice")


def test_a_good_trial_day_says_who_still_went_to_the_desk_and_why():
    """The reference's shadow days are good days; the report still counts the desk's passengers by what
    they needed (minors, hotels, the rest), with the first IDs, and the counts add up to the desk total."""
    import warnings

    from fdegym_env.grading.grade import apply_solution
    env = FDEGymEnv(task="irrops_rebook", sandbox="none", variant="sample:1407")
    texts = []
    try:
        env.reset(seed=10)
        apply_solution(TASK, "reference", env.workspace, TASK.variant("sample:1407").params)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            texts = [env.step({"tool": "trial"})[0]["text"] for _ in range(2)]
    finally:
        env.close()
    for text in texts:
        assert "Deirdre: that's the kind of day I want to see" in text, text
        desk = int(re.search(r"sent (\d+) to the desk", text).group(1))
        line = next(x for x in text.splitlines() if x.startswith("Marek (recovery desk): the desk got"))
        assert line.startswith(f"Marek (recovery desk): the desk got {desk}: "), line
        counts = re.findall(r"(?:: |; )(\d+) ([a-zA-Z ()-]+?) \(", line)
        assert sum(int(n) for n, _ in counts) == desk, line
        assert re.search(r"\d+ owed a hotel for the night \(P\d{5}, P\d{5}, P\d{5}; 3 of \d+ shown\)", line), line
        # minors as their own class: UMNR always, YPTA only where the UM procedure hands them to the desk
        assert re.search(r"\d+ UMNR", line) or not TASK.variant("sample:1407").params["ypta_as_umnr"], line
        assert "YPTA" not in line or TASK.variant("sample:1407").params["ypta_as_umnr"], line
        assert re.search(r"Arrivals: the tool's \d+ [\d.]+ h late on average", text), text


# --- round 9 (sample:5379): the trial's desk line listed "1 YPTA passenger(s) travelling alone (P41128)"
# as a class the desk sees, in a variant where YPTA is information only (Marek, the UM procedure and the
# grader agree on that); and Marek's 12 January mail said the tool did "~1 in 5 of the CDG pax" where
# the log shows 94 of 214.

def _trial_texts(variant: str, desk_ssr: list[str], days: int = 3) -> list[str]:
    import json
    import warnings

    from fdegym_env.grading.grade import apply_solution
    env = FDEGymEnv(task="irrops_rebook", sandbox="none", variant=variant)
    try:
        env.reset(seed=28)
        apply_solution(TASK, "reference", env.workspace, TASK.variant(variant).params)
        rules = env.workspace / "system" / "reaccom" / "rules.json"
        rules.write_text(json.dumps(dict(json.loads(rules.read_text(encoding="utf-8")), desk_ssr=desk_ssr)),
                         encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [env.step({"tool": "trial"})[0]["text"] for _ in range(days)]
    finally:
        env.close()


def _desk_line_of(text: str) -> str:
    return next(x for x in text.splitlines() if x.startswith("Marek (recovery desk): the desk got"))


def test_a_ypta_passenger_sent_to_the_desk_is_no_desk_class_where_ypta_is_information_only():
    """The playtest's variant, with a tool that sends YPTA passengers to the desk as well: Marek's count
    names no YPTA class (the grader treats them as anyone else) and still adds up to the desk total."""
    assert not TASK.variant("sample:5379").params["ypta_as_umnr"]
    texts = _trial_texts("sample:5379", ["UMNR", "YPTA"])
    for text in texts:
        line = _desk_line_of(text)
        assert "YPTA" not in line, line
        desk = int(re.search(r"sent (\d+) to the desk", text).group(1))
        assert sum(int(n) for n, _ in re.findall(r"(?:: |; )(\d+) ([a-zA-Z ()-]+?) \(", line)) == desk, line


def test_ypta_is_a_desk_class_where_the_um_procedure_hands_them_to_the_desk():
    texts = _trial_texts("ypta_as_umnr", ["UMNR", "YPTA"])
    assert any(re.search(r"\d+ YPTA passenger\(s\) travelling alone \(P\d{5}", _desk_line_of(t)) for t in texts), texts


@pytest.mark.parametrize("variant", NAMED + ["sample:5379", "sample:0"])
def test_mareks_cdg_mail_counts_what_the_log_shows(variant):
    """The 12 January mail's count of the tool's and the desk's CDG passengers is the log's."""
    from fdegym_env.core.workspace import world_snapshot
    ws = world_snapshot(TASK, TASK.variant(variant))
    mail = " ".join((ws / "mail" / "RE_cdg_aog_12jan.txt").read_text(encoding="utf-8").replace("> ", " ").split())
    m = re.search(r"Tool did (\d+) of the (\d+) CDG pax, the other (\d+) came to us", mail)
    assert m, mail
    log = (ws / "logs" / "reaccom.log").read_text(encoding="utf-8").splitlines()
    cdg = [re.search(r"CNL: (\d+)/(\d+) auto-rebooked, (\d+) to desk", x) for x in log
           if re.search(r" CDG-\w+ 2026-01-12 CNL:", x)]
    assert cdg and all(cdg)
    auto, pax, desk = (sum(int(c.group(k)) for c in cdg if c) for k in (1, 2, 3))
    assert (int(m.group(1)), int(m.group(2)), int(m.group(3))) == (auto, pax, desk)


# Round 11 (sample:4017): Marek, asked which SSR passengers need his desk, referred the agent to Niamh and
# answered the same point in full one message later; asked what order he wants desk referrals in (the grader's
# desk re-protects in the order given), he recapped who he wants instead.
SSR_ASK = ("Hi Marek - the tool currently sends anyone with any SSR to your desk. Which SSR passengers genuinely need "
           "an agent (e.g. UMNR), and which could the tool safely rebook itself - meal codes (AVML, KSML...), YPTA, "
           "wheelchair/assisted (WCHR/WCHS/WCHC/BLND/DEAF/DPNA), MOML/CHML?")
ORDER_ASK = ("Marek - the tool's desk referrals land in your queue in the order it gives them. What order do you want "
             "them in? The 2024 playbook says UMs, PRMs, Gold/Silver, then the rest - is that still how you work the "
             "queue, or should e.g. overnight/hotel cases or families come first?")


@pytest.mark.parametrize("variant", ["base", "sample:4017", "ypta_as_umnr"])
def test_marek_answers_which_ssrs_need_him_and_what_order_he_works(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    eng = People(spec, make_router(TASK.router, spec["people"]))
    ssr = eng.contact("marek_zielinski", SSR_ASK)
    assert "desk_keeps" in ssr.tags and "A meal code is nothing" in ssr.reply, ssr.reply
    order = eng.contact("marek_zielinski", ORDER_ASK)
    assert "desk_order" in order.tags and "order you give is the order we re-protect in" in order.reply, order.reply
    grader = (TASK.path / "grader.py").read_text(encoding="utf-8")
    assert "by cancellation, then as given" in grader          # what he says is how the graded desk works


@pytest.mark.parametrize("variant", ["own_metal_us", "sample:5568"])
def test_before_the_wet_lease_ended_its_station_had_the_us_overnights(variant):
    """A playtest (sample:5568) found the desk log booking JFK hotels on 27 January, while the mail says the
    wet-lease station looks after passengers over there "while it runs" and Aoife says it ran to 31 January.
    The log keeps to that: US overnights before 1 February are NorthAtlantic's, after it our desk's."""
    import csv

    from fdegym_env.core.workspace import world_snapshot
    assert not TASK.variant(variant).params["eu261_exempt"], "a variant where BOS/JFK are our own metal"
    w = world_snapshot(TASK, TASK.variant(variant))
    rows = list(csv.DictReader((w / "data" / "desk_log.csv").open(encoding="utf-8")))
    import json
    us_flights = {c["flight"].replace(" ", "") for f in (w / "data" / "plans").glob("*.json")
                  for c in json.loads(f.read_text(encoding="utf-8"))["cancelled"] if c["from"] in ("BOS", "JFK")}
    before = [r for r in rows if r["handled_at"] < "2026-02-01" and r["orig_flt"] in us_flights]
    assert before, "the 27 January day cancels a JFK rotation"
    hotels = ("hotel", "htl", "accom +", "o/n accom booked", "hotelhub")
    for r in before:
        note = r["notes"].lower()
        assert not any(h in note for h in hotels) or "northatlantic" in note or "na " in note, r
    assert any("northatlantic" in r["notes"].lower() or "na care desk" in r["notes"].lower() for r in before)
