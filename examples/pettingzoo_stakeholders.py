"""One episode of the multi-agent env: an LLM plays a stakeholder, the engineer is scripted.

    python examples/pettingzoo_stakeholders.py --fake                       # offline, a scripted fake model
    python examples/pettingzoo_stakeholders.py --model qwen3:8b --base-url http://localhost:11434/v1

The engineer asks the stakeholder a few questions, delivers the task's reference solution and
submits. The stakeholder (``--stakeholder``, default: the first person with topics) is played by a
chat model through :class:`fdegym_env.multiagent.LLMStakeholder`; everyone else stays scripted.
The env decides what the model may disclose: whatever it claims, only releasable facts count.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys

from fdegym_env.multiagent import ENGINEER, LLMStakeholder, env


@dataclasses.dataclass
class Args:
    task: str = "news_incident"
    stakeholder: str = ""          # person id; default: the first person who holds facts
    level: str = "L3"
    seed: int = 0
    sandbox: str = "auto"
    fake: bool = False             # serve a scripted fake model on 127.0.0.1 (no network, no key)
    model: str = ""
    base_url: str = ""
    api_key_file: str = ""
    questions: int = 2
    json: bool = False             # print the result as one JSON line


def parse_args(argv: list[str]) -> Args:
    import argparse
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in dataclasses.fields(Args):
        flag = "--" + f.name.replace("_", "-")
        if f.type in ("bool", bool):
            p.add_argument(flag, action="store_true")
        else:
            p.add_argument(flag, type=int if f.type in ("int", int) else str, default=f.default)
    return Args(**vars(p.parse_args(argv)))


def fake_model_turn(body: dict, k: int) -> dict:
    """The fake model: paraphrases the scripted reply and claims every fact in sight (and one more)."""
    from fdegym_env.testing import say
    text = body["messages"][-1]["content"]
    script = text.split("What the script would answer:\n", 1)[-1].split("\n\n", 1)[0].strip()
    facts = re.findall(r"^- (F_[A-Za-z0-9_]+)", text, re.MULTILINE)
    first = script.split(". ")[0].rstrip(".")
    return say(json.dumps({"reply": f"(as I see it) {first}.", "disclose": facts + ["F_made_up"]}))


def engineer_questions(e, person: str, n: int) -> list[dict]:
    topics = sorted(e.core.persons[person].get("topics", []), key=lambda t: not t.get("facts"))  # facts first
    return [{"tool": "contact", "to": person, "message": f"Could you explain {t.get('about', t['id'])}?"}
            for t in topics[:n]]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from fdegym_env.core.registry import load_task
    task = load_task(args.task)
    people = task.people_spec(task.variant("base"))["people"]
    with_facts = [p["id"] for p in people if any(t.get("facts") for t in p.get("topics", []))]
    who = args.stakeholder or (with_facts or [p["id"] for p in people])[0]

    server = None
    if args.fake:
        from fdegym_env.testing import FakeLLMServer
        server = FakeLLMServer(fake_model_turn).start()
        policy = LLMStakeholder(model=server.model, base_url=server.base_url, api_key="fake")
    else:
        policy = LLMStakeholder(model=args.model or None, base_url=args.base_url or None,
                                api_key_file=args.api_key_file or None)

    e = env(args.task, external=[who], level=args.level, sandbox=args.sandbox)
    e.reset(seed=args.seed)
    from fdegym_env.agents import SolutionAgent
    delivery = SolutionAgent("reference")
    delivery.reset(e.engineer_env, None, {})
    plan = engineer_questions(e, who, args.questions) + delivery.queue  # questions, then the fix and submit

    result, stakeholder_return = {}, 0.0
    try:
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if agent == who:
                stakeholder_return += reward
            if term or trunc:
                result = info.get("result", result)
                e.step(None)
                continue
            if agent == ENGINEER:
                action = plan.pop(0)
                if action["tool"] == "contact":
                    print(f"\nengineer -> {who}: {action['message']}")
                e.step(action)
                if action["tool"] == "contact" and e.agent_selection == ENGINEER:
                    print(e.observe(ENGINEER)["text"])
            else:
                e.step(policy.act(obs, info))
                print(e.observe(ENGINEER)["text"])
                print(f"   [released {e.infos[who]['last_released']} of releasable {e.infos[who]['last_releasable']}]")
    finally:
        e.close()
        if server is not None:
            server.stop()

    summary = {"task": task.id, "stakeholder": who, "model": policy.model, "score": result.get("score"),
               "key_fact_coverage": result.get("key_fact_coverage"), "facts_obtained": result.get("facts_obtained"),
               "stakeholder_return": round(stakeholder_return, 6), "llm": policy.stats}
    print(json.dumps(summary) if args.json else "\n" + json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
