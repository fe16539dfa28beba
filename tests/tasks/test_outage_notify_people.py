"""outage_notify people: what the workspace says someone owns, they answer (semantic router, as agents meet it).

- `ons/config.json` says `abnormal_state` is not hand-edited "without GIS sign-off": Priya (GIS lead) owns that
  sign-off and names her condition (the devices and since when, off the control room's switching log);
- Tom (OMS) answers what OMS can tell about devices out of normal (telemetered SWITCH events only) and who keeps
  the manual switching (Ray; where Ray is on leave, the redline he left with Priya);
- Priya says whether a transfer is permanent (an as-built on its way) or temporary switching.
"""
from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people import People, make_router

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
