"""Shared helpers of the multi-agent tests: task parameters, probe scripts, policies, a rollout loop."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.multiagent import ENGINEER

TINY = str(Path(__file__).resolve().parents[1] / "fixtures" / "tiny_task")
FAST_TASKS = ("news_incident",)  # registered tasks tested in the default (non-slow) run


def ma_task_params(all_slow: bool = False) -> list:
    """tiny_task always; news_incident when registered; every other registered task marked slow."""
    out = [pytest.param(TINY, id="tiny_task")]
    for t in list_tasks():
        marks = [] if (t in FAST_TASKS and not all_slow) else [pytest.mark.slow]
        out.append(pytest.param(t, id=t, marks=marks))
    return out


def first_external(task_ref: str) -> str:
    """The first stakeholder that has topics (the most interesting single external)."""
    spec = load_task(task_ref).people_spec(load_task(task_ref).variant("base"))
    with_topics = [p["id"] for p in spec["people"] if p.get("topics")]
    return (with_topics or [spec["people"][0]["id"]])[0]


def _trigger_words(trigger: str) -> str:
    t = trigger.replace("\\b", " ").replace("\\s", " ").replace("\\d", "1")
    return re.sub(r"[\\^$.*+?()\[\]{}|]", "", t)


def probe_actions(task_ref: str, limit: int | None = None) -> list[dict[str, Any]]:
    """A deterministic engineer script touching every rule: unknown person, empty message, malformed
    action, every topic of every person (by its words), patience, waiting, the inbox, and submit."""
    task = load_task(task_ref)
    people = task.people_spec(task.variant("base"))["people"]
    acts: list[dict[str, Any]] = [
        {"tool": "directory"},
        {"tool": "contact", "to": "nobody_here", "message": "hello?"},
        {"tool": "contact", "to": people[0]["id"], "message": "   "},
        {"tool": "bogus_tool"},
        {"tool": "contact", "to": people[0]["id"], "message": "Anything I should know?"},
    ]
    for p in people:
        for t in p.get("topics", [])[:3]:
            words = " ".join(_trigger_words(x) for x in t.get("triggers", [])[:2])
            acts.append({"tool": "contact", "to": p["id"],
                         "message": f"Can you tell me about {t.get('about', t['id'])}? {words} "
                                    + " ".join(t.get("keywords", [])[:4])})
    acts += [{"tool": "wait", "hours": 30}, {"tool": "inbox"}]
    if people[0].get("topics"):
        t = people[0]["topics"][0]
        for _ in range(int(people[0].get("patience") or 2) + 1):  # runs the person out of patience
            acts.append({"tool": "contact", "to": people[0]["id"], "message": f"Again: {t.get('about', t['id'])}"})
    cap = (limit or int(task.limits["max_turns"])) - 1
    return acts[:cap] + [{"tool": "submit", "note": "probe"}]


class GreedyDiscloser:
    """Asks to disclose every fact it knows of, on every message (mask of ones and, by id, ``extra``)."""

    def __init__(self, extra: list[str] | None = None, by_id: bool = False):
        self.extra, self.by_id = list(extra or []), by_id

    def act(self, obs, info):
        if self.by_id:
            return {"reply": "Everything I know, no holds barred.", "disclose": list(info["facts"]) + self.extra}
        return {"reply": "Everything I know, no holds barred.", "disclose": np.ones_like(obs["releasable"])}


class Withholder:
    """The script's words, no facts."""

    def act(self, obs, info):
        return {"reply": "", "disclose": np.zeros_like(obs["releasable"])}


def play_aec(env, engineer_actions: list, policies: dict, seed: int = 0) -> tuple[list[tuple], list[dict]]:
    """Play the engineer's scripted actions; -> (one (obs, reward, term, trunc, info) per engineer decision
    point after the first, stakeholder records ``{"agent", "obs", "info", "next_info"}``)."""
    env.reset(seed=seed)
    actions = list(engineer_actions)
    eng, stake = [], []
    started = False
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        if agent == ENGINEER and started:
            eng.append((obs, rew, term, trunc, info))
        if term or trunc:
            env.step(None)
            continue
        if agent == ENGINEER:
            started = True
            env.step(actions.pop(0))
        else:
            rec = {"agent": agent, "obs": obs, "info": dict(info)}
            env.step(policies[agent].act(obs, info))
            rec["next_info"] = dict(env.infos.get(agent, {}))
            rec["reward"] = env.rewards.get(agent)
            stake.append(rec)
    return eng, stake


def play_single(env, engineer_actions: list, seed: int = 0) -> list[tuple]:
    env.reset(seed=seed)
    out = []
    for a in engineer_actions:
        step = env.step(a)
        out.append(step)
        if step[2] or step[3]:
            break
    return out


def copy_task(tmp: Path, people_yaml: str) -> str:
    """tiny_task copied under ``tmp`` with its people.yaml replaced; returns the folder path."""
    dest = Path(tmp) / "tiny_task"
    shutil.copytree(TINY, dest)
    (dest / "people.yaml").write_text(people_yaml, encoding="utf-8")
    return str(dest)
