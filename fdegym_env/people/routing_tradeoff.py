"""What one router setting trades: answered questions against wrong paragraphs, over labelled sets.

Routing has one real lever, how much of what a question is about the chosen topic must speak to
(``min_about`` of the lexical router). Raising it turns wrong paragraphs into honest "don't know"s,
and also turns right answers into "don't know"s. This sweeps a setting over values and reports, per
value, the outcome shares of :func:`~fdegym_env.people.routing_report.evaluate_heldout` summed over
the named sets (``tests/routing/<set>/<task>.yaml``), so the operating point is chosen by looking::

    python -m fdegym_env.people.routing_tradeoff --sets blind5,blind6,blind7 \\
        --param min_about --values 0.3,0.35,0.4,0.45,0.5,0.55,0.6 --plot tradeoff.png

Example:
    >>> rows = sweep(["blind7"], "min_about", [0.35, 0.5])                 # doctest: +SKIP
    >>> [(r["value"], r["shares"]["wrong_paragraph"]) for r in rows["ALL"]]  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from fdegym_env.people.routing_report import OUTCOMES, evaluate_heldout, find_heldout_sets, labelled_sets


def sweep(sets: list[str], param: str, values: list[float], tests_dir: str | Path = "tests",
          router: str = "lexical", progress: bool = False) -> dict[str, list[dict[str, Any]]]:
    """``{set name or "ALL": [{"value", "questions", "answerable", "counts", "shares"}, ...]}``, one row
    per value; ``answerable`` is how many questions are labelled with a topic (the on-topic ceiling)."""
    loaded = {s: find_heldout_sets(tests_dir, s) for s in sets}
    answerable = {s: sum(isinstance(q.get("expect"), list) for _n, _sp, h in loaded[s] for q in h.get("questions") or [])
                  for s in sets}
    answerable["ALL"] = sum(answerable.values())
    out: dict[str, list[dict[str, Any]]] = {s: [] for s in [*sets, "ALL"]}
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(values) * len(sets), desc=f"sweeping {param}", unit="set", file=sys.stderr)
    for v in values:
        total = dict.fromkeys(OUTCOMES, 0)
        for s in sets:
            counts = dict.fromkeys(OUTCOMES, 0)
            for name, spec, hset in loaded[s]:
                r = evaluate_heldout(spec, hset, router, f"{s}/{name}", {param: v})
                for k, c in r["counts"].items():
                    counts[k] += c
                    total[k] += c
            out[s].append(_row(v, counts, answerable[s]))
            if bar:
                bar.update()
        out["ALL"].append(_row(v, total, answerable["ALL"]))
    if bar:
        bar.close()
    return out


def _row(value: float, counts: dict[str, int], answerable: int) -> dict[str, Any]:
    n = sum(counts.values())
    return {"value": value, "questions": n, "answerable": answerable, "counts": counts,
            "shares": {k: (c / n if n else 0.0) for k, c in counts.items()}}


def plot(result: dict[str, list[dict[str, Any]]], param: str, path: str | Path) -> Path:
    """Wrong-paragraph share (x) against on-topic share (y), one line per set, each point of the
    sum labelled with its value; the 2% ceiling and the share of questions that have an answer drawn in."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 5))
    for name, rows in result.items():
        xs = [100 * r["shares"]["wrong_paragraph"] for r in rows]
        ys = [100 * r["shares"]["on_topic"] for r in rows]
        bold = name == "ALL"
        ax.plot(xs, ys, marker="o", lw=2.5 if bold else 1, alpha=1 if bold else 0.6, color="black" if bold else None,
                label=f"{name} ({rows[0]['questions']} q)" if rows else name)
        if bold:
            for r, x, y in zip(rows, xs, ys):
                ax.annotate(f"{r['value']:g}", (x, y), textcoords="offset points", xytext=(5, 4), fontsize=8)
    if result.get("ALL"):
        ceiling = 100 * result["ALL"][0]["answerable"] / max(1, result["ALL"][0]["questions"])
        ax.axhline(ceiling, color="black", ls=":", lw=1)
        ax.text(ax.get_xlim()[1], ceiling, "labelled answerable (ALL) ", ha="right", va="bottom", fontsize=8)
    ax.axvline(2.0, color="red", ls="--", lw=1)
    ax.text(2.1, ax.get_ylim()[0] + 1, "2% ceiling", color="red", fontsize=8)
    ax.set_xlabel("wrong paragraph, % of questions")
    ax.set_ylabel("on-topic answer, % of questions")
    ax.set_title(f"Routing trade-off as {param} rises (labels in black: {param})")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _floats(text: str) -> list[float]:
    try:
        vals = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None
    if not vals:
        raise argparse.ArgumentTypeError("expected at least one value")
    return vals


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fdegym_env.people.routing_tradeoff", description=__doc__.split("\n")[0])
    ap.add_argument("--tests-dir", default="tests", help="folder holding routing/ (default: tests)")
    ap.add_argument("--sets", required=True, help="comma-separated folders under routing/, e.g. blind6,blind7")
    ap.add_argument("--param", default="min_about", help="the router setting to sweep (default: min_about)")
    ap.add_argument("--values", type=_floats, default=[0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6])
    ap.add_argument("--router", default="lexical")
    ap.add_argument("--plot", default=None, metavar="PNG")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    sets = [s.strip() for s in a.sets.split(",") if s.strip()]
    have = labelled_sets(a.tests_dir)
    unknown = [s for s in sets if s not in have]
    if not sets or unknown:
        ap.error(f"--sets: expected folders under {a.tests_dir}/routing {have}, got {unknown or a.sets!r}")
    try:
        result = sweep(sets, a.param, a.values, a.tests_dir, a.router, progress=not a.json)
    except TypeError as e:     # a setting the router does not take
        ap.error(f"--param {a.param!r}: {e}")
    if a.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{'set':<10} {a.param:>10} {'questions':>9} " + " ".join(f"{o:>15}" for o in OUTCOMES))
        for name, rows in result.items():
            for r in rows:
                print(f"{name:<10} {r['value']:>10g} {r['questions']:>9} "
                      + " ".join(f"{r['shares'][o]:>15.1%}" for o in OUTCOMES))
    if a.plot:
        print(f"wrote {plot(result, a.param, a.plot)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
