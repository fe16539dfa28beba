"""Free-text action parsing: accepted forms and pinned error messages; the TextActions wrapper."""

from __future__ import annotations

import os

import pytest
from fdegym_env.wrappers import TextActionError, TextActions, parse_text_action, parse_tool_calls

from fdegym_env import FDEGymEnv
from tests.conftest import TINY

SANDBOX = os.environ.get("FDEGYM_TEST_SANDBOX", "auto")


@pytest.mark.parametrize("text, action", [
    ('{"tool": "read_file", "path": "a.md"}', {"tool": "read_file", "path": "a.md"}),
    ('{"name": "read_file", "arguments": {"path": "a.md"}}', {"tool": "read_file", "path": "a.md"}),
    ('{"name": "read_file", "arguments": "{\\"path\\": \\"a.md\\"}"}', {"tool": "read_file", "path": "a.md"}),
    ('<tool_call>\n{"name": "inbox", "arguments": {}}\n</tool_call>', {"tool": "inbox"}),
    ('Sure.\n```json\n{"name": "wait", "arguments": {"hours": 24}}\n```', {"tool": "wait", "hours": 24}),
    ('I will now call {"name": "directory"} to see people.', {"tool": "directory"}),
    ('read_file(path="docs/a.md", limit=20)', {"tool": "read_file", "path": "docs/a.md", "limit": 20}),
    ('read_file("docs/a.md", 3)', {"tool": "read_file", "path": "docs/a.md", "offset": 3}),
    ('Thought: check people\nAction: contact(to="ops", message="Cutoff?")',
     {"tool": "contact", "to": "ops", "message": "Cutoff?"}),
    ("directory", {"tool": "directory"}),
    ("  submit()  ", {"tool": "submit"}),
    ('edit_file("a", "x", "y", replace_all=true)',
     {"tool": "edit_file", "path": "a", "old": "x", "new": "y", "replace_all": True}),
])
def test_accepted_forms(text, action):
    assert parse_text_action(text) == action


@pytest.mark.parametrize("text, message", [
    ("", "The action is empty. Write e.g."),
    ("hello there friend", "Could not find an action in the text. Write one of:"),
    ("read_flie(path='a')", "Unknown tool 'read_flie'. Did you mean 'read_file'?"),
    ("read_file(path=docs)", "read_file(...): the value of 'path' must be a literal (a quoted string, number, "
                             "true/false), got `docs`. Quote strings: path=\"...\"."),
    ('read_file("a", 1, 2, 3)', "read_file(...): positional argument 4 has no slot; read_file takes path, offset, limit."),
    ('read_file("a", path="b")', "read_file(...): argument 'path' is given twice."),
    ("<tool_call>{\"name\": \"x\", </tool_call>", "<tool_call> block 1 is not valid JSON: Expecting property name"),
    ('{"path": "a.md"}', 'your message: the JSON object has no "name" (or "tool") key'),
    ('<tool_call>{"name": "inbox"}</tool_call><tool_call>{"name": "directory"}</tool_call>',
     "Found 2 tool calls; a text action holds exactly one."),
    ('{"name": "read_file", "arguments": "{bad"}', "The arguments of 'read_file' are not valid JSON"),
])
def test_precise_errors(text, message):
    with pytest.raises(TextActionError) as e:
        parse_text_action(text)
    assert message in str(e.value)


def test_parse_tool_calls_reports_but_never_raises():
    assert parse_tool_calls("just prose") == ([], None)
    calls, err = parse_tool_calls("<tool_call>{oops}</tool_call>")
    assert calls == [] and "not valid JSON" in err
    calls, err = parse_tool_calls('[{"name": "inbox"}, {"tool": "directory"}]')
    assert err is None and [c["name"] for c in calls] == ["inbox", "directory"]


def test_text_actions_wrapper():
    env = TextActions(FDEGymEnv(task=TINY, sandbox=SANDBOX), text_obs=True)
    try:
        obs, info = env.reset(seed=0)
        assert isinstance(obs, str) and "please make the classifier faster" in obs
        obs, r, term, trunc, info = env.step('read_file("docs/notes.md")')
        assert "threshold was set years ago" in obs and info["last_action_error"] is None
        obs, r, term, trunc, info = env.step("read_file(path=docs)")
        assert obs.startswith("Error: read_file(...): the value of 'path' must be a literal")
        assert info["last_action_error"].startswith("read_file(...)") and info["turn"] == 2
        obs, r, term, trunc, info = env.step("submit()")
        assert term and "== result ==" in obs
    finally:
        env.close()


def test_text_actions_dict_obs_and_error_keeps_result():
    env = TextActions(FDEGymEnv(task=TINY, sandbox=SANDBOX, max_turns=1))
    try:
        env.reset(seed=0)
        obs, r, term, trunc, info = env.step("nonsense words here")
        assert isinstance(obs, dict) and term and obs["valid"] == 0
        assert obs["text"].startswith("Error: Could not find an action") and "== result ==" in obs["text"]
        assert info["result"]["end_reason"] == "max_turns"
    finally:
        env.close()


def test_text_obs_needs_a_text_field_and_says_so():
    import gymnasium as gym
    with pytest.raises(TypeError, match="text_obs=True needs an observation space with a 'text' UnicodeText field"):
        TextActions(gym.make("CartPole-v1"), text_obs=True)
