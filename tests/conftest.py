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
    from fdegym_env.admission.validate import validate_task
    from fdegym_env.core.registry import load_task
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


def pytest_configure(config):
    """One token for this test run, inherited by xdist workers and every subprocess: the owner marker
    of each folder the run creates carries it (fdegym_env.core.owned), whatever other runs share the folder."""
    import secrets

    from fdegym_env.core.owned import RUN_TOKEN_ENV
    os.environ.setdefault(RUN_TOKEN_ENV, "pytest-" + secrets.token_hex(6))


LEFTOVER_GRACE_S = 60.0   # processes of the run still exiting (xdist workers, servers, episode daemons) clean up meanwhile


def run_leftovers(wait_s: float = LEFTOVER_GRACE_S) -> list[Path]:
    """The fdegym folders this run's processes left in the episode and scratch folders (``/dev/shm``)."""
    import tempfile
    import time

    from fdegym_env.core.owned import RUN_TOKEN_ENV, left_by_run
    from fdegym_env.core.paths import episodes_dir, scratch_dir
    token = os.environ.get(RUN_TOKEN_ENV)
    if not token:
        return []
    deadline = time.monotonic() + wait_s
    while True:
        left = sorted({p for parent in {episodes_dir(), scratch_dir(), Path(tempfile.gettempdir())}
                       for p in left_by_run(parent, token)})
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.5)


def pytest_sessionfinish(session, exitstatus):
    """Fail the run if it left fdegym folders behind (only the controller checks, after its workers)."""
    if hasattr(session.config, "workerinput") or os.environ.get("FDEGYM_SKIP_LEFTOVER_CHECK") == "1":
        return
    from fdegym_env.core.owned import read_marker, release_all, sweep_dead
    from fdegym_env.grading.grade import _POOL
    _POOL.close()
    release_all()   # this process's own, as its exit would
    left = run_leftovers()
    if left:
        tw = session.config.get_terminal_writer()
        tw.line("")
        tw.line(
            f"fdegym leftovers: this test run left {len(left)} folder(s) behind: "
            + ", ".join(f"{p} (owner {(read_marker(p) or {}).get('pid')})" for p in left[:10]) + " (fix: close every env, deployment and server a test "
            "opens; a process that dies mid-episode must be swept with fdegym_env.core.owned.sweep_dead)", red=True)
        for parent in {p.parent for p in left}:
            sweep_dead(parent)
        if session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
