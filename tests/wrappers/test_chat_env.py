"""ChatEnv: messages in/out, multi-call turns, text calls, nudges, clipping, score parity, async."""

from __future__ import annotations

import asyncio
import json
import os

import pytest
from fdegym_env.agents.baselines import SolutionAgent
from fdegym_env.wrappers import ChatEnv, ToolCalling
from fdegym_env.wrappers.chat import ENDED, clip_text

from fdegym_env import FDEGymEnv
from fdegym_env.core.actions import TOOL_NAMES
from tests.conftest import TINY, task_params

SANDBOX = os.environ.get("FDEGYM_TEST_SANDBOX", "auto")


def every_task():
    """Every registered task (slow: they grade real scenarios) plus the tiny fixture (fast)."""
    return [pytest.param(*p.values, id=p.id, marks=() if p.id == "tiny_task" else (pytest.mark.slow,))
            for p in task_params()]


def tc(name, i=0, raw=None, **args):
    return {"id": f"c{i}", "type": "function",
            "function": {"name": name, "arguments": raw if raw is not None else json.dumps(args)}}


def assistant(*calls, content=None):
    m = {"role": "assistant", "content": content}
    if calls:
        m["tool_calls"] = list(calls)
    return m


@pytest.fixture
def chat():
    env = ChatEnv(FDEGymEnv(task=TINY, sandbox=SANDBOX))
    yield env
    env.close()


def test_reset_gives_system_user_and_tool_schemas(chat):
    messages, info = chat.reset(seed=0)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "please make the classifier faster" in messages[1]["content"]
    assert [t["function"]["name"] for t in info["tools"]] == list(TOOL_NAMES)
    assert ToolCalling is ChatEnv


def test_multi_call_turn_runs_in_order_with_tool_ids(chat):
    chat.reset(seed=0)
    new, reward, term, trunc, info = chat.step(assistant(
        tc("write_file", 0, path="docs/x.md", content="hello order"),
        tc("read_file", 1, path="docs/x.md"),
        tc("list_files", 2, path="docs")))
    assert [m["role"] for m in new] == ["tool"] * 3
    assert [m["tool_call_id"] for m in new] == ["c0", "c1", "c2"]
    assert "hello order" in new[1]["content"]  # the read saw the write: executed in order
    assert "x.md" in new[2]["content"]
    assert info["turn"] == 3 and [r["tool"] for r in info["tool_results"]] == ["write_file", "read_file", "list_files"]
    assert not term and reward == 0.0


@pytest.mark.parametrize("message, expect", [
    (assistant(tc("read_file", raw='{"path": "docs/')), "not valid JSON"),
    (assistant(tc("read_flie", path="x")), "Did you mean 'read_file'?"),
    (assistant(tc("read_file", raw='["docs"]')), "must be a JSON object"),
    (assistant(tc("read_file", path=5)), "argument 'path' must be a string, got int"),
    (assistant(tc("contact", to="ops")), "contact needs the argument 'message'"),
    (assistant(content='<tool_call>{"name": "read_file", </tool_call>'), "<tool_call> block 1 is not valid JSON"),
    (assistant(content="I think I should look around first."), "no tool call"),
    (assistant(content=None), "no tool call"),
    ("plain string reply", "no tool call"),
])
def test_parse_errors_never_crash_and_are_visible(chat, message, expect):
    chat.reset(seed=0)
    new, reward, term, trunc, info = chat.step(message)
    assert len(new) == 1 and expect in new[0]["content"]
    assert info["turn"] == 1, "a malformed turn still consumes one env turn"
    assert info["last_action_error"] or info["tool_results"][0]["error"]
    assert reward == 0.0 and not term
    # the conversation goes on
    new, *_ = chat.step(assistant(tc("list_files", 9)))
    assert new[0]["tool_call_id"] == "c9" and "system/" in new[0]["content"]


def test_text_tool_calls_and_json_in_content(chat):
    chat.reset(seed=0)
    new, _, _, _, info = chat.step('Let me look.\n<tool_call>{"name": "list_files", "arguments": {"path": "docs"}}'
                                   '</tool_call>\n<tool_call>{"name": "inbox", "arguments": {}}</tool_call>')
    assert [m["role"] for m in new] == ["user", "user"]
    assert new[0]["content"].startswith("[result of list_files]") and "notes.md" in new[0]["content"]
    assert new[1]["content"].startswith("[result of inbox]")
    new, *_ = chat.step('```json\n{"name": "read_file", "arguments": {"path": "docs/notes.md"}}\n```')
    assert "threshold was set years ago" in new[0]["content"]


def test_calls_after_submit_are_answered_but_not_run(chat):
    chat.reset(seed=0)
    new, reward, term, trunc, info = chat.step(assistant(tc("submit", 0), tc("read_file", 1, path="docs/notes.md")))
    assert term and new[1] == {"role": "tool", "tool_call_id": "c1", "content": ENDED}
    assert reward == pytest.approx(info["result"]["score"])
    with pytest.raises(RuntimeError, match="finished chat episode"):
        chat.step(assistant(tc("inbox")))


def test_tool_output_clipped_with_note():
    env = ChatEnv(FDEGymEnv(task=TINY, sandbox=SANDBOX), max_tool_chars=300)
    try:
        env.reset(seed=0)
        body = "\n".join(f"line {i:04d} " + "x" * 40 for i in range(200))
        env.step(assistant(tc("write_file", path="docs/big.md", content=body)))
        new, *_ = env.step(assistant(tc("read_file", path="docs/big.md")))
        text = new[0]["content"]
        assert "characters (" in text and "cut from the middle" in text
        assert "line 0000" in text and "line 0199" in text and "line 0100" not in text
        assert len(text) < 600
    finally:
        env.close()
    assert clip_text("short", 10) == "short" and clip_text("x" * 50, None) == "x" * 50


def _reference_actions(task):
    env = FDEGymEnv(task=task, sandbox=SANDBOX)
    try:
        obs, info = env.reset(seed=0)
        agent = SolutionAgent("reference")
        agent.reset(env, obs, info)
        return list(agent.queue)
    finally:
        env.close()


@pytest.mark.parametrize("task", every_task())
def test_chat_return_equals_env_score_for_same_actions(task):
    actions = [{"tool": "directory"}, {"tool": "list_files", "path": "docs"}, *_reference_actions(task)]
    direct = FDEGymEnv(task=task, sandbox=SANDBOX)
    try:
        direct.reset(seed=0)
        total = 0.0
        for a in actions:
            _, r, term, _, dinfo = direct.step(dict(a))
            total += r
            if term:
                break
        direct_score = dinfo["result"]["score"]
        assert total == pytest.approx(direct_score, abs=1e-9)
    finally:
        direct.close()
    chat = ChatEnv(FDEGymEnv(task=task, sandbox=SANDBOX))
    try:
        chat.reset(seed=0)
        ret, k, term = 0.0, 0, False
        batches = [actions[:2], actions[2:-1], actions[-1:]]  # look around, deliver (multi-call), submit
        for batch in batches:
            if not batch:
                continue
            calls = []
            for a in batch:
                a = dict(a)
                calls.append(tc(a.pop("tool"), k, **a))
                k += 1
            _, r, term, _, info = chat.step(assistant(*calls))
            ret += r
        assert term
        assert ret == pytest.approx(info["result"]["score"], abs=1e-9)
        assert info["result"]["score"] == pytest.approx(direct_score, abs=1e-9)
    finally:
        chat.close()


def test_score_now_grades_cut_off_rollout(chat):
    chat.reset(seed=0)
    assert chat.score_now()["uplift"] == pytest.approx(0.0)
    chat.step(assistant(tc("write_file", path="system/app/config.json", content='{"threshold": 50}')))
    assert chat.score_now()["uplift"] == pytest.approx(1.0)
    _, r, term, _, info = chat.step(assistant(tc("submit")))
    assert term and chat.score_now()["score"] == pytest.approx(info["result"]["score"])


def test_async_api(chat):
    async def go():
        messages, info = await chat.areset(seed=0)
        new, r, term, trunc, info = await chat.astep(assistant(tc("directory")))
        now = await chat.ascore_now()
        return messages, new, now
    messages, new, now = asyncio.run(go())
    assert messages[0]["role"] == "system" and "ops" in new[0]["content"] and now["uplift"] == pytest.approx(0.0)


def test_accepts_openai_message_objects(chat):
    from openai.types.chat import ChatCompletionMessage
    msg = ChatCompletionMessage.model_validate({"role": "assistant", "content": None, "tool_calls": [
        {"id": "x1", "type": "function", "function": {"name": "inbox", "arguments": "{}"}}]})
    chat.reset(seed=0)
    new, *_ = chat.step(msg)
    assert new[0]["tool_call_id"] == "x1"
    assert chat.messages[-2]["tool_calls"][0]["function"]["name"] == "inbox"
