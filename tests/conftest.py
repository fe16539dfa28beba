"""Shared fixtures: every registered task, plus the tiny fixture task used by fast tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import fdegym_env  # noqa: F401  (registers the FDEGym ids)
from fdegym_env.registry import list_tasks

HERE = Path(__file__).parent
TINY = str(HERE / "fixtures" / "tiny_task")


def task_params(include_tiny: bool = True):
    ids = list_tasks()
    out = [pytest.param(t, id=t) for t in ids]
    if include_tiny:
        out.append(pytest.param(TINY, id="tiny_task"))
    return out


@pytest.fixture(autouse=True, scope="session")
def _quiet_sandbox_warnings():
    os.environ.setdefault("FDEGYM_TEST", "1")
    yield
