"""``fdegym episode``: real background processes, driven through the command line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fdegym_env.core.env import NO_WALL_LIMIT, FDEGymEnv
from fdegym_env.serving.episode_daemon import pid_alive

ACTIONS = [
    {"tool": "read_file", "path": "TASK.md"},
    {"tool": "contact", "to": "wire_editor", "message": "Which wire feeds send kill notices, and in what field?"},
    {"name": "list_files", "arguments": "{\"path\": \"system\"}"},  # an OpenAI-style tool call
    {"tool": "submit", "note": "as found"},
]


@pytest.fixture
def fdegym(tmp_path, monkeypatch):
    """Run ``fdegym episode ...`` in a subprocess with its own runtime folder and working folder."""
    home = tmp_path / "rt"
    monkeypatch.setenv("FDEGYM_EPISODES_HOME", str(home))
    env = dict(os.environ, FDEGYM_EPISODES_HOME=str(home))
    started: list[str] = []

    def call(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        if args[:2] == ("episode", "start"):
            started.append(args[2])
        return subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", *args], cwd=tmp_path, env=env,
                              input=stdin, capture_output=True, text=True, timeout=300)
    yield call
    for name in started:  # never leave a holding process behind, whatever the test did
        st = _state(home, name)
        if st and pid_alive(st.get("pid")):
            os.kill(st["pid"], 15)


def _state(home: Path, name: str) -> dict:
    p = home / name / "state.json"
    return json.loads(p.read_text()) if p.exists() else {}


def test_a_shell_episode_equals_the_in_process_episode(fdegym, tmp_path):
    r = fdegym("episode", "start", "ep", "news_incident", "--level", "L3", "--seed", "3")
    assert r.returncode == 0, r.stderr
    env = FDEGymEnv("news_incident", level="L3", max_wall_seconds=NO_WALL_LIMIT)   # a shell player's pace
    try:
        obs, _ = env.reset(seed=3, options={"agent": "external"})
        assert r.stdout == obs["text"] + "\n"  # the brief, exactly
        for action in ACTIONS:
            r = fdegym("episode", "act", "ep", json.dumps(action))
            assert r.returncode == 0, r.stderr
            obs, _, term, _, info = env.step(action)
            assert r.stdout == obs["text"] + "\n"  # the observation, exactly
        assert term
        expected = info["result"]
    finally:
        env.close()
    result = json.loads((tmp_path / "episodes" / "ep" / "result.json").read_text())
    assert result == json.loads(json.dumps(expected, default=str))
    home = Path(os.environ["FDEGYM_EPISODES_HOME"])
    st = _state(home, "ep")
    assert st["state"] == "ended" and not pid_alive(st["pid"])  # the process left once the end was shown
    assert not Path(st["workspace"]).exists()
    # after the end: act says so and shows the result, without running anything
    r = fdegym("episode", "act", "ep", '{"tool": "list_files"}')
    assert r.returncode == 1 and "has ended" in r.stdout and f"score {expected['score']:.3f}" in r.stdout
    # the transcript reads and replays like any recording
    r = fdegym("episode", "show", "ep")
    assert r.returncode == 0 and "turn 2: contact(" in r.stdout and "--- result ---" in r.stdout
    r = fdegym("replay", str(tmp_path / "episodes" / "ep" / "transcript.jsonl"))
    assert r.returncode == 0 and "REPRODUCED: 4 steps" in r.stdout


def test_malformed_action_is_an_observation(fdegym):
    assert fdegym("episode", "start", "bad", "news_incident").returncode == 0
    r = fdegym("episode", "act", "bad", "{not json")
    assert r.returncode == 0 and r.stdout.startswith("Error: The action: not valid JSON")
    r = fdegym("episode", "act", "bad", "-", stdin='{"tool": "read_file"}')
    assert r.returncode == 0 and "read_file needs the argument 'path'" in r.stdout
    assert fdegym("episode", "stop", "bad").returncode == 0


def test_missing_episode_is_a_clear_error(fdegym):
    for args in (("act", "nobody", '{"tool": "list_files"}'), ("show", "nobody"), ("stop", "nobody")):
        r = fdegym("episode", *args)
        assert r.returncode == 2
        assert "no episode named 'nobody'" in r.stderr and "fdegym episode start nobody" in r.stderr


def test_dead_episode_is_a_clear_error(fdegym):
    assert fdegym("episode", "start", "gone", "news_incident").returncode == 0
    st = _state(Path(os.environ["FDEGYM_EPISODES_HOME"]), "gone")
    os.kill(st["pid"], 9)
    from fdegym_env.serving.episode_daemon import wait_exit
    assert wait_exit(st["pid"], timeout=10)
    r = fdegym("episode", "act", "gone", '{"tool": "list_files"}')
    assert r.returncode == 1 and "lost its process" in r.stderr
    shutil.rmtree(Path(st["workspace"]).parent)  # a killed process cannot clean up after itself


def test_a_live_name_is_refused_and_a_bad_task_fails_to_start(fdegym):
    assert fdegym("episode", "start", "twin", "news_incident").returncode == 0
    r = fdegym("episode", "start", "twin", "news_incident", "--dir", "elsewhere")
    assert r.returncode == 2 and "already running" in r.stderr
    r = fdegym("episode", "start", "other", "news_incident", "--variant", "no_such_variant")
    assert r.returncode == 2 and "did not start" in r.stderr and "no_such_variant" in r.stderr
    assert fdegym("episode", "stop", "twin").returncode == 0


def test_stop_cleans_up(fdegym, tmp_path):
    assert fdegym("episode", "start", "s", "news_incident").returncode == 0
    home = Path(os.environ["FDEGYM_EPISODES_HOME"])
    st = _state(home, "s")
    assert pid_alive(st["pid"]) and Path(st["workspace"]).is_dir()
    r = fdegym("episode", "stop", "s")
    assert r.returncode == 0, r.stderr
    after = _state(home, "s")
    assert after["state"] == "stopped" and after["result"] is None
    assert not pid_alive(st["pid"]) and not Path(st["workspace"]).exists()
    assert not (home / "s" / "sock").exists()
    assert not (tmp_path / "episodes" / "s" / "result.json").exists()  # nothing was submitted
    r = fdegym("episode", "act", "s", '{"tool": "list_files"}')
    assert r.returncode == 1 and "stopped without submitting" in r.stderr
    r = fdegym("episode", "list")
    assert r.returncode == 0 and r.stdout.split()[:3] == ["s", "stopped", "news_incident"]


def test_stop_submit_grades(fdegym, tmp_path):
    assert fdegym("episode", "start", "sub", "news_incident").returncode == 0
    r = fdegym("episode", "stop", "sub", "--submit")
    assert r.returncode == 0 and "== result ==" in r.stdout
    assert json.loads((tmp_path / "episodes" / "sub" / "result.json").read_text())["end_reason"] == "submitted"


def test_idle_timeout_drops_the_episode(fdegym):
    assert fdegym("episode", "start", "idle", "news_incident", "--idle-timeout", "2").returncode == 0
    st = _state(Path(os.environ["FDEGYM_EPISODES_HOME"]), "idle")
    from fdegym_env.serving.episode_daemon import wait_exit
    assert wait_exit(st["pid"], timeout=30)
    after = _state(Path(os.environ["FDEGYM_EPISODES_HOME"]), "idle")
    assert after["state"] == "expired" and not Path(st["workspace"]).exists()


def test_a_shell_episode_has_no_wall_clock_limit_unless_asked_and_then_states_it(fdegym):
    r = fdegym("episode", "start", "slow", "news_incident")
    assert r.returncode == 0, r.stderr
    assert "It ends after" in r.stdout and "wall-clock" not in r.stdout     # thinking time is the player's own
    fdegym("episode", "stop", "slow")
    r = fdegym("episode", "start", "timed", "news_incident", "--max-wall-seconds", "5400")
    assert r.returncode == 0, r.stderr
    assert "It also ends once 1h30 (hours and minutes) of real, wall-clock time have passed" in r.stdout
    fdegym("episode", "stop", "timed")


def test_every_action_form_is_listed_and_each_listed_form_parses(fdegym):
    from fdegym_env.core.actions import TOOLS, parse_action
    r = fdegym("episode", "tools")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(TOOLS)
    for tool, line in zip(TOOLS, lines):
        form = json.loads(line.split("}", 1)[0].replace("<string>", '"x"').replace("<number>", "1") + "}")
        assert parse_action(form).tool == tool.name            # the printed form is a valid action
        for arg in tool.args:
            assert arg.name in line, (tool.name, arg.name)      # every argument, optional ones too


def test_start_points_to_the_action_forms(fdegym):
    r = fdegym("episode", "start", "ep", "helpdesk_tutorial", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert '"old": <string>, "new": <string>' in r.stderr and "fdegym episode tools" in r.stderr
    fdegym("episode", "stop", "ep")
