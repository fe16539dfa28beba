"""The ``fdegym`` command line.

    fdegym list
    fdegym run TASK --agent reference [--level L3] [--variant base] [--seed 0] [--json]
    fdegym validate TASK [--variant V | --all-variants] [--samples N] [--leaks-only] [--json]

Subcommands live in small functions below; other modules add theirs through ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Callable

COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {}


def command(name: str, setup: Callable[[argparse.ArgumentParser], None]):
    def deco(fn):
        COMMANDS[name] = (setup, fn)
        return fn
    return deco


def _list_setup(p):
    p.add_argument("--json", action="store_true")


@command("list", _list_setup)
def cmd_list(a) -> int:
    from fdegym_env.registry import list_tasks, load_task
    rows = []
    for tid in list_tasks():
        t = load_task(tid)
        rows.append({"id": t.gym_id, "task": t.id, "sector": t.sector, "title": t.title,
                     "variants": sorted(t.variants), "sampler": t.has_sampler,
                     "metric": f"{t.metric['name']} ({t.metric['unit']})"})
    if a.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['id']:<36} {r['sector']:<22} {r['title']}")
            print(f"{'':<36} variants: {', '.join(r['variants'])}{' + sample:N' if r['sampler'] else ''}")
    return 0


def _run_setup(p):
    p.add_argument("task")
    p.add_argument("--agent", default="reference", help="do-nothing, random, reference, literal, llm, solution:<name>")
    p.add_argument("--level", default="L3", choices=["L0", "L1", "L2", "L3"])
    p.add_argument("--variant", default="base")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--router", default=None, choices=["regex", "lexical", "llm"])
    p.add_argument("--model", default=None, help="model name for --agent llm")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint for --agent llm")
    p.add_argument("--api-key-file", default=None)
    p.add_argument("--record", default=None, help="write a JSONL recording of the episode")
    p.add_argument("--transcript", action="store_true", help="print the episode transcript")
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")


@command("run", _run_setup)
def cmd_run(a) -> int:
    import gymnasium as gym
    import fdegym_env  # noqa: F401  (registers ids)
    from fdegym_env.agents import make_agent, run_episode
    from fdegym_env.registry import gym_id
    kwargs = {}
    if a.agent == "llm":
        kwargs = {k: v for k, v in {"model": a.model, "base_url": a.base_url, "api_key_file": a.api_key_file}.items() if v}
    agent = make_agent(a.agent, **kwargs)
    env = gym.make(gym_id(a.task), level=a.level, variant=a.variant, sandbox=a.sandbox, router=a.router,
                   render_mode="ansi")
    if a.record:
        from fdegym_env.wrappers import Recorder
        env = Recorder(env, a.record)
    t0 = time.monotonic()
    try:
        result = run_episode(env, agent, seed=a.seed)
        if a.transcript:
            print(env.unwrapped.render(), file=sys.stderr if a.json else sys.stdout)
    finally:
        env.close()
    result["wall_seconds"] = round(time.monotonic() - t0, 3)
    result.pop("return", None)
    if a.json:
        print(json.dumps(result, sort_keys=True, default=str))
    else:
        inc = "; ".join(result["incidents"]) or "none"
        print(f"{result['task']} [{result['variant']}, {result['level']}, seed {result['seed']}] agent={result['agent']}")
        print(f"  score {result['score']:.3f}  uplift {result['uplift']:.3f}  contact cost {result['contact_cost']:.3f}  "
              f"resolved {'yes' if result['resolved'] else 'no'}")
        print(f"  {result['metric']['name']}: {result['kpi']:.4g} (as found {result['kpi_baseline']:.4g}, "
              f"reference {result['kpi_reference']:.4g})  incidents: {inc}")
        print(f"  turns {result['turns']}, questions {result['questions_asked']}, key-fact coverage "
              f"{result['key_fact_coverage']}, ended: {result['end_reason']}, {result['wall_seconds']} s")
    return 0


def _validate_setup(p):
    p.add_argument("task")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--variant", action="append", help="check only this variant (repeatable)")
    g.add_argument("--all-variants", action="store_true", help="every named variant (the default)")
    p.add_argument("--samples", type=int, default=0, help="also check N sampled variants (sample:0..N-1)")
    p.add_argument("--no-generic", action="store_true", help="skip the generic bypass library")
    p.add_argument("--leaks-only", action="store_true",
                   help="only the leak check (L2/L3 reset observation and workspace; renders, grades nothing)")
    p.add_argument("--show-generic", action="store_true", help="list every generic bypass row")
    p.add_argument("--workers", type=int, default=None, help="gradings in parallel (default: CPUs, at most 4)")
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--json", action="store_true")


@command("validate", _validate_setup)
def cmd_validate(a) -> int:
    from fdegym_env.registry import load_task
    from fdegym_env.validate import format_report, validate_task
    task = load_task(a.task)
    if a.leaks_only:
        from fdegym_env.leaks import leak_report
        report = leak_report(task, variants=a.variant, samples=a.samples)
    else:
        report = validate_task(task, variants=a.variant, samples=a.samples, sandbox=a.sandbox,
                               generic=not a.no_generic, progress=not a.json and sys.stderr.isatty(),
                               workers=a.workers)
    if a.json:
        print(json.dumps(report.to_json(), indent=2, default=str))
    else:
        print(format_report(report, show_generic=a.show_generic))
    return 0 if report.passed else 1


def build_parser() -> argparse.ArgumentParser:
    _load_plugins()
    parser = argparse.ArgumentParser(prog="fdegym", description="FDE-Gym delivery tasks as Gymnasium environments.")
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name, (setup, fn) in COMMANDS.items():
        p = sub.add_parser(name, help=(fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else None)
        setup(p)
        p.set_defaults(func=fn)
    return parser


PLUGIN_MODULES = ("fdegym_env.cli_record", "fdegym_env.cli_sandbox", "fdegym_env.cli_batch", "fdegym_env.compat.cli")  # modules that add subcommands with @command when imported


def _load_plugins() -> None:
    import importlib
    for m in PLUGIN_MODULES:
        importlib.import_module(m)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    a = parser.parse_args(argv)
    try:
        return int(a.func(a) or 0)
    except (ValueError, RuntimeError) as e:
        print(f"fdegym {a.cmd}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # `python -m fdegym_env.cli`: use the imported module, where plugins register
    from fdegym_env.cli import main as _main
    sys.exit(_main())
