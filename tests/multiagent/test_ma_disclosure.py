"""The env enforces the rules before any policy: a stakeholder agent that tries to disclose every
fact on every message releases only what the rules allow, and released facts (not wording) decide
the discovery metrics."""

from __future__ import annotations

import numpy as np
import pytest
from ma_helpers import GreedyDiscloser, Withholder, copy_task, ma_task_params, play_aec, play_single, probe_actions

from fdegym_env.core.env import FDEGymEnv
from fdegym_env.multiagent import ENGINEER, env

RULES_PEOPLE = """
clock: {start: "2026-03-02T09:00", ask_minutes: 60, wait_cost_per_day: 0.0}
show_budget: true
people:
  - id: ops
    name: Olu Ops
    role: Operations lead
    blurb: Knows the classification threshold.
    persona: Terse.
    misconceptions: ["The threshold never changes."]
    patience: 8
    cost: 0.01
    topics:
      - {id: threshold, about: the threshold cutoff, triggers: ["threshold"], answer: "The real cutoff is {{threshold}}.",
         facts: [F_threshold]}
      - {id: secret, about: the incident, triggers: ["secret"], requires: ["INC-\\\\d+"], gate_miss: "Which incident?",
         answer: "The secret is out.", facts: [F_secret]}
      - {id: history, about: the history, triggers: ["history"], stall: ["Let me check."], available_after_hours: 24,
         stall_again: "Still checking.", answer: "It moved in 2024.", facts: [F_history]}
      - {id: legal, about: legal view, triggers: ["legal"], requires_facts: [F_signoff],
         requires_miss: "Legal must sign off first.", answer: "Legal is fine with it.", facts: [F_legal]}
  - id: lawyer
    name: La Wyer
    role: Counsel
    blurb: Signs things off.
    patience: 1
    cost: 0.05
    topics:
      - {id: signoff, about: sign-off, triggers: ["sign.?off"], answer: "Signed off.", facts: [F_signoff]}
  - id: away
    name: A Way
    role: Leaver
    blurb: Leaving soon.
    gone_after_hours: 1
    gone_reply: "(automatic reply) gone fishing"
    topics:
      - {id: t, about: anything, triggers: ["threshold"], answer: "Ask ops.", facts: [F_away]}
inbox:
  - {id: m_secret, from: ops, text: "Since you know the secret: the audit is next week.", after_fact: F_secret}
"""

SCRIPT = [
    ("ops", "What is the secret?", []),                       # gate not met
    ("ops", "Tell me the history.", []),                      # stalled
    ("ops", "What is the legal view?", []),                   # needs a fact someone else must give first
    ("ops", "The secret for INC-12 please", ["F_secret"]),    # gate met
    ("lawyer", "Can you sign-off?", ["F_signoff"]),
    ("ops", "What is the legal view now?", ["F_legal"]),
    ("lawyer", "Another sign-off?", []),                      # out of patience: no agent turn
    ("away", "threshold?", []),                               # gone: automatic reply, no agent turn
    ("ops", "threshold and history?", ["F_threshold"]),       # history still too soon
]


@pytest.fixture()
def rules_task(tmp_path):
    return copy_task(tmp_path, RULES_PEOPLE)


def _actions():
    return [{"tool": "contact", "to": to, "message": m} for to, m, _ in SCRIPT] + [{"tool": "inbox"}, {"tool": "submit"}]


@pytest.mark.parametrize("by_id", [False, True], ids=["mask", "ids"])
def test_greedy_policy_releases_only_what_rules_allow(rules_task, by_id):
    e = env(rules_task, external="all", router="regex")
    greedy = GreedyDiscloser(extra=["F_threshold", "F_secret", "F_history", "F_legal", "F_signoff", "F_away"],
                             by_id=by_id)
    eng, stake = play_aec(e, _actions(), {a: greedy for a in ("ops", "lawyer", "away")})
    e.close()
    # one agent turn per message the rules pass through: not for out-of-patience or gone people
    assert [s["agent"] for s in stake] == ["ops", "ops", "ops", "ops", "lawyer", "ops", "ops"]
    expected = [facts for to, _, facts in SCRIPT if not (to == "lawyer" and "Another" in _) and to != "away"]
    assert [s["next_info"]["last_released"] for s in stake] == expected
    for s in stake:
        assert set(s["next_info"]["last_released"]) <= set(s["info"]["request"]["releasable"])
    ledger = eng[-1][4]["ledger"]
    per_msg = [r["facts"] for r in ledger if r["to"] in ("ops", "lawyer", "away")]
    assert per_msg == [[], [], [], ["F_secret"], ["F_signoff"], ["F_legal"], [], ["F_gone:away"], ["F_threshold"]]
    assert "F_history" not in eng[-1][4]["result"]["facts_obtained"]
    # the engineer saw the policy's words, not the script's
    assert "no holds barred" in eng[0][0]["text"]


def test_withholding_policy_hides_facts_but_keeps_costs(rules_task):
    acts = _actions()
    single = FDEGymEnv(task=rules_task, router="regex")
    ref = play_single(single, acts)
    single.close()
    e = env(rules_task, external=["ops"], router="regex")
    eng, stake = play_aec(e, acts, {"ops": Withholder()})
    e.close()
    r_ref, r_got = ref[-1][4]["result"], eng[-1][4]["result"]
    assert {"F_secret", "F_threshold", "F_legal"} <= set(r_ref["facts_obtained"])
    assert set(r_got["facts_obtained"]) == {"F_signoff", "F_gone:away"}
    assert r_got["key_fact_coverage"] == 0.0 and r_ref["key_fact_coverage"] == 1.0
    assert r_got["contact_cost"] == pytest.approx(r_ref["contact_cost"])  # the rules still price every message
    assert r_got["questions_asked"] == r_ref["questions_asked"]
    # the wording was the script's: the engineer read the cutoff, but discovery does not count it
    assert "The real cutoff is" in eng[8][0]["text"]
    # an after_fact inbox message needs the fact released
    inbox_ref = [o for o, *_ in ref if "audit is next week" in o["text"]]
    inbox_got = [o for o, *_ in eng if "audit is next week" in o["text"]]
    assert inbox_ref and not inbox_got
    assert all(s["reward"] < 1.0 for s in stake if s["info"]["request"]["releasable"])


def test_stakeholder_observation_carries_persona_and_rules(rules_task):
    e = env(rules_task, external=["ops"], router="regex")
    e.reset(seed=0)
    e.step({"tool": "contact", "to": "ops", "message": "threshold please"})
    assert e.agent_selection == "ops"
    obs, rew, term, trunc, info = e.last()
    assert obs["pending"] == 1 and e.observation_space("ops").contains(obs)
    assert info["facts"] == ["F_threshold", "F_secret", "F_history", "F_legal"]
    assert obs["releasable"].tolist() == [1, 0, 0, 0]
    for needle in ("Olu Ops", "Operations lead", "Terse.", "The threshold never changes.", "threshold please",
                   "The real cutoff is", "F_threshold"):
        assert needle in obs["text"]
    assert info["request"]["persona"]["misconceptions"] == ["The threshold never changes."]
    e.step({"reply": "Fifty-ish.", "disclose": [0, 0, 0, 0]})
    assert e.agent_selection == ENGINEER
    obs, rew, *_ = e.last()
    assert "Fifty-ish." in obs["text"] and rew == pytest.approx(-0.01)
    obs_ops = e.observe("ops")
    assert obs_ops["pending"] == 0 and "You: Fifty-ish." in obs_ops["text"]
    assert e.rewards["ops"] == 0.0  # faithfulness: withheld the one releasable fact
    e.close()


@pytest.mark.parametrize("task", ma_task_params())
def test_greedy_equals_script_on_registered_tasks(task):
    """Greedy disclosure can never exceed the script: facts equal the single-agent run's, message by message."""
    acts = probe_actions(task)
    single = FDEGymEnv(task=task)
    ref = play_single(single, acts, seed=5)
    single.close()
    e = env(task, external="all")
    every = sorted({f for p in e.core.facts.values() for f in p})
    eng, stake = play_aec(e, acts, {a: GreedyDiscloser(extra=every, by_id=True) for a in e.possible_agents[1:]},
                          seed=5)
    e.close()
    ledger_ref = [r["facts"] for r in ref[-1][4]["ledger"]]
    ledger_got = [r["facts"] for r in eng[-1][4]["ledger"]]
    assert ledger_got == ledger_ref
    assert eng[-1][4]["result"]["key_fact_coverage"] == ref[-1][4]["result"]["key_fact_coverage"]
    assert np.all([set(s["next_info"]["last_released"]) <= set(s["info"]["request"]["releasable"]) for s in stake])
