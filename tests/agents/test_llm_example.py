"""Smoke test: examples/llm_agent.py --fake runs offline to a graded, replayable result."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fdegym_env.wrappers import replay

from tests.conftest import TINY

SANDBOX = os.environ.get("FDEGYM_TEST_SANDBOX", "auto")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llm_agent.py"


def _run(*argv, cwd):
    return subprocess.run([sys.executable, str(EXAMPLE), *argv], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_example_fake_runs_offline(tmp_path):
    rec = tmp_path / "run.jsonl"
    p = _run("--fake", "--task", TINY, "--sandbox", SANDBOX, "--record", str(rec), cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    last = json.loads(p.stdout.strip().splitlines()[-1])
    assert last["score"] == pytest.approx(0.99) and last["usd"] > 0
    assert "scripted model 'fdegym-fake'" in p.stdout and "resolved yes" in p.stdout
    assert replay(rec, sandbox=SANDBOX).ok


def test_example_without_model_says_how_to_fix(tmp_path):
    p = _run("--task", TINY, cwd=tmp_path)
    assert p.returncode == 2
    assert "give --model (and --base-url for a server other than OpenAI), or --fake" in p.stderr
    assert not (tmp_path / "llm_run.jsonl").exists()
