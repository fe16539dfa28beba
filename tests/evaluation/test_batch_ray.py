"""The Ray backend on a local Ray with 2 CPUs: the same per-run scores as the local pool; a run that
kills its Ray worker is retried once and recorded, its bystanders are not touched."""

from __future__ import annotations

import json

import pytest

from fdegym_env.core import owned
from fdegym_env.core.paths import episodes_dir, scratch_dir
from fdegym_env.evaluation.batch import BatchSpec, RayBackend, run_batch
from tests.conftest import TINY
from tests.evaluation.helpers_batch import SANDBOX, crashing_task, lines, scores_by_run

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'fdegym[ray]'); the Ray backend is "
                                        "NOT tested in this run")


@pytest.fixture(scope="module")
def ray_backend():
    be = RayBackend(workers=2)  # starts a local Ray with num_cpus=2
    assert ray.cluster_resources().get("CPU") == 2
    yield be
    be.close()
    assert not ray.is_initialized()
    # the workers' cached deployments die with them after ray.shutdown(); close() waits and sweeps them
    assert be.batch_tokens
    for token in be.batch_tokens:
        assert owned.left_by_run(episodes_dir(), token) + owned.left_by_run(scratch_dir(), token) == []


def test_ray_matches_local_scores(tmp_path, ray_backend):
    spec = BatchSpec(agents=["do-nothing", "literal", "reference", "random"], tasks=[TINY], levels=["L3"],
                     variants="base,high", repeats=2, sandbox=SANDBOX)
    s_ray = run_batch(spec, tmp_path / "ray", workers=2, backend=ray_backend)
    assert (s_ray.done, s_ray.failed) == (16, 0)
    s_loc = run_batch(spec, tmp_path / "local", workers=2, backend="local")
    assert (s_loc.done, s_loc.failed) == (16, 0)
    ray_scores, local_scores = scores_by_run(tmp_path / "ray"), scores_by_run(tmp_path / "local")
    assert ray_scores == local_scores  # exactly: seeded episodes are deterministic wherever they run
    assert any(v < 0 for v in ray_scores.values())  # random's contact costs make the comparison non-trivial
    assert {r["backend"] for r in lines(tmp_path / "ray" / "results.jsonl")} == {"ray"}
    # resume works the same on Ray: nothing left to do
    again = run_batch(spec, tmp_path / "ray", workers=2, backend=ray_backend)
    assert (again.skipped, again.done) == (16, 0)


def test_ray_worker_death_is_retried_and_recorded(tmp_path, ray_backend):
    task = crashing_task(tmp_path)
    spec = BatchSpec(agents=["solution:crash", "reference", "do-nothing"], tasks=[task], sandbox=SANDBOX)
    s = run_batch(spec, tmp_path / "out", workers=2, backend=ray_backend)
    assert (s.done, s.failed, s.retried) == (2, 1, 1)
    fails = lines(tmp_path / "out" / "failures.jsonl")
    assert [(f["agent"], f["attempt"], f["final"]) for f in fails] == [("solution:crash", 1, False),
                                                                     ("solution:crash", 2, True)]
    assert "ray worker failed" in fails[0]["error"]
    assert sorted(r["agent"] for r in lines(tmp_path / "out" / "results.jsonl")) == ["do-nothing", "reference"]
    # the crashed Ray workers' folders were swept at the end (their owner markers carry the batch's token)
    token = json.loads((tmp_path / "out" / "batch.json").read_text())["run_token"]
    assert owned.left_by_run(episodes_dir(), token) + owned.left_by_run(scratch_dir(), token) == []
