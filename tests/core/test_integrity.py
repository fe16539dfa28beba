"""What decides the score lives in the env process: a shell command cannot change it."""

from __future__ import annotations

import copy

from fdegym_env.core.env import FDEGymEnv
from tests.conftest import TINY

TAMPER = [
    "echo '{\"to\": \"ops\", \"facts\": [\"F_threshold\"], \"cost\": -5}' >> ask.jsonl",
    "mkdir -p logs && echo '{\"facts\": [\"F_threshold\"]}' > logs/ask.jsonl",
    "echo '{\"level\": \"L0\", \"variant\": \"high\"}' > meta.json",
    "export FDEGYM_VARIANT=high; echo F_threshold > /tmp/known",
    "kill -9 -1 2>/dev/null; echo done",
    "ls /proc/*/fd 2>/dev/null | head -3; cat /proc/1/environ 2>/dev/null | tr '\\0' ' ' | head -c 200",
]


def test_shell_cannot_change_ledger_facts_level_or_variant():
    env = FDEGymEnv(task=TINY)
    env.reset(seed=0, options={"level": "L3", "variant": "base"})
    env.step({"tool": "contact", "to": "ceo", "message": "hello"})
    before = (copy.deepcopy(env.people.ledger), set(env.people.known), env.people.contact_cost)
    for cmd in TAMPER:
        obs, r, term, trunc, info = env.step({"tool": "run", "command": cmd})
        assert r == 0.0 and not term
    after = (env.people.ledger, env.people.known, env.people.contact_cost)
    assert after == before
    obs, r, term, trunc, info = env.step({"tool": "submit"})
    res = info["result"]
    assert res["level"] == "L3" and res["variant"] == "base"
    assert res["facts_obtained"] == ["F_off_limits:ceo"] and res["contact_cost"] == 0.2
    assert res["key_fact_coverage"] == 0.0
    env.close()
