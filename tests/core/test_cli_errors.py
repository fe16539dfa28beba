"""Wrong input to the CLI is a clear error naming the fix, with a non-zero exit and no traceback;
and what looks like success is one (a copied task runs the copy, doctor names what ``auto`` uses)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
import yaml

from fdegym_env.cli.main import main
from fdegym_env.core.registry import task_paths
from tests.conftest import TINY


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as e:   # argparse refusals
        code = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, err
    return code, out, err


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "ep.jsonl"
    assert main(["run", TINY, "--agent", "reference", "--record", str(path), "--json"]) == 0
    return path


def test_negative_seed_is_refused(capsys):
    code, _, err = _cli(capsys, "run", TINY, "--agent", "do-nothing", "--seed", "-5")
    assert code == 2 and "expected a seed from 0 to" in err and "got -5" in err


def test_bench_out_that_is_a_file_is_refused(capsys, tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    code, _, err = _cli(capsys, "bench", "--agents", "do-nothing", "--tasks", TINY, "--out", str(f))
    assert code == 2 and "--out expects a folder, got the file" in err


def test_record_into_a_folder_is_refused(capsys, tmp_path):
    code, _, err = _cli(capsys, "run", TINY, "--agent", "do-nothing", "--record", str(tmp_path))
    assert code == 2 and "--record expects a file path, got the folder" in err


def test_schema_out_that_is_a_file_is_refused(capsys, tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    code, _, err = _cli(capsys, "schema", "--out", str(f))
    assert code == 2 and "--out expects a folder" in err


@pytest.mark.parametrize("option", ["--tasks", "--agents"])
def test_bench_with_an_empty_list_is_refused(capsys, tmp_path, option):
    args = {"--tasks": TINY, "--agents": "do-nothing"}
    args[option] = ""
    code, _, err = _cli(capsys, "bench", "--agents", args["--agents"], "--tasks", args["--tasks"],
                        "--out", str(tmp_path / "b"))
    assert code == 2 and f"{option} is empty" in err


def _damaged(recording: Path, tmp_path: Path, edit) -> Path:
    lines = recording.read_text().splitlines()
    out = tmp_path / "damaged.jsonl"
    out.write_text("\n".join(edit(lines)) + "\n")
    return out


@pytest.mark.parametrize("command", ["show", "replay"])
@pytest.mark.parametrize("damage, message", [
    (lambda ls: [ls[0], "[1, 2]", *ls[1:]], ":2: expected a JSON object, got a JSON list"),
    (lambda ls: [ls[0], json.dumps({k: v for k, v in json.loads(ls[1]).items() if k != "reward"}), *ls[2:]],
     ":2: a 'step' line needs 'reward', got missing"),
    (lambda ls: [json.dumps({k: v for k, v in json.loads(ls[0]).items() if k != "observation"}), *ls[1:]],
     ":1: a 'reset' line needs 'observation', got missing"),
], ids=["list-line", "step-without-reward", "reset-without-observation"])
def test_damaged_recordings_are_errors(capsys, tmp_path, recording, command, damage, message):
    code, _, err = _cli(capsys, command, str(_damaged(recording, tmp_path, damage)))
    assert code == 2 and message in err and "re-record" in err


def test_replay_of_a_recording_naming_a_missing_task_is_an_error(capsys, tmp_path, recording):
    def rename(lines):
        head = json.loads(lines[0])
        head["task"] = "no_such_task"
        return [json.dumps(head), *lines[1:]]
    code, out, err = _cli(capsys, "replay", str(_damaged(recording, tmp_path, rename)))
    assert code == 2 and "names task 'no_such_task', which does not exist" in err
    assert "REPRODUCED" not in out
    code, out, _ = _cli(capsys, "replay", str(recording))
    assert code == 0 and "REPRODUCED" in out


def test_a_copied_task_folder_that_keeps_its_id_runs_the_copy(capsys, tmp_path):
    copy = tmp_path / "helpdesk_tutorial"
    shutil.copytree(task_paths()["helpdesk_tutorial"], copy)
    data = yaml.safe_load((copy / "task.yaml").read_text())
    data["limits"]["max_turns"] = 2
    (copy / "task.yaml").write_text(yaml.safe_dump(data))
    code, out, _ = _cli(capsys, "run", str(copy), "--agent", "random", "--seed", "1", "--json")
    result = json.loads(out)
    assert code == 0 and result["turns"] <= 2, result["turns"]


def test_llm_agent_against_a_refused_port_fails_fast(capsys):
    pytest.importorskip("openai")
    t0 = time.monotonic()
    code, out, err = _cli(capsys, "run", TINY, "--agent", "llm", "--model", "m", "--base-url", "http://127.0.0.1:9/v1")
    assert code == 2 and "connection refused" in err and "--base-url" in err, err
    assert time.monotonic() - t0 < 30 and "score" not in out


def test_doctor_reports_what_auto_uses_when_a_check_fails(capsys, monkeypatch):
    from fdegym_env.cli import sandbox as cli_sandbox
    from fdegym_env.sandbox import probes

    def one_fails(backend, names=None):
        return [{"name": "ports", "ok": False, "detail": "broken on purpose"},
                {"name": "clean_env", "ok": True, "detail": ""}]
    monkeypatch.setattr(probes, "run_probes", one_fails)
    monkeypatch.setattr(cli_sandbox, "doctor_report", cli_sandbox.doctor_report)
    code, out, _ = _cli(capsys, "doctor", "--backend", "bwrap")
    assert code == 1
    assert "sandbox='auto' uses: bwrap, although 1 of its checks failed (ports)" in out
    code, out, _ = _cli(capsys, "doctor", "--backend", "bwrap", "--json")
    report = json.loads(out)
    assert report["auto"] == "bwrap" and report["auto_failed_probes"] == ["ports"] and not report["ok"]


@pytest.mark.parametrize("command", [["run"], ["bench"], ["mcp"], ["episode", "start"]])
def test_every_command_taking_a_router_offers_every_router(capsys, command):
    """The default router (semantic) and every other one can be named wherever --router is taken."""
    import fdegym_env.people  # noqa: F401  (registers the semantic and llm routers)
    from fdegym_env.people.routers import DEFAULT_ROUTER, ROUTER_KINDS, ROUTER_NAMES
    assert set(ROUTER_NAMES) == set(ROUTER_KINDS) and DEFAULT_ROUTER in ROUTER_NAMES
    code, out, _ = _cli(capsys, *command, "--help")
    assert code == 0 and "{" + ",".join(ROUTER_NAMES) + "}" in out.replace("\n", "").replace(" ", "")


def test_an_episode_status_with_an_odd_state_is_reported_not_raised(capsys):
    from fdegym_env.cli.episode import _ended_notice
    assert _ended_notice("ep1", {"state": ["odd"], "dir": "/x"}) == 1   # a damaged status file
    assert "episode ep1 is ['odd']. Transcript: /x" in capsys.readouterr().err
