"""`fdegym report`: bootstrap CIs, the Table 3 rows, per-scenario table, JSON/Markdown and the plot."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fdegym_env.evaluation.batch import BatchSpec, run_batch
from fdegym_env.evaluation.report import bootstrap_ci, build_report, format_report, latest_results, summarize
from tests.conftest import TINY
from tests.evaluation.helpers_batch import SANDBOX, cli


def _row(**kw):
    base = {"agent": "a", "level": "L3", "task": "t", "score": 0.0, "uplift": 0.0, "contact_cost": 0.0,
            "resolved": False, "incidents": [], "wall_seconds": 1.0}
    return {**base, **kw}


def test_bootstrap_ci_properties():
    x = [0.0, 0.2, 0.5, 0.9, 1.0, 1.0, 0.3, 0.7]
    lo, hi = bootstrap_ci(x)
    assert lo < np.mean(x) < hi
    assert (lo, hi) == bootstrap_ci(x)  # seeded: the same data gives the same interval
    lo90, hi90 = bootstrap_ci(x, level=0.90)
    assert lo <= lo90 and hi90 <= hi
    assert bootstrap_ci([0.4]) == (0.4, 0.4)
    assert bootstrap_ci([1.0, 1.0, 1.0]) == (1.0, 1.0)
    assert all(np.isnan(bootstrap_ci([])))
    # against the normal approximation on a large sample
    rng = np.random.default_rng(1)
    big = rng.normal(0.5, 0.2, 400)
    lo, hi = bootstrap_ci(big)
    half = 1.96 * big.std(ddof=1) / np.sqrt(big.size)
    assert lo == pytest.approx(big.mean() - half, abs=0.006) and hi == pytest.approx(big.mean() + half, abs=0.006)


def test_summary_columns():
    rows = [_row(agent="x", score=0.95, uplift=1.0, contact_cost=0.05, resolved=True, task="t1"),
            _row(agent="x", score=-0.3, uplift=-0.2, contact_cost=0.1, task="t2"),
            _row(agent="x", score=0.0, uplift=0.0, incidents=["boom"], task="t1"),
            _row(agent="x", score=-1.0, uplift=-3.0, task="t2"),   # U bounded at -1 before cost
            _row(agent="y", level="L0", score=0.5, uplift=0.5)]
    t = summarize(rows)
    assert [(r["agent"], r["level"]) for r in t] == [("x", "L3"), ("y", "L0")]
    x = t[0]
    assert x["runs"] == 4 and x["tasks"] == 2
    assert x["mean_score"] == pytest.approx((0.95 - 0.3 + 0.0 - 1.0) / 4)
    assert x["mean_uplift"] == pytest.approx((1.0 - 0.2 + 0.0 - 1.0) / 4)
    assert x["mean_contact_cost"] == pytest.approx(0.15 / 4)
    assert (x["resolved"], x["below_do_nothing"], x["with_incident"]) == (1, 2, 1)
    assert x["ci_low"] <= x["mean_score"] <= x["ci_high"]


def test_latest_result_per_run_wins():
    rs = [{"run_id": "a", "score": 0.1}, {"run_id": "b", "score": 0.2}, {"run_id": "a", "score": 0.9}]
    assert latest_results(rs) == [{"run_id": "a", "score": 0.9}, {"run_id": "b", "score": 0.2}]


@pytest.fixture(scope="module")
def bench_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench")
    spec = BatchSpec(agents=["do-nothing", "literal", "reference", "random"], tasks=[TINY], levels=["L3"],
                     variants="base,high", repeats=2, sandbox=SANDBOX)
    s = run_batch(spec, out, workers=2)
    assert s.done == 16 and s.failed == 0
    return out


def test_report_text_markdown_json(bench_dir):
    r = cli("report", str(bench_dir))
    assert r.returncode == 0, r.stderr
    assert "mean score [95% CI]" in r.stdout and "Per scenario" in r.stdout
    line = next(x for x in r.stdout.splitlines() if x.startswith("reference "))
    assert "+1.000 [+1.000, +1.000]" in line and "4/4" in line
    md = cli("report", str(bench_dir), "--markdown").stdout
    assert "| agent | level | runs |" in md and "| tiny_task |" in md
    data = json.loads(cli("report", str(bench_dir), "--json").stdout)
    table = {row["agent"]: row for row in data["table"]}
    assert table["reference"]["mean_score"] == pytest.approx(1.0)
    assert table["do-nothing"]["mean_score"] == 0.0
    assert table["literal"]["mean_score"] <= 0.2
    assert table["random"]["runs"] == 4 and "results" not in data
    assert data["per_scenario"]["rows"][0]["cells"]["reference"]["n"] == 4
    rep = build_report(bench_dir)
    assert format_report(rep).startswith("Results: 16 runs")


def test_report_plot_is_a_real_picture(bench_dir):
    png = bench_dir / "plot.png"
    r = cli("report", str(bench_dir), "--plot", str(png))
    assert r.returncode == 0, r.stderr
    assert f"plot written to {png}" in r.stdout
    import matplotlib.image as mpimg
    img = mpimg.imread(png)
    assert img.shape[0] > 400 and img.shape[1] > 1000
    assert img[..., :3].std() > 0.05  # not a blank canvas
    # the reference bar reaches 1.0 and is drawn in colour somewhere in the right half
    assert (np.abs(img[:, img.shape[1] // 2:, :3] - img[0, 0, :3]).sum(axis=-1) > 0.3).mean() > 0.02


def test_report_errors_say_what_is_expected(tmp_path):
    r = cli("report", str(tmp_path))
    assert r.returncode == 2 and "expected the --out folder of `fdegym bench`" in r.stderr
    (tmp_path / "results.jsonl").write_text("")
    r = cli("report", str(tmp_path))
    assert r.returncode == 2 and "holds no results yet" in r.stderr


def _synthetic(tmp_path, n):
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        from bench_report import write_results
    finally:
        sys.path.pop(0)
    return write_results(tmp_path / "b", n)


def test_bootstrap_resamples_within_task():
    # two tasks, no variation inside either: every stratified resample has the same mean
    assert bootstrap_ci([0.0] * 5 + [1.0] * 15, strata=["a"] * 5 + ["b"] * 15) == (0.75, 0.75)
    # i.i.d. resampling would move the task mix and give a wide interval
    lo, hi = bootstrap_ci([0.0] * 5 + [1.0] * 15)
    assert hi - lo > 0.2
    # stratified: only the within-task spread counts
    vals = [0.0, 0.2] * 10 + [0.9, 1.0] * 10
    lo_s, hi_s = bootstrap_ci(vals, strata=["a"] * 20 + ["b"] * 20)
    lo_i, hi_i = bootstrap_ci(vals)
    assert lo_s <= float(np.mean(vals)) <= hi_s and hi_s - lo_s < (hi_i - lo_i) / 2
    with pytest.raises(ValueError, match="one label per value"):
        bootstrap_ci([1.0, 2.0], strata=["a"])


def test_bootstrap_memory_is_capped():
    import tracemalloc
    x = np.random.default_rng(0).random(20_000)
    tracemalloc.start()
    bootstrap_ci(x, strata=[i % 5 for i in range(x.size)])
    bootstrap_ci(x)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # n_boot x n indices would be 5,000 x 20,000 x 8 bytes = 800 MB
    assert peak < 40e6, f"bootstrap peak {peak / 1e6:.0f} MB"


def test_report_header_names_the_ci_level_used(tmp_path):
    folder = _synthetic(tmp_path, 400)
    rep = build_report(folder, level=0.9)
    text = format_report(rep)
    assert "mean score [90% CI]" in text and "95%" not in text
    assert "CI = 90% percentile bootstrap" in text
    assert "mean score [97.5% CI]" in format_report(build_report(folder, level=0.975), markdown=True)


def test_report_scales_linearly(tmp_path):
    # per_scenario used to rescan every result for every result: 4x the rows took 16x the time
    import time

    from fdegym_env.evaluation.report import per_scenario
    results = [_row(agent=f"a{i % 4}", level=f"L{(i // 4) % 2}", task=f"t{i % 5}", score=0.1) for i in range(40_000)]
    t0 = time.process_time()
    ps = per_scenario(results)
    took = time.process_time() - t0
    assert len(ps["rows"]) == 5 and len(ps["configs"]) == 8
    assert took < 2.0, f"per_scenario on 40,000 rows took {took:.1f} s CPU"


def test_plot_survives_an_interval_that_excludes_the_mean(tmp_path):
    """A stratified bootstrap interval need not contain the pooled mean; the error bar is clipped."""
    from fdegym_env.evaluation.report import plot_report
    rows = [_row(task="t1", score=1.0, uplift=1.0), _row(task="t1", score=1.0, uplift=1.0),
            _row(task="t2", score=0.0), _row(task="t2", score=0.0), _row(task="t2", score=0.0)]
    table = summarize(rows)
    table[0]["ci_low"], table[0]["ci_high"] = table[0]["mean_score"] + 0.1, table[0]["mean_score"] + 0.2
    from fdegym_env.evaluation.report import per_scenario
    rep = {"results": rows, "runs": len(rows), "table": table, "per_scenario": per_scenario(rows), "ci_level": 0.95}
    path = plot_report(rep, tmp_path / "p.png")
    assert path.stat().st_size > 1000


def test_report_says_when_single_runs_make_a_zero_width_ci(tmp_path):
    # one run per scenario: the stratified bootstrap has nothing to resample, so [-0.5, -0.5] is not certainty
    def write(rows):
        path = tmp_path / f"r{len(rows)}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        return build_report(path)
    thin = write([_row(agent="literal", task="t1", score=-1.0), _row(agent="literal", task="t2", score=0.0),
                  _row(agent="ref", task="t1", score=1.0), _row(agent="ref", task="t1", score=0.9)])
    row = thin["table"][0]
    assert (row["ci_low"], row["ci_high"], row["single_run_tasks"]) == (-0.5, -0.5, 2)
    text = format_report(thin)
    assert "Note: scenarios with a single run add nothing to the CI (literal L3: 2 of 2)" in text
    assert "ref L3" not in text.split("Note:")[1].split("\n")[0]
    assert "--repeats 2" in text
    full = write([_row(agent="a", task=t, score=s) for t in ("t1", "t2") for s in (0.0, 1.0)] + [_row(agent="a", task="t3")])
    assert "Note:" in format_report(full) and "a L3: 1 of 3" in format_report(full)
    assert "Note:" not in format_report(write([_row(agent="a", task="t1", score=s) for s in (0.0, 1.0)]))
    # a row whose runs all score the same (do-nothing) really has no spread: no note for it
    assert "Note:" not in format_report(write([_row(agent="do-nothing", task=t) for t in ("t1", "t2", "t3")]))


def test_report_on_a_recording_says_it_is_not_a_results_file(tmp_path):
    # `fdegym report run.jsonl` on a --record file used to end in KeyError: 'score'
    rec = tmp_path / "run.jsonl"
    rec.write_text(json.dumps({"type": "reset", "task": "t"}) + "\n")
    with pytest.raises(ValueError, match=r"run.jsonl: JSON line 1 is not a result \(no 'score'; got keys task, type\); "
                                         r"expected the results.jsonl of `fdegym bench`"):
        build_report(rec)
