"""irrops_rebook, second round-10 playtest (sample:1906):

- Asked whether the 30 minutes Amadeus checks (README: "after the plan's notice") count from the
  passenger's own flight's notice or from the latest notice in a revised plan, Conor - who wrote the
  console integration - had no answer. The grader counts from the passenger's own cancelled flight's
  ``notice``; Conor now says so and the README no longer speaks of a plan-wide notice.
- Asked what the 35 "other connecting passenger(s)" in the trial's desk count needed, Marek referred
  to Niamh; the trial line said nothing of why they were there. The line now says what the desk found
  for them and the reason the tool gave; Marek says what that class is."""

from __future__ import annotations

import json

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.grading.grade import held_out_traffic
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("irrops_rebook")


def ask(variant: str, to: str, message: str):
    spec = TASK.people_spec(TASK.variant(variant))
    return People(spec, make_router(TASK.router, spec["people"])).contact(to, message)


NOTICE_ASKS = [
    # the playtest's message
    "Thanks. Follow-up on timing: when a revised plan is re-sent at, say, 22:40, it can still list passengers of a "
    "flight cancelled at 07:55 whom the desk has not reached yet. For those, should the earliest new flight be "
    "measured from their own flight's notice (as the code does now) or from the time of the current call, i.e. the "
    "latest notice in the plan? Which one does Amadeus check the 30 minutes against?",
    "Quick one on the README: \"30 minutes after the plan's notice\" - is that each passenger's own cancelled "
    "flight's notice, or the most recent notice in the plan?",
    "Hi Conor, I'm tightening the lead-time logic in reaccom. The plan has issued_at and then a notice on every "
    "cancelled flight, and a revised plan can carry flights cancelled hours apart. When I work out the earliest "
    "flight a passenger can go on, which timestamp should I start the clock from - issued_at, their own flight's "
    "notice, or the newest notice in the plan?",
    "Does the 30-minute Amadeus check count from the passenger's disrupted flight notice or from when the plan "
    "was issued?",
]


@pytest.mark.parametrize("variant", ["base", "sample:1906", "t2_stand_works", "sample:0"])
@pytest.mark.parametrize("message", NOTICE_ASKS, ids=["playtest", "readme", "long", "short"])
def test_conor_says_the_lead_time_counts_from_the_passengers_own_flights_notice(variant, message):
    r = ask(variant, "conor_hegarty", message)
    assert r.tags == ["notice_lead"], (r.tags, r.reply)
    assert r.reply.startswith("From the passenger's own flight's notice")
    assert "Not issued_at, not the latest notice in the plan" in r.reply


def test_the_readme_names_whose_notice_and_the_grader_uses_it():
    readme = (TASK.path / "world" / "system" / "README.md").read_text(encoding="utf-8")
    assert "plan's notice" not in readme
    assert "30 minutes after the `notice` of the\npassenger's own cancelled flight" in readme
    # the grader: a passenger off the earlier cancellation is judged against that flight's notice,
    # however late the plan's other flights were cancelled
    grader, sim = TASK.module("grader"), TASK.module("sim")
    plan = json.loads(json.dumps(held_out_traffic(TASK, TASK.variant("base"))["plans"][0]))
    c = plan["cancelled"][0]
    p = next(q for q in plan["passengers"] if q["disrupted"] == c["key"] and len(q["segments"]) == 1)
    notice = sim.to_min(c["notice"])
    late = dict(c, key="LATE/X", notice=sim.local(notice + 600, "DUB"))
    plan["cancelled"].append(late)
    out = [f for f in plan["schedule"] if f["from"] == c["from"] and f["to"] == c["to"] and f["status"] == "OK"]
    ok = next(f for f in out if notice + 30 <= sim.to_min(f["std"]) < notice + 600)
    soon = [f for f in out if notice <= sim.to_min(f["std"]) < notice + 30]
    r = grader.replay(TASK.variant("base").params, plan,
                      {"decisions": [{"pax_id": p["pax_id"], "action": "rebook", "segments": [ok["key"]]}]})
    assert not r["rejected"], r["rejected"]
    for f in soon:
        r = grader.replay(TASK.variant("base").params, plan,
                          {"decisions": [{"pax_id": p["pax_id"], "action": "rebook", "segments": [f["key"]]}]})
        assert r["rejected"] and r["rejected"][0][0] == grader.TOO_SOON
