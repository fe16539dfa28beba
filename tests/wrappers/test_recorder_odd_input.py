"""The Recorder never raises after a step ran: lone surrogates and names that are not UTF-8 are
escaped, every line is written, and replay still reproduces the episode."""

from __future__ import annotations

import json

from fdegym_env.wrappers.recorder import Recorder, jsonable, replay

from fdegym_env import FDEGymEnv
from tests.conftest import TINY


def test_odd_actions_are_recorded_and_replayed(tmp_path):
    path = tmp_path / "ep.jsonl"
    env = Recorder(FDEGymEnv(task=TINY), path)
    env.reset(seed=0)
    actions = [{"tool": "contact", "to": "boss", "message": "hi \ud83d"},
               {"tool": "run", "command": "touch system/$(printf 'bad\\377name')"},
               {"tool": "list_files"}, "[" * 100_000, {"tool": "wait", "hours": 10 ** 400},
               {"tool": "list_files", 1: "x"}, {"tool": "submit"}]
    for a in actions:
        obs, *_ = env.step(a)
    env.close()
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["type"] for r in lines] == ["reset"] + ["step"] * len(actions) + ["result"]
    assert lines[1]["action"]["message"] == "hi \ud83d"     # escaped in the file, the same value read back
    assert "bad\\xffname" in lines[3]["observation"]["text"]
    assert replay(path).ok


def test_jsonable_bounds_depth_and_size():
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    out = json.dumps(jsonable({"a": deep, "n": 10 ** 5000}))
    assert "__repr__" in out and len(out) < 10_000
