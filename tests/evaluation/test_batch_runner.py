"""The batch runner: planning, the results file, retries of failed runs and dead workers, resume."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from fdegym_env.core import owned
from fdegym_env.core.paths import episodes_dir, scratch_dir
from fdegym_env.core.registry import list_tasks, load_task
from fdegym_env.evaluation.batch import (
    BatchSpec,
    LocalBackend,
    ResultsFile,
    load_results,
    plan_runs,
    resolve_variants,
    run_batch,
)
from tests.conftest import TINY, task_params
from tests.evaluation.helpers_batch import REPO, SANDBOX, cli, crashing_task, lines, semaphores_of_group

AGENTS4 = ["do-nothing", "literal", "reference", "random"]


def test_plan_is_round_by_round():
    runs = plan_runs(BatchSpec(agents=AGENTS4, tasks=[TINY], levels=["L0", "L3"], variants="base,high", repeats=3))
    assert len(runs) == 4 * 2 * 2 * 3
    assert [r.repeat for r in runs] == sorted(r.repeat for r in runs), "a repeat started before a round finished"
    configs = {(r.agent, r.task, r.level, r.variant) for r in runs}
    for rep in range(3):
        assert {(r.agent, r.task, r.level, r.variant) for r in runs if r.repeat == rep} == configs
    assert {r.seed for r in runs if r.repeat == 1} == {1}  # same seed for every agent in a round
    assert len({r.run_id for r in runs}) == len(runs)
    assert runs[0].run_id == "do-nothing|tiny_task|L0|base|r0|s0"
    assert os.path.isabs(runs[0].task)  # workers elsewhere get an absolute task path


@pytest.mark.parametrize("task", task_params())
def test_variants_all_and_named(task):
    t = load_task(task)
    assert resolve_variants(task, "all") == list(t.variants)
    if len(t.variants) > 1:
        assert resolve_variants(task, "named") == [n for n in t.variants if n != "base"]
    if t.has_sampler:
        assert resolve_variants(task, "sample:3") == ["sample:0", "sample:1", "sample:2"]
    else:
        with pytest.raises(ValueError, match="has no sampler.py.*fix:"):
            resolve_variants(task, "sample:3")


def test_bad_arguments_say_what_to_do():
    with pytest.raises(ValueError, match="Did you mean 'reference'"):
        plan_runs(BatchSpec(agents=["refrence"], tasks=[TINY]))
    with pytest.raises(ValueError, match="Did you mean 'high'"):
        plan_runs(BatchSpec(agents=["reference"], tasks=[TINY], variants="hihg"))
    with pytest.raises(ValueError, match=r"no variant 'nmed'\. Did you mean 'named'\? Expected all, named, sample:N "
                                         r"or a comma-separated list of: base, "):
        plan_runs(BatchSpec(agents=["reference"], tasks=[TINY], variants="nmed"))
    with pytest.raises(ValueError, match="level must be one of"):
        plan_runs(BatchSpec(agents=["reference"], tasks=[TINY], levels=["L9"]))
    with pytest.raises(ValueError, match="Unknown task"):
        plan_runs(BatchSpec(agents=["reference"], tasks=["no_such_task_here"]))
    assert len(plan_runs(BatchSpec(agents=["reference"], tasks=["all"]))) == len(list_tasks())


def test_results_file_repairs_a_torn_last_line(tmp_path):
    p = tmp_path / "results.jsonl"
    p.write_text('{"run_id": "a", "score": 1}\n{"run_id": "b", "sco')
    assert [r["run_id"] for r in load_results(p)] == ["a"]  # the torn tail is not a result
    f = ResultsFile(p)
    f.append({"run_id": "c", "score": 0})
    f.close()
    assert [r["run_id"] for r in lines(p)] == ["a", "c"]
    p.write_text('{"run_id": "a"}\nnot json\n{"run_id": "b"}\n')
    with pytest.raises(ValueError, match=r"results.jsonl:2: not a JSON line"):
        load_results(p)


def test_local_batch_results_and_skip(tmp_path):
    spec = BatchSpec(agents=AGENTS4, tasks=[TINY], repeats=2, sandbox=SANDBOX)
    s = run_batch(spec, tmp_path, workers=2)
    assert (s.planned, s.done, s.failed, s.skipped) == (8, 8, 0, 0)
    recs = lines(tmp_path / "results.jsonl")
    assert len(recs) == 8
    need = {"task", "variant", "level", "seed", "agent", "score", "uplift", "uplift_bounded", "contact_cost",
            "incidents", "resolved", "end_reason", "turns", "key_fact_coverage", "facts_obtained",
            "questions_asked", "kpi", "kpi_baseline", "kpi_reference", "isolation",
            "run_id", "agent_spec", "repeat", "round", "wall_seconds", "started", "finished", "usage", "worker",
            "backend", "attempt"}
    for r in recs:
        assert need <= set(r), need - set(r)
        assert r["wall_seconds"] > 0 and r["backend"] == "local"
    by = {r["run_id"]: r for r in recs}
    assert by["reference|tiny_task|L3|base|r0|s0"]["score"] == pytest.approx(1.0)
    assert by["do-nothing|tiny_task|L3|base|r1|s1"]["score"] == 0.0
    assert [r["repeat"] for r in recs].count(0) == 4
    manifest = json.loads((tmp_path / "batch.json").read_text())
    assert manifest["planned_runs"] == 8 and manifest["spec"]["agents"] == AGENTS4
    again = run_batch(spec, tmp_path, workers=2)
    assert (again.skipped, again.done) == (8, 0)
    assert len(lines(tmp_path / "results.jsonl")) == 8
    with pytest.raises(ValueError, match="was run with router=None, this batch has router='regex'.*fix:"):
        run_batch(BatchSpec(agents=AGENTS4, tasks=[TINY], repeats=2, sandbox=SANDBOX, router="regex"), tmp_path)


def test_failures_are_retried_once_and_recorded(tmp_path):
    task = crashing_task(tmp_path)
    spec = BatchSpec(agents=["solution:boom", "solution:crash", "reference", "do-nothing"], tasks=[task],
                     repeats=1, sandbox=SANDBOX)
    out = tmp_path / "out"
    s = run_batch(spec, out, workers=2)
    assert (s.done, s.failed, s.retried) == (2, 2, 2)
    assert sorted(r["agent"] for r in lines(out / "results.jsonl")) == ["do-nothing", "reference"]
    fails = lines(out / "failures.jsonl")
    by = {}
    for f in fails:
        by.setdefault(f["agent"], []).append(f)
    assert sorted(by) == ["solution:boom", "solution:crash"], "a bystander of a dead worker was charged"
    for fs in by.values():
        assert [f["attempt"] for f in fs] == [1, 2] and [f["final"] for f in fs] == [False, True]
    assert "boom on purpose" in by["solution:boom"][0]["error"]
    assert "died" in by["solution:crash"][-1]["error"]
    token = json.loads((out / "batch.json").read_text())["run_token"]
    assert token.startswith(os.environ[owned.RUN_TOKEN_ENV] + "/batch-")
    left = owned.left_by_run(episodes_dir(), token) + owned.left_by_run(scratch_dir(), token)
    assert left == [], ("a worker that died mid-episode left its workspace behind", [owned.read_marker(p) for p in left])
    # not done: a re-run tries them again (and only them)
    s2 = run_batch(spec, out, workers=1)
    assert (s2.skipped, s2.done, s2.failed) == (2, 0, 2)


def test_cli_bench_dry_run_and_errors(tmp_path):
    r = cli("bench", "--agents", "reference,do-nothing", "--tasks", TINY, "--repeats", "2", "--out",
            str(tmp_path), "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "4 runs, 0 already done" in r.stdout
    assert r.stdout.index("|r0|s0") < r.stdout.index("|r1|s1")
    r = cli("bench", "--agents", "refrence", "--tasks", TINY, "--out", str(tmp_path))
    assert r.returncode == 2 and "Did you mean 'reference'" in r.stderr
    r = cli("bench", "--agents", "reference", "--tasks", TINY, "--out", str(tmp_path), "--ray-address", "auto")
    assert r.returncode == 2 and "--ray-address needs --backend ray" in r.stderr


def _kill_midway_then_resume(out, args, planned, timeout):
    """Start `fdegym bench ARGS`, SIGKILL its process group once >= 2 runs are written, re-run it."""
    cmd = [sys.executable, "-m", "fdegym_env.cli.main", "bench", *args, "--out", str(out)]
    workdir = tempfile.mkdtemp(prefix="fdegym-batch-kill-")  # workspaces a kill leaves behind land here
    os.chmod(workdir, 0o755)  # the sandbox uid must traverse to the workspaces (pytest's tmp_path is 0700)
    work = {"FDEGYM_WORKDIR": workdir}
    try:
        return _kill_and_resume(out, args, planned, timeout, cmd, work)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _kill_and_resume(out, args, planned, timeout, cmd, work):
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, **work})
    res = out / "results.jsonl"
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if res.exists() and len(res.read_text().splitlines()) >= 2:
                break
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            held = semaphores_of_group(proc.pid)
            os.killpg(proc.pid, signal.SIGKILL)  # the whole batch: driver and its workers
            for sem in held:   # the resource tracker that unlinks them at exit was killed too
                Path(sem).unlink(missing_ok=True)
        proc.wait(timeout=30)
    first = res.read_text().splitlines() if res.exists() else []
    assert 2 <= len(first) < planned, (f"expected the batch to be killed mid-way, got {len(first)}/{planned} runs; "
                                       f"exit {proc.returncode}, stderr: {proc.stderr.read().decode()[-2000:]}")
    with open(res, "a") as f:  # and a torn write, as a kill during a write leaves it
        f.write('{"run_id": "reference|half')
    r = cli("bench", *args, "--out", str(out), timeout=timeout, env=work)
    assert r.returncode == 0, r.stderr[-3000:]
    assert f"{planned} runs planned, {len(first)} already done, {planned - len(first)} run now, 0 failed" in r.stdout
    after = res.read_text().splitlines()
    assert after[:len(first)] == first, "finished runs were rewritten"
    ids = [json.loads(x)["run_id"] for x in after]
    assert len(ids) == len(set(ids)) == planned, "a finished run was redone or a run is missing"
    return [json.loads(x) for x in after]


def test_killed_batch_resumes_without_redoing_runs(tmp_path):
    args = ["--agents", ",".join(AGENTS4), "--tasks", TINY, "--levels", "L3", "--repeats", "3", "--workers", "2",
            "--sandbox", SANDBOX]
    recs = _kill_midway_then_resume(tmp_path, args, planned=12, timeout=300)
    assert {r["repeat"] for r in recs} == {0, 1, 2}


@pytest.mark.slow
def test_all_tasks_bench_kill_resume_and_report(tmp_path):
    """The issue's acceptance line, on every registered task (several minutes)."""
    assert list_tasks(), "no task is registered under fdegym_env/tasks/"
    planned = 4 * len(list_tasks()) * 2
    args = ["--agents", ",".join(AGENTS4), "--tasks", "all", "--levels", "L3", "--repeats", "2", "--workers", "2",
            "--sandbox", SANDBOX]
    _kill_midway_then_resume(tmp_path, args, planned=planned, timeout=1800)
    r = cli("report", str(tmp_path), "--json", "--plot", str(tmp_path / "plot.png"))
    assert r.returncode == 0, r.stderr
    table = {row["agent"]: row for row in json.loads(r.stdout)["table"]}
    assert table["reference"]["mean_score"] == pytest.approx(1.0, abs=0.05)
    assert table["do-nothing"]["mean_score"] == 0.0
    assert table["literal"]["mean_score"] <= 0.2
    assert (tmp_path / "plot.png").stat().st_size > 20_000


def test_local_backend_rejects_zero_workers():
    with pytest.raises(ValueError, match="workers must be >= 1"):
        LocalBackend(0)
