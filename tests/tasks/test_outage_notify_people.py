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

import pytest

from fdegym_env.core.registry import load_task
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
