"""The type checker passes over fdegym_env/, wrappers/ and agents/ ([tool.mypy] in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]'); the type check did not run")


@pytest.mark.slow
def test_mypy_is_clean():
    out = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"mypy found type errors (exit {out.returncode}):\n{out.stdout}{out.stderr}"
