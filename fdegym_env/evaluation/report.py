"""Tables and plots from a batch's results.jsonl, in the shape of the paper's Table 3 and Figures 5–8.

Per agent × level: runs, mean score with a bootstrap CI (95% unless ``level`` says otherwise;
resampled within each task, so every resample keeps the batch's mix of tasks), mean uplift before contact cost
(``max(-1, U)`` with the incident cap: score + contact cost), mean contact cost, resolved count
(score ≥ 0.8 and no incident), runs below the do-nothing baseline (score < 0). Per scenario: the
mean score of every agent × level. A plot: score against contact cost, and per-scenario bars.

Example:
    >>> from fdegym_env.evaluation.report import build_report, format_report
    >>> rep = build_report("/tmp/b")                 # doctest: +SKIP
    >>> print(format_report(rep, markdown=True))     # doctest: +SKIP
"""

from __future__ import annotations

import json
import math
from collections import Counter, OrderedDict
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from fdegym_env.evaluation.batch import FAILURES, RESULTS, load_results

N_BOOT = 5_000     # resamples: percentile error of a 95% interval well under its width
BOOT_CELLS = 1_000_000   # resampled indices held at once: the bootstrap's memory is capped at ~8 MB
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h", "<")
BELOW_EPS = 1e-9


def ci_label(level: float) -> str:
    """``0.95`` -> ``'95%'``, ``0.975`` -> ``'97.5%'``."""
    return f"{level * 100:.10g}%"


def _boot_means(x: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``n_boot`` means of resamples of ``x`` (with replacement), at most BOOT_CELLS indices at once."""
    out = np.empty(n_boot)
    chunk = max(1, BOOT_CELLS // x.size)
    dtype = np.uint16 if x.size <= 2 ** 16 else np.uint32 if x.size <= 2 ** 32 else np.int64  # fewer random bits
    for start in range(0, n_boot, chunk):
        k = min(chunk, n_boot - start)
        idx = rng.integers(0, x.size, size=(k, x.size), dtype=dtype)
        out[start:start + k] = x[idx].mean(axis=1)
    return out


def bootstrap_ci(values: Sequence[float], level: float = 0.95, n_boot: int = N_BOOT, seed: int = 0,
                 strata: Sequence[Any] | None = None) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean, optionally stratified.

    Args:
        values: one number per run.
        level: coverage, e.g. 0.95.
        n_boot: resamples.
        seed: the resampling RNG's seed (the same data always gives the same interval).
        strata: one label per run (e.g. its task): runs are resampled within their stratum, so each
            resample keeps the strata's sizes and the interval reflects variation within tasks, not
            the luck of how many runs of each task were drawn.

    Returns:
        ``(low, high)``; both equal the value for a single run, ``(nan, nan)`` for none. Memory stays
        within ``BOOT_CELLS`` indices whatever the number of runs.

    Example:
        >>> lo, hi = bootstrap_ci([0.0, 1.0, 1.0, 1.0])
        >>> 0.0 <= lo <= 0.75 <= hi <= 1.0
        True
        >>> bootstrap_ci([0.0, 0.0, 1.0, 1.0], strata=["a", "a", "b", "b"])  # no variation within a task
        (0.5, 0.5)
    """
    x = np.asarray(list(values), dtype=float)
    if x.size == 0:
        return float("nan"), float("nan")
    if x.size == 1 or np.all(x == x[0]):
        return float(x[0]), float(x[0])
    rng = np.random.default_rng(seed)
    if strata is None:
        means = _boot_means(x, n_boot, rng)
    else:
        labels = list(strata)
        if len(labels) != x.size:
            raise ValueError(f"strata: expected one label per value ({x.size}), got {len(labels)}")
        groups: dict[Any, list[int]] = {}
        for i, s in enumerate(labels):
            groups.setdefault(s, []).append(i)
        means = np.zeros(n_boot)
        for key in sorted(groups, key=str):
            xs = x[groups[key]]
            weight = xs.size / x.size
            if xs.size == 1 or np.all(xs == xs[0]):
                means += weight * xs[0]
            else:
                means += weight * _boot_means(xs, n_boot, rng)
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [a, 1.0 - a])
    return float(lo), float(hi)


def latest_results(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One line per run id (the last one wins), in first-seen order."""
    by_id: OrderedDict[str, dict[str, Any]] = OrderedDict()
    for k, r in enumerate(results):
        by_id[r.get("run_id") or f"#{k}"] = r
    return list(by_id.values())


def _config(r: dict[str, Any]) -> tuple[str, str]:
    return str(r.get("agent")), str(r.get("level"))


def _uplift_before_cost(r: dict[str, Any]) -> float:
    u = r.get("uplift")
    if u is None or (isinstance(u, float) and math.isnan(u)):
        return float(r["score"]) + float(r.get("contact_cost") or 0.0)
    return max(-1.0, float(u))


def summarize(results: list[dict[str, Any]], level: float = 0.95) -> list[dict[str, Any]]:
    """The Table 3 rows: one per (agent, level), in first-seen order."""
    groups: OrderedDict[tuple[str, str], list[dict[str, Any]]] = OrderedDict()
    for r in results:
        groups.setdefault(_config(r), []).append(r)
    rows = []
    for (agent, lv), rs in groups.items():
        scores = [float(r["score"]) for r in rs]
        lo, hi = bootstrap_ci(scores, level, strata=[str(r.get("task")) for r in rs])
        rows.append({
            "agent": agent, "level": lv, "runs": len(rs), "tasks": len({r.get("task") for r in rs}),
            "single_run_tasks": sum(1 for n in Counter(str(r.get("task")) for r in rs).values() if n == 1),
            "scores_vary": len(set(scores)) > 1,
            "mean_score": float(np.mean(scores)), "ci_low": lo, "ci_high": hi,
            "mean_uplift": float(np.mean([_uplift_before_cost(r) for r in rs])),
            "mean_contact_cost": float(np.mean([float(r.get("contact_cost") or 0.0) for r in rs])),
            "resolved": sum(1 for r in rs if r.get("resolved")),
            "below_do_nothing": sum(1 for s in scores if s < -BELOW_EPS),
            "with_incident": sum(1 for r in rs if r.get("incidents")),
            "mean_wall_seconds": float(np.mean([float(r.get("wall_seconds") or 0.0) for r in rs])),
        })
    return rows


def per_scenario(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean score per scenario (task) and config: ``{"configs": [...], "rows": [{"task", "cells"}]}``."""
    configs: list[str] = []
    cells: OrderedDict[str, dict[str, list[float]]] = OrderedDict()
    many_levels = len({r.get("level") for r in results}) > 1  # once, not once per result
    for r in results:
        cfg = _config_label(*_config(r), many_levels=many_levels)
        if cfg not in configs:
            configs.append(cfg)
        cells.setdefault(str(r.get("task")), {}).setdefault(cfg, []).append(float(r["score"]))
    rows = []
    for task in sorted(cells):
        rows.append({"task": task, "cells": {c: {"mean": float(np.mean(v)), "n": len(v)}
                                             for c, v in cells[task].items()}})
    return {"configs": configs, "rows": rows}


def _config_label(agent: str, level: str, results: list[dict[str, Any]] | None = None,
                  many_levels: bool | None = None) -> str:
    if many_levels is None:
        many_levels = len({r.get("level") for r in results or []}) > 1
    return f"{agent}@{level}" if many_levels else agent


def failures(out: str | Path, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Final failures (retried and failed again) of runs that never produced a result."""
    p = Path(out) / FAILURES
    if not p.exists():
        return []
    done = {r.get("run_id") for r in results}
    out_ = []
    for line in p.read_text(encoding="utf-8").splitlines():
        try:
            f = json.loads(line)
        except json.JSONDecodeError:
            continue
        if f.get("final") and f.get("run_id") not in done:
            out_.append(f)
    return out_


def build_report(out: str | Path, level: float = 0.95) -> dict[str, Any]:
    """Everything ``fdegym report`` shows, as one JSON-able dict."""
    path = Path(out)
    if not (path / RESULTS).exists() and not (path.is_file() and path.suffix == ".jsonl"):
        raise ValueError(f"no {RESULTS} in {path}; expected the --out folder of `fdegym bench`")
    loaded = load_results(path)
    for k, r in enumerate(loaded, 1):
        if not isinstance(r, dict) or "score" not in r:
            what = f"keys {', '.join(sorted(r)[:6])}" if isinstance(r, dict) else type(r).__name__
            raise ValueError(f"{path}: JSON line {k} is not a result (no 'score'; got {what}); expected the "
                             f"results.jsonl of `fdegym bench` (a recording from --record is read by `fdegym show`)")
    results = latest_results(loaded)
    if not results:
        raise ValueError(f"{path / RESULTS if path.is_dir() else path} holds no results yet")
    fails = failures(path, results) if path.is_dir() else []
    return {"source": str(path), "runs": len(results), "ci_level": level,
            "table": summarize(results, level), "per_scenario": per_scenario(results),
            "failed_runs": [{"run_id": f["run_id"], "error": (f.get("error") or "").splitlines()[0][:300]}
                            for f in fails],
            "results": results}


# --- text ---------------------------------------------------------------------------------------------
TABLE_COLUMNS = [("agent", "agent"), ("level", "level"), ("runs", "runs"), ("score", "mean score [{ci} CI]"),
                 ("uplift", "uplift"), ("cost", "contact cost"), ("resolved", "resolved"),
                 ("below", "< do-nothing"), ("incident", "incidents")]


def _table_cells(row: dict[str, Any]) -> dict[str, str]:
    return {"agent": row["agent"], "level": row["level"], "runs": str(row["runs"]),
            "score": f"{row['mean_score']:+.3f} [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}]",
            "uplift": f"{row['mean_uplift']:+.3f}", "cost": f"{row['mean_contact_cost']:.3f}",
            "resolved": f"{row['resolved']}/{row['runs']}", "below": str(row["below_do_nothing"]),
            "incident": str(row["with_incident"])}


def _grid(header: list[str], body: list[list[str]], markdown: bool, right: set[int]) -> str:
    if markdown:
        lines = ["| " + " | ".join(header) + " |",
                 "|" + "|".join(("---:" if i in right else "---") for i in range(len(header))) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in body]
        return "\n".join(lines)
    widths = [max(len(h), *(len(r[i]) for r in body)) if body else len(h) for i, h in enumerate(header)]

    def fmt(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in body])


def format_table(rows: list[dict[str, Any]], markdown: bool = False, ci_level: float = 0.95) -> str:
    """The Table 3 block; the score column names the CI level actually used."""
    header = [h.format(ci=ci_label(ci_level)) for _, h in TABLE_COLUMNS]
    body = [[_table_cells(r)[k] for k, _ in TABLE_COLUMNS] for r in rows]
    return _grid(header, body, markdown, right=set(range(2, len(header))))


def format_per_scenario(ps: dict[str, Any], markdown: bool = False) -> str:
    """Mean score per scenario (rows) and config (columns); ``n`` in brackets when not all equal."""
    configs = ps["configs"]
    ns = {c["n"] for row in ps["rows"] for c in row["cells"].values()}
    show_n = len(ns) > 1
    body = []
    for row in ps["rows"]:
        cells = []
        for c in configs:
            cell = row["cells"].get(c)
            if cell is None:
                cells.append("-")
            else:
                cells.append(f"{cell['mean']:+.3f}" + (f" ({cell['n']})" if show_n else ""))
        body.append([row["task"], *cells])
    return _grid(["scenario", *configs], body, markdown, right=set(range(1, len(configs) + 1)))


def _single_run_note(rows: list[dict[str, Any]]) -> list[str]:
    """A scenario with one run adds no spread to the stratified bootstrap, so a row made only of such
    scenarios gets an interval of zero width: say so rather than let it read as a certain result."""
    thin = [r for r in rows if r.get("single_run_tasks") and r.get("scores_vary")]
    if not thin:
        return []
    which = "; ".join(f"{r['agent']} {r['level']}: {r['single_run_tasks']} of {r['tasks']}" for r in thin)
    return [f"Note: scenarios with a single run add nothing to the CI ({which}); an interval of zero width "
            "there is not a measured certainty. Fix: `fdegym bench ... --repeats 2` or more.", ""]


def format_report(rep: dict[str, Any], markdown: bool = False) -> str:
    """The whole text report: Table 3, per-scenario table, failures."""
    h = "## " if markdown else ""
    parts = [f"{h}Results: {rep['runs']} runs from {rep['source']}", "",
             format_table(rep["table"], markdown, rep["ci_level"]), "",
             "score = max(-1, U) - contact cost; uplift = max(-1, U) before contact cost; resolved = score >= 0.8 "
             f"and no incident; CI = {ci_label(rep['ci_level'])} percentile bootstrap of the mean, runs resampled "
             "within each scenario", "",
             *_single_run_note(rep["table"]),
             f"{h}Per scenario (mean score)", "", format_per_scenario(rep["per_scenario"], markdown)]
    if rep["failed_runs"]:
        parts += ["", f"{h}Failed runs ({len(rep['failed_runs'])}; retried once, see failures.jsonl)", ""]
        parts += [f"- {f['run_id']}: {f['error']}" for f in rep["failed_runs"]]
    return "\n".join(parts)


# --- plot ---------------------------------------------------------------------------------------------
def plot_report(rep: dict[str, Any], path: str | Path) -> Path:
    """Score vs contact cost (left) and per-scenario mean score bars (right), written as a PNG.

    Args:
        rep: a :func:`build_report` dict.
        path: the image file (``.png``, ``.pdf`` or ``.svg``).

    Returns:
        The path written.
    """
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("--plot needs matplotlib: pip install 'fdegym[plot]'") from None
    results = rep["results"]
    many_levels = len({r.get("level") for r in results}) > 1
    table = rep["table"]
    ps = rep["per_scenario"]
    colors = plt.get_cmap("tab10")
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(14, 5.5), gridspec_kw={"width_ratios": [1, 1.5]})

    for k, row in enumerate(table):
        label = _config_label(row["agent"], row["level"], many_levels=many_levels)
        rs = [r for r in results if _config(r) == (row["agent"], row["level"])]
        jitter = np.random.default_rng(k).uniform(-0.002, 0.002, len(rs))
        ax1.scatter([float(r.get("contact_cost") or 0) + j for r, j in zip(rs, jitter)],
                    [float(r["score"]) for r in rs], s=12, alpha=0.25, color=colors(k % 10))
        # a bootstrap interval need not contain the mean (e.g. a skewed, stratified resample): clip at 0
        yerr = [[max(0.0, row["mean_score"] - row["ci_low"])], [max(0.0, row["ci_high"] - row["mean_score"])]]
        ax1.errorbar([row["mean_contact_cost"]], [row["mean_score"]], yerr=yerr, fmt=MARKERS[k % len(MARKERS)],
                     ms=max(5, 13 - 1.5 * k), capsize=4, color=colors(k % 10), mec="black", mew=0.6,
                     alpha=0.9, label=f"{label} (n={row['runs']})")
    ax1.axhline(0.0, color="grey", lw=0.8, ls="--")
    ax1.axhline(0.8, color="green", lw=0.6, ls=":")
    ax1.text(ax1.get_xlim()[1], 0.8, " resolved", va="center", ha="left", fontsize=8, color="green")
    ax1.set_xlabel("contact cost (score points; markers: config means, dots: runs)")
    ax1.set_ylabel(f"score (mean with {ci_label(rep['ci_level'])} CI; dots: runs)")
    ax1.set_title("Score vs contact cost")
    ax1.legend(fontsize=8, loc="best")
    ax1.grid(alpha=0.3)

    tasks = [row["task"] for row in ps["rows"]]
    configs = ps["configs"]
    width = 0.8 / max(1, len(configs))
    x = np.arange(len(tasks))
    for k, cfg in enumerate(configs):
        vals = [row["cells"].get(cfg, {}).get("mean", np.nan) for row in ps["rows"]]
        xs = x + (k - (len(configs) - 1) / 2) * width
        ax2.bar(xs, vals, width, label=cfg, color=colors(k % 10), edgecolor="black", linewidth=0.4)
        if len(tasks) * len(configs) <= 48:  # value labels while they fit (a zero bar is otherwise invisible)
            for xi, v in zip(xs, vals):
                if v == v:
                    ax2.text(xi, v + (0.02 if v >= 0 else -0.02), f"{v:.2f}", ha="center",
                             va="bottom" if v >= 0 else "top", fontsize=6, rotation=90)
    ax2.axhline(0.0, color="black", lw=0.8)
    ax2.axhline(1.0, color="grey", lw=0.6, ls="--")
    ax2.set_xticks(x)
    ax2.set_xticklabels(tasks, rotation=20, ha="right")
    ax2.set_ylabel("mean score")
    ax2.set_title("Per scenario")
    ax2.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    lo = min([0.0] + [c["mean"] for row in ps["rows"] for c in row["cells"].values() if c["mean"] == c["mean"]])
    ax2.set_ylim(min(-0.1, lo - 0.15), 1.2)
    ax2.grid(axis="y", alpha=0.3)
    fig.suptitle(f"fdegym report: {rep['runs']} runs", fontsize=11)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def report_json(rep: dict[str, Any], with_results: bool = False) -> str:
    """The report as JSON (per-run results only with ``with_results``)."""
    data = {k: v for k, v in rep.items() if with_results or k != "results"}
    return json.dumps(data, indent=2, default=str, allow_nan=True)
