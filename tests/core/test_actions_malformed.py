"""The action parser never raises on any Python or JSON value: every malformed action is an
:class:`ActionError` whose text says what was wrong and how to fix it, and ``env.step`` turns it into
an observation with the state unchanged."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from fdegym_env import FDEGymEnv
from fdegym_env.core.actions import ActionError, ReadFile, Wait, parse_action
from tests.conftest import TINY


def _nested_list(depth: int) -> list:
    out: list = []
    for _ in range(depth):
        out = [out]
    return out


MALFORMED = {
    "non_string_key": ({"tool": "list_files", 1: "x"}, "Argument names must be strings, got 1 (int)"),
    "non_string_key_in_arguments": ({"name": "list_files", "arguments": {1: "x"}}, "Argument names must be strings"),
    "huge_int": ({"tool": "wait", "hours": 10 ** 400}, "must be a number from -1e+12 to 1e+12"),
    "huge_int_text": ('{"tool": "wait", "hours": ' + "1" * 5000 + "}", "The action: not valid JSON"),
    "too_big_number": ({"tool": "wait", "hours": 1e300}, "must be a number from -1e+12 to 1e+12"),
    "inf": ({"tool": "wait", "hours": float("inf")}, "must be a finite number"),
    "nan": ({"tool": "run", "command": "ls", "timeout_s": float("nan")}, "must be a finite number"),
    "deep_json_action": ("[" * 100_000, "The action nests brackets more than 64 levels deep"),
    "deep_json_arguments": ({"name": "read_file", "arguments": "[" * 100_000},
                            "The arguments of 'read_file' nests brackets more than 64 levels deep"),
    "deep_python_action": (_nested_list(100_000), "An action must be a dict"),
    "deep_python_argument": ({"tool": "read_file", "path": _nested_list(100_000)}, "must be a string, got list"),
    "surrogate_path": ({"tool": "read_file", "path": "\ud800"}, "holds a lone surrogate '\\ud800' at character 0"),
    "uncopyable_typed": (ReadFile(path=threading.Lock()), "must be a string, got lock"),
    "generator_typed": (Wait(hours=(x for x in [])), "must be a number, got <generator"),
    "object_array": ({"tool": "read_file", "path": np.array([[1, 2]], dtype=object)}, "must be a string, got int"),
    "arguments_ndarray": ({"name": "read_file", "arguments": np.array([1])}, "must be a JSON object, got ndarray"),
    "bytes_not_utf8": (b"\xff", "bytes that are not UTF-8"),
    "none": (None, "An action must be a dict"),
    "huge_tool_name": ({"tool": "x" * 1_000_000}, "Unknown tool 'xxxx"),
}


@pytest.mark.parametrize("action,expected", list(MALFORMED.values()), ids=list(MALFORMED))
def test_parser_refuses_with_an_action_error(action, expected):
    with pytest.raises(ActionError) as e:
        parse_action(action)
    assert expected in str(e.value)
    assert len(str(e.value)) < 600   # a message for the agent, not the value echoed back


def test_an_object_array_holding_a_string_is_read():
    assert parse_action({"tool": "read_file", "path": np.array(["TASK.md"], dtype=object)}).args == {"path": "TASK.md"}


def test_surrogate_pair_from_json_is_one_character():
    act = parse_action('{"tool": "write_file", "path": "a", "content": "\\ud83d\\ude00"}')
    assert act.args["content"] == "\U0001f600"


@pytest.fixture(scope="module")
def env():
    e = FDEGymEnv(task=TINY)
    e.reset(seed=0)
    yield e
    e.close()


@pytest.mark.parametrize("action,expected", list(MALFORMED.values()), ids=list(MALFORMED))
def test_env_step_turns_it_into_an_observation(env, action, expected):
    turn = env.turn
    obs, reward, terminated, truncated, info = env.step(action)
    assert obs["valid"] == 0 and not terminated and reward == 0.0
    assert expected in info["last_action_error"] and obs["text"].startswith("Error: ")
    obs["text"].encode("utf-8")   # what the agent sees is valid text
    assert env.turn == turn + 1
    json.dumps(env.transcript[-1])


def test_other_frameworks_argument_names_are_understood():
    a = parse_action({"tool": "edit_file", "file_path": "a.py", "old_str": "x = 1", "new_str": "x = 2"})
    assert (a.tool, a.args) == ("edit_file", {"path": "a.py", "old": "x = 1", "new": "x = 2"})
    assert parse_action({"tool": "run", "cmd": "ls"}).args == {"command": "ls"}


def test_an_argument_given_in_both_spellings_is_refused():
    with pytest.raises(ActionError, match="got both 'old_str' and 'old'"):
        parse_action({"tool": "edit_file", "path": "a.py", "old": "x", "old_str": "y", "new": "z"})
    with pytest.raises(ActionError, match="does not take 'old_str'"):      # an alias of nothing this tool takes
        parse_action({"tool": "write_file", "path": "a.py", "content": "", "old_str": "y"})
