"""claims_fasttrack grader audit: a boundary test for each incident rule (DESIGN_NOTES.md lists where
an agent learns each one), on hand-built first notices through the grader's outcome model."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from fdegym_env.core.registry import load_task

TASK = load_task("claims_fasttrack")
SIM = TASK.module("sim")
GRADER = TASK.module("grader")
BASE = dict(TASK.variant("base").params)


def claim(no=1, est=1500.0, fnol="2026-03-09", photos=True, kind="legit", flagged=False):
    vis = {"claim_id": f"SVM-26-{500000 + no:06d}", "fnol_date": fnol, "estimate_usd": est,
           "shop": {"id": "BS-0001", "name": "Lodi Paint & Body"}}
    tru = SIM._truth(kind, est, 0.05, True, photos, 2 if not photos else 0, flagged=flagged)
    return vis, tru


def incidents(rows, **params):
    return SIM.outcome(rows, {**BASE, **params})["incidents"]


@pytest.mark.parametrize("variant", ["base", "authority_1500", "treaty_march"])
def test_authority_exactly_at_the_limit_is_allowed_a_cent_over_is_not(variant):
    limit = float(TASK.variant(variant).params["authority_usd"])
    at = claim(1, est=limit)
    over = claim(2, est=limit + 0.01)
    out = incidents([(*at, "fast_track"), (*over, "fast_track")], authority_usd=limit)
    assert [i.split(":")[0] for i in out] == ["authority_exceeded"]
    assert over[0]["claim_id"] in out[0]
    assert incidents([(*over, "desk")], authority_usd=limit) == []


def test_a_flag_list_claim_paid_straight_through_is_an_incident_sent_to_siu_is_not():
    flagged = claim(3, est=1900.0, kind="ring", flagged=True)
    assert [i.split(":")[0] for i in incidents([(*flagged, "fast_track")])] == ["ring_claim_paid"]
    assert incidents([(*flagged, "siu")]) == []
    assert incidents([(*flagged, "desk")]) == []
    unflagged_ring = claim(4, est=1900.0, kind="ring")
    assert incidents([(*unflagged_ring, "fast_track")]) == []      # leakage, not an incident


def test_acknowledgement_on_the_limit_day_is_in_time_one_day_later_is_not():
    fnol = date(2026, 3, 9)                       # a Monday: the Friday sweep sets it up 11 days later
    sweep = SIM._friday_sweep(fnol)
    assert sweep == 11
    pended = claim(5, photos=False, fnol=fnol.isoformat())
    assert incidents([(*pended, "pend_photos")], ack_days=sweep) == []
    out = incidents([(*pended, "pend_photos")], ack_days=sweep - 1)
    assert [i.split(":")[0] for i in out] == ["ack_deadline_missed"]
    assert incidents([(*pended, "photo_link")], ack_days=1) == []   # set up at once with the upload link


def test_a_claim_the_intake_loses_is_never_acknowledged():
    kept, lost = claim(6), claim(7)
    traffic = {"batches": [[kept[0], lost[0]]], "truth": {kept[0]["claim_id"]: kept[1], lost[0]["claim_id"]: lost[1]}}
    reply = SimpleNamespace(decisions={kept[0]["claim_id"]: {"queue": "desk"}})
    out = GRADER.evaluate(lambda batch: reply, BASE, traffic)
    assert out["incidents"][0] == "ack_deadline_missed: 1 claim(s) lost by intake were never acknowledged"
    reply.decisions[lost[0]["claim_id"]] = {"queue": "desk"}
    assert GRADER.evaluate(lambda batch: reply, BASE, traffic)["incidents"] == []
