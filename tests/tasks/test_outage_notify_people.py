"""outage_notify people: what the workspace says someone owns, they answer (semantic router, as agents meet it).

- `ons/config.json` says `abnormal_state` is not hand-edited "without GIS sign-off": Priya (GIS lead) owns that
  sign-off and names her condition (the devices and since when, off the control room's switching log);
- Tom (OMS) answers what OMS can tell about devices out of normal (telemetered SWITCH events only) and who keeps
  the manual switching (Ray; where Ray is on leave, the redline he left with Priya);
- Priya says whether a transfer is permanent (an as-built on its way) or temporary switching;
- Tom (oms-bridge, ons-dispatch, Twilio) answers on first ask, however it is put, what each plan_batch call
  carries (every event type, oldest first, each event once) and which channels the dispatcher takes (sms, ivr,
  agent, and overflow only where that line is contracted), and what he says is what the traffic and the
  grader do.
"""
from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.task import render
from fdegym_env.people import People, make_router
from fdegym_env.tasklib.replay import Reply

TASK = load_task("outage_notify")
VARIANTS = sorted(TASK.variants)


def _people(variant):
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router("semantic", spec["people"]))


@pytest.mark.parametrize("variant", VARIANTS + ["sample:9113"])
def test_gis_sign_off_for_abnormal_state_has_an_owner_with_a_condition(variant):
    p = _people(variant)
    r = p.contact("priya_ramaswamy", "config.json says abnormal_state can't be hand-edited without GIS sign-off. "
                  "Can I have yours to fill it in for the planner?")
    assert r.tags == ["abnormal_state_signoff:gated"], r.reply
    assert "since when" in r.reply.lower()
    r = p.contact("priya_ramaswamy", "The devices out of normal are R-2101B open and T-101 closed, from the "
                  "switching log. OK to put them into abnormal_state?")
    assert r.tags == ["abnormal_state_signoff"], r.reply
    assert "sign" in r.reply.lower() and "switching" in r.reply.lower()


def test_the_redline_holder_signs_off_against_the_redline():
    r = _people("gis_redline")
    r.contact("priya_ramaswamy", "Need GIS sign-off to put devices into abnormal_state in the ONS config")
    out = r.contact("priya_ramaswamy", "Sign-off for abnormal_state: R-2102B open and T-102 closed?")
    assert out.tags == ["abnormal_state_signoff"] and "R-2102B" in out.reply and "F_transfers" in out.facts


@pytest.mark.parametrize("variant", ["base", "two_transfers", "gis_redline", "sample:9113"])
def test_tom_says_what_oms_knows_about_devices_out_of_normal(variant):
    r = _people(variant).contact(
        "tom_bergeron", "Can OMS tell me which switches and ties are out of their normal position right now, "
        "e.g. whether T-102 is closed, and since when?")
    assert r.tags == ["switch_feed"], r.reply
    assert "telemetered" in r.reply or "SCADA" in r.reply
    assert "switching log" in r.reply
    assert ("Priya" in r.reply) == (variant in ("gis_redline", "sample:9113"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_priya_says_a_transfer_is_temporary_not_an_asbuilt_on_its_way(variant):
    r = _people(variant).contact(
        "priya_ramaswamy", "Part of one feeder seems to be fed from another one. Is that a permanent "
        "reconfiguration whose as-built hasn't reached you yet, or temporary switching?")
    assert r.tags and r.tags[0] in ("asbuilt_backlog", "redlines"), r.reply
    assert "temporary" in r.reply
    assert "nothing in my queue" in r.reply or "It's temporary" in r.reply


TOM_VARIANTS = ["base", "sample:2740", "overnight_overflow", "gis_redline", "sample:9113"]
BATCH_QUESTIONS = [
    "Does oms-bridge pass SWITCH and RESTORE events into plan_batch in time order?",
    "Which event types does the bridge hand to the planner, and are they sorted by timestamp?",
    "Quick question about the feed: within one poll, are events ordered by time? Can the same event come twice?",
    "What does a batch passed to plan_batch contain - LOCKOUT, RESTORE, SWITCH, MOMENTARY?",
    "Tom - I'm changing the planner to apply SCADA SWITCH events. Does the bridge give plan_batch every event "
    "type, and are they in timestamp order across polls?",
    "Does the planner see RESTORE events at all?",
]
CHANNEL_QUESTIONS = [
    "Can ons-dispatch send ivr (automated voice call) today?",
    "What channels does the dispatcher support?",
    "Which channels can the planner put on a row, and what happens to a row with a channel the dispatcher "
    "doesn't know?",
    "What happens when Twilio returns 30006 - does anything retry it?",
    "Can the dispatcher place a robocall rather than a text for landline customers?",
]


@pytest.mark.parametrize("variant", TOM_VARIANTS)
@pytest.mark.parametrize("question", BATCH_QUESTIONS)
def test_tom_says_what_each_plan_batch_call_carries(variant, question):
    r = _people(variant).contact("tom_bergeron", question)
    assert "planner_runtime" in r.tags and "dont_know" not in r.tags, r.reply
    for said in ("LOCKOUT, MOMENTARY, RESTORE and SWITCH", "the bridge filters nothing", "oldest first by ts",
                 "Each event comes exactly once", "MOMENTARY and SWITCH carry a blank incident"):
        assert said in r.reply, (said, r.reply)


@pytest.mark.parametrize("variant", TOM_VARIANTS)
def test_what_tom_says_of_the_batches_is_what_the_grader_passes(variant):
    """Every event type, unfiltered, oldest first, each event in one call only; a blank incident on MOMENTARY
    and SWITCH alone - in the held-out traffic as the grader hands it over, and in November's history."""
    params = dict(TASK.variant(variant).params)
    traffic = TASK.module("traffic").held_out(params, TASK.held_out_seed)
    seen: list[list[dict]] = []
    TASK.module("grader").evaluate(lambda batch: seen.append(list(batch)) or Reply(ok=True, value=[]), params, traffic)
    assert seen == traffic["weeks"] and len(seen) == 2
    evs = [e for batch in seen for e in batch]
    assert {e["type"] for e in evs} == {"LOCKOUT", "MOMENTARY", "RESTORE", "SWITCH"}
    for batch in seen:
        assert [e["ts"] for e in batch] == sorted(e["ts"] for e in batch)
    assert seen[0][-1]["ts"] <= seen[1][0]["ts"]
    assert len({e["event_id"] for e in evs}) == len(evs)
    assert all((e["incident"] == "") == (e["type"] in ("MOMENTARY", "SWITCH")) for e in evs)


@pytest.mark.parametrize("variant", TOM_VARIANTS)
@pytest.mark.parametrize("question", CHANNEL_QUESTIONS)
def test_tom_says_which_channels_the_dispatcher_takes(variant, question):
    params = dict(TASK.variant(variant).params)
    r = _people(variant).contact("tom_bergeron", question)
    assert "twilio_delivery" in r.tags and "dont_know" not in r.tags, r.reply
    assert "sms" in r.reply and "ivr" in r.reply and "agent" in r.reply and "landline" in r.reply
    assert ("overflow" in r.reply) == bool(params.get("overflow_line")), r.reply
    assert "30006" in r.reply and "dropped" in r.reply


@pytest.mark.parametrize("variant", TOM_VARIANTS)
def test_the_channels_tom_names_are_the_ones_the_grader_takes(variant):
    """A row on a channel Tom names reaches the customer (ivr a landline too); any other is dropped."""
    params = dict(TASK.variant(variant).params)
    custs = {c["account"]: c for c in TASK.module("on_net").customers(int(params.get("world_seed", 0)), params)}
    landline = next(a for a, c in custs.items() if c["phone_type"] == "landline")
    traffic = TASK.module("traffic").held_out(params, TASK.held_out_seed)
    ev = next(e for e in traffic["weeks"][0] if e["type"] == "LOCKOUT")
    named = ["sms", "ivr", "agent"] + (["overflow"] if params.get("overflow_line") else [])
    for ch in named + ["voice", "email", "overflow"]:
        def plan(batch, ch=ch):
            return Reply(ok=True, value=[{"event_id": ev["event_id"], "account": landline, "channel": ch}]
                         if batch is traffic["weeks"][0] else [])
        out = TASK.module("grader").evaluate(plan, params, traffic)
        assert out["details"]["malformed_rows"] == (ch not in named), ch
        if ch in named:
            assert ((ev["incident"], landline) in out["_reached"]) == (ch != "sms"), ch


@pytest.mark.parametrize("variant", ["base", "sample:2740"])
def test_tom_answers_both_halves_of_the_playtest_question(variant):
    r = _people(variant).contact(
        "tom_bergeron", "Hi Tom, two quick ones before you go on Saturday: (1) does oms-bridge pass SWITCH and "
        "RESTORE events into plan_batch, and in time order (oldest first)? (2) can ons-dispatch send channel 'ivr' "
        "(automated voice call) today, e.g. for landline customers?")
    assert {"planner_runtime", "twilio_delivery"} <= set(r.tags) and "dont_know" not in r.tags, r.reply
    assert "oldest first" in r.reply and "live today" in r.reply


ORDER = re.compile(r"\bSO-\d{2}-\d{4}-\d{2}\b")
ORDER_VARIANTS = VARIANTS + ["sample:6317", "sample:0", "sample:1", "sample:2", "sample:3", "sample:9113"]


def _order_of_each_pair(reply: str, transfers: list[str]) -> dict[str, str]:
    """Transfer -> the order number quoted with its devices in ``reply`` (with several transfers, in
    the same sentence or clause as its open device and no other)."""
    for tr in transfers:
        assert all(d in reply for d in tr.split(":")), (tr, reply)
    if len(transfers) == 1:
        found = set(ORDER.findall(reply))
        assert len(found) == 1, reply
        return {transfers[0]: found.pop()}
    out = {}
    for clause in re.split(r"(?<=\.)\s|, and |\) and |; ", reply):
        mine = [tr for tr in transfers if tr.split(":")[1] in clause]
        found = set(ORDER.findall(clause))
        if len(mine) == 1 and found:
            assert len(found) == 1 and out.get(mine[0], next(iter(found))) in found, (mine, clause)
            out[mine[0]] = found.pop()
    return out


@pytest.mark.parametrize("variant", ORDER_VARIANTS)
def test_the_switching_order_priya_asks_for_is_given_for_each_transfer(variant):
    v = TASK.variant(variant)
    orders, transfers = v.params["switching_orders"], v.params["transfers"]
    assert sorted(orders) == sorted(transfers)
    for tr, so in orders.items():        # SO-YY-MMDD-NN, dated the day the transfer went in
        since = v.params["transfer_since"][tr]
        assert ORDER.fullmatch(so) and so[3:10] == f"{since[2:4]}-{since[5:7]}{since[8:10]}", (tr, so)
    pairs = " and ".join(f"the {tr.split(':')[1]}/{tr.split(':')[0]} transfer" for tr in transfers)
    question = f"What are the switching order numbers for {pairs}?"
    if v.params["ray_gone_after_hours"] == 0:
        # Ray is on leave: the redline he left with Priya carries the order, and her sign-off quotes it
        p = _people(variant)
        said = [p.contact("priya_ramaswamy", "Has the control room sent you redlines for the Silverton bank job?"),
                p.contact("priya_ramaswamy", f"Sign-off for abnormal_state: {pairs}, off Ray's redline?")]
    else:
        p = _people(variant)
        gate = p.contact("priya_ramaswamy", "Can I have GIS sign-off to fill in abnormal_state?")
        assert "switching order" in gate.reply, gate.reply
        asked = _people(variant).contact("ray_tolliver", question)      # asked straight out
        assert asked.tags == ["switching_orders"], asked.reply
        said = [asked, p.contact("ray_tolliver", f"Which ties are closed right now? I see {pairs} in the complaints."),
                p.contact("ray_tolliver", question)]
        assert said[2].tags[0].startswith("switching_orders"), said[2].reply
    for r in said:
        assert set(ORDER.findall(r.reply)) == set(orders.values()), r.reply
        assert _order_of_each_pair(r.reply, transfers) == orders, r.reply


@pytest.mark.parametrize("variant", ORDER_VARIANTS)
def test_every_order_number_people_and_brief_quote_is_the_variants(variant):
    v = TASK.variant(variant)
    texts = [TASK.brief(level, v) for level in ("L0", "L1", "L2", "L3")]
    texts += [str(TASK.people_spec(v)), render(str(TASK.truth), v.params, "truth.yaml")]
    quoted = set().union(*(ORDER.findall(t) for t in texts))
    assert quoted == set(v.params["switching_orders"].values()), quoted
    assert set(v.params["switching_orders"].values()) <= set(ORDER.findall(TASK.brief("L0", v)))


def test_samples_draw_their_own_order_numbers():
    drawn = {TASK.variant(f"sample:{n}").params["switching_orders"].get("T-101:R-2101B") for n in range(40)}
    assert len(drawn - {None}) > 3, drawn


def test_ray_gives_the_order_numbers_when_asked_after_the_transfers():
    v = TASK.variant("sample:6317")
    p = _people("sample:6317")
    p.contact("ray_tolliver", "Is part of SLV-2101 or MBK-3101 being carried on another feeder through a tie right now?")
    r = p.contact("ray_tolliver", "What are the switching order numbers for the Silverton bank 2 transfer (R-2101B/T-101) "
                  "and the Millbrook bank 1 transfer (SW-3101-06/T-102)?")
    assert r.tags == ["switching_orders"], r.reply
    assert _order_of_each_pair(r.reply, v.params["transfers"]) == v.params["switching_orders"], r.reply
