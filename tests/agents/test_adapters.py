"""The RL-stack adapters, driven the way each framework drives them.

TRL: ``GRPOTrainer(environment_factory=Cls)`` builds ``Cls()`` per rollout, calls ``reset(**row)``,
turns public methods into tools from their signatures and Google docstrings, executes a model's tool
call as ``getattr(env, name)(**arguments)``, and gives reward functions ``environments=[...]``.
SkyRL-Gym ``BaseTextEnv``: ``Env(env_config, extras)``, ``init(prompt)``, ``step(text)`` until ``done``,
``close()``. GEM: ``reset(seed)``, ``step(text)`` -> 5-tuple.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import typing

import pytest
from fdegym_env.agents.adapters import (
    GEMTextEnv,
    SkyRLTextEnv,
    TRLEnvironment,
    make_trl_environment_factory,
    trl_tool_names,
)

from fdegym_env import tool_schemas
from fdegym_env.core.actions import TOOL_NAMES
from tests.conftest import TINY

SANDBOX = os.environ.get("FDEGYM_TEST_SANDBOX", "auto")
FIX = '{"threshold": 50}'
_JSON = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _schema_like_transformers(fn) -> dict:
    """What transformers' get_json_schema needs: every parameter type-hinted and documented under Args."""
    doc = inspect.getdoc(fn)
    assert doc and "Args:" in doc or not [p for p in inspect.signature(fn).parameters if p != "self"], fn.__name__
    documented = dict(re.findall(r"^\s{4}(\w+): (.+)$", doc.split("Args:", 1)[-1].split("Returns:")[0], re.M))
    props, required = {}, []
    hints = typing.get_type_hints(fn)
    for name, p in inspect.signature(fn).parameters.items():
        if name == "self":
            continue
        assert name in hints, f"{fn.__name__}: parameter {name} has no type hint"
        assert name in documented, f"{fn.__name__}: parameter {name} is not documented under Args"
        t = hints[name]
        t = next(a for a in typing.get_args(t) if a is not type(None)) if typing.get_origin(t) is typing.Union else t
        props[name] = _JSON[t]
        if p.default is inspect.Parameter.empty:
            required.append(name)
    assert "return" in hints, f"{fn.__name__}: no return type hint"
    return {"name": fn.__name__, "properties": props, "required": required}


def test_trl_tools_match_the_env_schemas():
    Env = make_trl_environment_factory(TINY, sandbox=SANDBOX)
    assert issubclass(Env, TRLEnvironment)
    assert sorted(trl_tool_names(Env)) == sorted([*TOOL_NAMES, "get_reward"])
    by_name = {s["function"]["name"]: s["function"]["parameters"] for s in tool_schemas()}
    for name in TOOL_NAMES:
        got = _schema_like_transformers(getattr(Env, name))
        want = by_name[name]
        assert got["properties"] == {k: v["type"] for k, v in want["properties"].items()}, name
        assert sorted(got["required"]) == sorted(want["required"]), name
    _schema_like_transformers(Env.get_reward)


def test_trl_rollout_the_way_grpo_trainer_drives_it():
    Env = make_trl_environment_factory(TINY, sandbox=SANDBOX)
    environments = [Env() for _ in range(2)]  # one per generation
    rows = [{"prompt": [{"role": "user", "content": "Fix it."}], "seed": 0},
            {"prompt": [{"role": "user", "content": "Fix it."}], "seed": 1, "level": "L0"}]
    briefs = [e.reset(**row) for e, row in zip(environments, rows)]
    assert "Brief L3" in briefs[0] and "Brief L0" in briefs[1]
    # model tool calls, executed as TRL does: getattr(env, name)(**json.loads(arguments))
    script = [("read_file", '{"path": "docs/notes.md"}'), ("contact", '{"to": "ops", "message": "What is the threshold?"}'),
              ("write_file", json.dumps({"path": "system/app/config.json", "content": FIX}))]
    outputs = [getattr(environments[0], n)(**json.loads(a)) for n, a in script]
    assert "threshold was set years ago" in outputs[0] and "cutoff is 50" in outputs[1]
    assert environments[1].read_file(path="nope.md").startswith("Error: No such file or folder: 'nope.md'.")

    def reward_func(completions, environments, **kwargs):
        return [e.get_reward() for e in environments]

    # cut off before submit: graded as it stands (fix delivered, one question paid)
    assert reward_func(["", ""], environments) == pytest.approx([0.99, 0.0])
    assert "== result ==" in environments[0].submit(note="done")
    assert environments[0].get_reward() == pytest.approx(0.99)
    assert environments[0].list_files() == "The engagement has ended; nothing more can be done in this episode."
    # a second rollout on the same instance starts fresh
    environments[0].reset(seed=2)
    assert environments[0].get_reward() == pytest.approx(0.0)
    for e in environments:
        e._close()


def test_skyrl_text_env_contract():
    env = SkyRLTextEnv(env_config={"task": TINY, "sandbox": SANDBOX}, extras={"seed": 0})
    conv, meta = env.init([{"role": "system", "content": "You are an FDE."}])
    assert [m["role"] for m in conv] == ["system", "user"] and conv[0]["content"] == "You are an FDE."
    assert [t["function"]["name"] for t in meta["tools"]] == list(TOOL_NAMES)
    model = ["Let me read.\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"docs/notes.md\"}}</tool_call>",
             "thinking...",
             '<tool_call>{"name": "contact", "arguments": {"to": "ops", "message": "threshold?"}}</tool_call>'
             '<tool_call>{"name": "write_file", "arguments": {"path": "system/app/config.json", "content": "'
             + FIX.replace('"', '\\"') + '"}}</tool_call>',
             '<tool_call>{"name": "submit", "arguments": {}}</tool_call>']
    total, outs = 0.0, []
    for text in model:
        out = env.step(text)
        assert set(out) == {"observations", "reward", "done", "metadata", "postprocessed_action"}
        assert all(set(m) == {"role", "content"} for m in out["observations"])
        total += out["reward"]
        outs.append(out)
        if out["done"]:
            break
    assert outs[-1]["done"] and env.turns == 4
    assert "no tool call" in outs[1]["observations"][0]["content"]
    assert total == pytest.approx(outs[-1]["metadata"]["result"]["score"]) and total == pytest.approx(0.99)
    assert env.step("more")["done"] is True
    env.close()


def test_gem_text_env_contract():
    env = GEMTextEnv(task=TINY, sandbox=SANDBOX)
    obs, info = env.reset(seed=0)
    assert isinstance(obs, str) and "please make the classifier faster" in obs
    obs, r, term, trunc, info = env.step('{"name": "write_file", "arguments": {"path": "system/app/config.json", '
                                         '"content": "{\\"threshold\\": 50}"}}')
    assert "Wrote" in obs and r == 0.0 and not term
    assert env.score_now()["uplift"] == pytest.approx(1.0)
    obs, r, term, trunc, info = env.step("<tool_call>{\"name\": \"submit\", \"arguments\": {}}</tool_call>")
    assert term and not trunc and r == pytest.approx(1.0) and "== result ==" in obs
    env.close()
