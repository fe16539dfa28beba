"""Messages strong agents sent in the round-11 playtests that fell short in the asked person's own area,
each sent again to a fresh episode of the variant it was played on (and the base variant): the person
now answers with the topic that holds the answer (docs/playtests.md, round 11)."""

from __future__ import annotations

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

CASES = [
    # (task, variant played, person, message as sent, topic that answers it)
    ("outage_notify", "sample:7639", "ray_tolliver",
     "Hi Ray - I am fixing the outage texting service (ONS), which traces customers from the GIS normal state. Data "
     "says SLV-2101 sections behind R-2101B (SLV2101-04/05/06/07) are actually being fed from ORC-1202 via tie T-101, "
     "all of November. Could you tell me which devices are currently NOT in their GIS normal position (your abnormal "
     "board / switching log), including manual ones, and whether any of them are permanent (waiting on GIS as-builts) "
     "vs temporary?", "standing_transfers"),
    ("helpdesk_tutorial", "sample:5705", "priya_nair",
     "Hi Priya - per Tomasz, since 1 March RT7 handhelds are on Korvex managed service, so I plan to enable the parked "
     "R15-handheld rule routing RT7/handheld/scan gun/KX7 tickets to vendor_korvex at P2 (copier/Ricoh scanner tickets "
     "stay with L1). One specific question: the depot kiosks send a category - what category value(s) does a kiosk "
     "ticket about a handheld/RT7 carry, so I can route those too?", "bounced_handhelds"),
]


@pytest.mark.parametrize(("task_id", "variant", "person", "message", "topic"),
                         [c for c in CASES] + [(c[0], "base") + c[2:] for c in CASES],
                         ids=lambda v: v if isinstance(v, str) and len(v) < 30 else None)
def test_the_message_gets_the_topic_that_answers_it(task_id, variant, person, message, topic):
    task = load_task(task_id)
    spec = task.people_spec(task.variant(variant))
    res = People(spec, make_router(task.router, spec["people"])).contact(person, message)
    assert topic in [t.partition(":")[0] for t in res.tags], (res.tags, res.reply)
