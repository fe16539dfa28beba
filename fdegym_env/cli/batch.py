"""``fdegym bench``, ``fdegym report`` and ``fdegym play``: evaluation at scale and the human mode.

    fdegym bench --agents do-nothing,literal,reference,random --tasks all --levels L3 \\
                 --repeats 2 --workers 2 --out runs/b            # re-run the same line to resume
    fdegym bench ... --backend ray [--ray-address auto]          # a local Ray, or a cluster
    fdegym report runs/b --plot runs/b/plot.png [--markdown | --json]
    fdegym play news_incident --level L3 --record me.jsonl       # then: fdegym replay me.jsonl
"""

from __future__ import annotations

import json
import sys

from fdegym_env.cli.args import check_output_file, check_output_folder, seed_arg
from fdegym_env.people.routers import ROUTER_NAMES


def _csv(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _bench_setup(p):
    p.add_argument("--agents", required=True, help="comma-separated: do-nothing, random, reference, literal, llm, "
                                                   "solution:<name>")
    p.add_argument("--tasks", default="all", help="'all' or comma-separated task ids / task folder paths")
    p.add_argument("--levels", default="L3", help="comma-separated instruction levels, e.g. L0,L3")
    p.add_argument("--variants", default="base",
                   help="base (default), all (every variant in variants.yaml), named (all but base), "
                        "sample:N (sample:0..N-1), or comma-separated names")
    p.add_argument("--repeats", type=int, default=1, help="episodes per config and task (seeds SEED..SEED+N-1)")
    p.add_argument("--seed", type=seed_arg, default=0, help="first seed")
    p.add_argument("--workers", type=int, default=1, help="episodes in parallel (local processes or Ray CPUs)")
    p.add_argument("--out", required=True, help="batch folder: results.jsonl, failures.jsonl, batch.json")
    p.add_argument("--backend", default="local", choices=["local", "ray"])
    p.add_argument("--ray-address", default=None, help="an existing Ray cluster (e.g. auto, ray://head:10001)")
    p.add_argument("--ray-runtime-env", default=None, help="JSON runtime_env for Ray workers, e.g. "
                                                          "'{\"pip\": [\"fdegym\"]}'")
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--router", default=None, choices=ROUTER_NAMES)
    p.add_argument("--model", default=None, help="model name for --agents llm")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint for --agents llm")
    p.add_argument("--api-key-file", default=None)
    p.add_argument("--dry-run", action="store_true", help="print the planned runs and exit")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (default off when not a terminal)")
    p.add_argument("--progress", action="store_true", help="force the progress bar even when not a terminal")


def cmd_bench(a) -> int:
    """Run agents × tasks × levels × variants × repeats into a results folder (resumable)."""
    from fdegym_env.evaluation.batch import BatchSpec, RayBackend, load_results, plan_runs, run_batch
    for option, value in (("--agents", a.agents), ("--tasks", a.tasks), ("--levels", a.levels)):
        if not _csv(value):
            raise ValueError(f"{option} is empty (got {value!r}); expected comma-separated names"
                             + (" or 'all'" if option == "--tasks" else "") + f" (fix: e.g. {option} "
                             + {"--agents": "reference", "--tasks": "all", "--levels": "L3"}[option] + ")")
    check_output_folder(a.out, "--out")
    llm = {k: v for k, v in {"model": a.model, "base_url": a.base_url, "api_key_file": a.api_key_file}.items() if v}
    spec = BatchSpec(agents=_csv(a.agents), tasks=_csv(a.tasks), levels=_csv(a.levels), variants=a.variants,
                     repeats=a.repeats, seed=a.seed, sandbox=a.sandbox, router=a.router,
                     agent_kwargs={"llm": llm} if llm else {})
    if a.dry_run:
        done = {r.get("run_id") for r in load_results(a.out)}
        runs = plan_runs(spec)
        for r in runs:
            print(f"{'done ' if r.run_id in done else 'todo '} round {r.round}  seed {r.seed}  {r.run_id}")
        print(f"{len(runs)} runs, {sum(r.run_id in done for r in runs)} already done")
        return 0
    backend = a.backend
    if a.backend == "ray" and a.ray_runtime_env:
        try:
            renv = json.loads(a.ray_runtime_env)
        except json.JSONDecodeError as e:
            raise ValueError(f"--ray-runtime-env must be a JSON object ({e.msg})") from None
        backend = RayBackend(a.workers, a.ray_address, renv)
    elif a.ray_address and a.backend != "ray":
        raise ValueError("--ray-address needs --backend ray")
    progress = a.progress or (not a.no_progress and sys.stderr.isatty())
    try:
        s = run_batch(spec, a.out, workers=a.workers, backend=backend, ray_address=a.ray_address,
                      progress=progress)
    except KeyboardInterrupt:
        n = len(load_results(a.out))
        print(f"\ninterrupted: {n} runs are in {a.out}/results.jsonl; run the same command again to resume",
              file=sys.stderr)
        return 130
    finally:
        if not isinstance(backend, str):
            backend.close()
    print(f"{s.planned} runs planned, {s.skipped} already done, {s.done} run now, {s.failed} failed "
          f"({s.retried} retried) in {s.wall_seconds:.1f} s ({s.episodes_per_minute:.1f} episodes/min) -> "
          f"{s.out / 'results.jsonl'}")
    if s.failed:
        print(f"failed runs are in {s.out / 'failures.jsonl'}; re-run the same command to try them again",
              file=sys.stderr)
    return 1 if s.failed else 0


def _report_setup(p):
    p.add_argument("dir", help="the --out folder of fdegym bench (or a results.jsonl)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--markdown", action="store_true", help="Markdown tables")
    g.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument("--with-results", action="store_true", help="include every run in --json output")
    p.add_argument("--plot", default=None, help="write score-vs-cost and per-scenario plots to this image file")
    p.add_argument("--ci", type=float, default=0.95, help="confidence level of the bootstrap CI")


def cmd_report(a) -> int:
    """Table 3 (per agent × level), per-scenario scores and plots from a bench folder."""
    from fdegym_env.evaluation.report import build_report, format_report, plot_report, report_json
    if not 0 < a.ci < 1:
        raise ValueError(f"--ci must be between 0 and 1, got {a.ci}")
    rep = build_report(a.dir, level=a.ci)
    if a.json:
        print(report_json(rep, with_results=a.with_results))
    else:
        print(format_report(rep, markdown=a.markdown))
    if a.plot:
        path = plot_report(rep, a.plot)
        print(f"plot written to {path}", file=sys.stderr if a.json else sys.stdout)
    return 0


def _play_setup(p):
    p.add_argument("task", help="task id or task folder")
    p.add_argument("--level", default="L3", choices=["L0", "L1", "L2", "L3"])
    p.add_argument("--variant", default="base")
    p.add_argument("--seed", type=seed_arg, default=0)
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--record", default=None, help="write a JSONL recording (fdegym replay FILE reproduces it)")
    p.add_argument("--transcript", default=None, help="write the transcript here at the end")
    p.add_argument("--yes", action="store_true", help="do not ask before submit and quit")
    p.add_argument("--json", action="store_true", help="print the result as JSON at the end")


def cmd_play(a) -> int:
    """Work a task yourself in the terminal, with the agent's tools and grading."""
    from fdegym_env.cli.play import play
    check_output_file(a.record, "--record")
    check_output_file(a.transcript, "--transcript")
    result = play(a.task, level=a.level, variant=a.variant, seed=a.seed, sandbox=a.sandbox, record=a.record,
                  transcript=a.transcript, confirm=not a.yes)
    if result is not None and a.json:
        print(json.dumps(result, sort_keys=True, default=str))
    return 0 if result is not None else 1
