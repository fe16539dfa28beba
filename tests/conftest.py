"""Shared fixtures: every registered task, plus the tiny fixture task used by fast tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import fdegym_env  # noqa: F401  (registers the FDEGym ids)
from fdegym_env.core.registry import list_tasks

HERE = Path(__file__).parent
TINY = str(HERE / "fixtures" / "tiny_task")


def task_params(include_tiny: bool = True):
    ids = list_tasks()
    out = [pytest.param(t, id=t) for t in ids]
    if include_tiny:
        out.append(pytest.param(TINY, id="tiny_task"))
    return out


ADMISSION_SAMPLES = 5


@pytest.fixture(scope="session")
def admission():
    """``admission(task_id)`` -> the task's validate report, run once per task per test session:
    every named variant with the generic bypasses, plus ADMISSION_SAMPLES sampled variants for tasks
    with a sampler. Admission is the costliest thing the suite does; tests that check parts of it
    (named variants, samples, a solution kind) read this one report (``validate.subset``)."""
    from fdegym_env.core.registry import load_task
    from fdegym_env.admission.validate import validate_task
    reports = {}

    def get(task_id: str):
        if task_id not in reports:
            task = load_task(task_id)
            reports[task_id] = validate_task(task, samples=ADMISSION_SAMPLES if task.has_sampler else 0,
                                             progress=False)
        return reports[task_id]
    return get


@pytest.fixture(autouse=True, scope="session")
def _quiet_sandbox_warnings():
    os.environ.setdefault("FDEGYM_TEST", "1")
    yield
