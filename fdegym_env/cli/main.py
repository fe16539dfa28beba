"""The ``fdegym`` command line.

    fdegym list
    fdegym run TASK --agent reference [--level L3] [--variant base] [--seed 0] [--json]
    fdegym validate TASK [--variant V | --all-variants] [--samples N] [--quick] [--leaks-only] [--json]

Every subcommand is a (setup, run) pair of plain functions; :func:`commands` is the one explicit
list of them (the command modules import nothing from this one).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from fdegym_env.cli.args import check_output_file, check_output_folder, seed_arg
from fdegym_env.people.routers import ROUTER_NAMES


@dataclass(frozen=True)
class Command:
    """One subcommand: ``setup`` adds its arguments, ``run`` executes it and returns the exit code."""

    name: str
    help: str
    setup: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def _list_setup(p):
    p.add_argument("--json", action="store_true")


def cmd_list(a) -> int:
    """List the registered tasks: Gymnasium id, sector, title and variants."""
    from fdegym_env.core.registry import list_tasks, load_task
    rows: list[dict[str, Any]] = []
    for tid in list_tasks():
        t = load_task(tid)
        rows.append({"id": t.gym_id, "task": t.id, "sector": t.sector, "title": t.title,
                     "variants": sorted(t.variants), "sampler": t.has_sampler,
                     "metric": f"{t.metric['name']} ({t.metric['unit']})"})
    if a.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            print(f"{r['id']:<34} {r['title']}")
            print(f"{'':<34} sector: {r['sector']}")
            print(f"{'':<34} variants: {', '.join(r['variants'])}{' + sample:N' if r['sampler'] else ''}")
    return 0


def _run_setup(p):
    p.add_argument("task")
    p.add_argument("--agent", default="reference", help="do-nothing, random, reference, literal, llm, solution:<name>")
    p.add_argument("--level", default="L3", choices=["L0", "L1", "L2", "L3"])
    p.add_argument("--variant", default="base")
    p.add_argument("--seed", type=seed_arg, default=0)
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--router", default=None, choices=ROUTER_NAMES)
    p.add_argument("--model", default=None, help="model name for --agent llm")
    p.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint for --agent llm")
    p.add_argument("--api-key-file", default=None)
    p.add_argument("--record", default=None, help="write a JSONL recording of the episode")
    p.add_argument("--transcript", action="store_true", help="print the episode transcript")
    p.add_argument("--json", action="store_true", help="print one JSON object with the result")


def cmd_run(a) -> int:
    """Play one episode of a task with an agent and print the graded result."""
    import gymnasium as gym

    import fdegym_env  # noqa: F401  (registers ids)
    from fdegym_env.agents import make_agent, run_episode
    from fdegym_env.core.registry import gym_id
    from fdegym_env.grading.result_text import cost_words
    check_output_file(a.record, "--record")
    kwargs = {}
    if a.agent == "llm":
        kwargs = {k: v for k, v in {"model": a.model, "base_url": a.base_url, "api_key_file": a.api_key_file}.items() if v}
    agent = make_agent(a.agent, **kwargs)
    # task= the argument as given: a copied task folder that keeps its id runs the copy, not the shipped one
    env = gym.make(gym_id(a.task), task=a.task, level=a.level, variant=a.variant, sandbox=a.sandbox, router=a.router,
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
        print(f"  score {result['score']:.3f}  uplift {result['uplift']:.3f}  {cost_words(result)}  "
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
                   help="only the rendering checks: leaks (L2/L3 reset observation and workspace) and "
                        "realism (future-dated records, repeated notes, who is reachable, unsaid rule "
                        "changes, trial counts); grades nothing")
    p.add_argument("--show-generic", action="store_true", help="list every generic bypass row")
    p.add_argument("--workers", type=int, default=None, help="gradings in parallel (default: CPUs + 1, at most 8)")
    p.add_argument("--quick", action="store_true",
                   help="the author's loop: named variants, no samples, a sample of the generic bypasses")
    p.add_argument("--sandbox", default="auto", choices=["auto", "bwrap", "docker", "none"])
    p.add_argument("--json", action="store_true")


def cmd_validate(a) -> int:
    """Check a task's admission anchors (do-nothing, literal, reference, shortcuts, bypasses)."""
    from fdegym_env.admission.validate import format_report, validate_task
    from fdegym_env.core.registry import load_task
    task = load_task(a.task)
    if a.leaks_only:
        from fdegym_env.admission.validate import leak_report
        report = leak_report(task, variants=a.variant, samples=a.samples)
    else:
        report = validate_task(task, variants=a.variant, samples=a.samples, sandbox=a.sandbox,
                               generic=not a.no_generic, progress=not a.json and sys.stderr.isatty(),
                               workers=a.workers, quick=a.quick)
    if a.json:
        print(json.dumps(report.to_json(), indent=2, default=str))
    else:
        print(format_report(report, show_generic=a.show_generic))
    return 0 if report.passed else 1


def _schema_setup(p):
    p.add_argument("file", nargs="?", default=None, help="task, variants, truth, menu or people (default: all five)")
    p.add_argument("--out", default=None, help="write <file>.schema.json files into this folder instead of printing")


def cmd_schema(a) -> int:
    """Print the JSON Schema of task.yaml, variants.yaml, truth.yaml, menu.yaml or people.yaml (editors, docs)."""
    from pathlib import Path

    from fdegym_env.core.schema import FILES, json_schema
    names = [a.file] if a.file else [k.removesuffix(".yaml") for k in FILES]
    schemas = {n.removesuffix(".yaml"): json_schema(n) for n in names}
    if a.out:
        check_output_folder(a.out, "--out")
        out = Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        for n, s in schemas.items():
            (out / f"{n}.schema.json").write_text(json.dumps(s, indent=2) + "\n", encoding="utf-8")
            print(out / f"{n}.schema.json")
    else:
        print(json.dumps(schemas[names[0].removesuffix(".yaml")] if a.file else schemas, indent=2))
    return 0


def _cmd(name: str, setup: Callable[[argparse.ArgumentParser], None], run: Callable[[argparse.Namespace], int]) -> Command:
    doc = (run.__doc__ or "").strip()
    if not doc:
        raise RuntimeError(f"fdegym {name}: the command function {run.__name__} needs a docstring (its --help line)")
    return Command(name, doc.splitlines()[0], setup, run)


def commands() -> list[Command]:
    """Every ``fdegym`` subcommand, in the order ``fdegym --help`` lists them."""
    from fdegym_env.cli import batch as cli_batch
    from fdegym_env.cli import episode as cli_episode
    from fdegym_env.cli import mcp as cli_mcp
    from fdegym_env.cli import record as cli_record
    from fdegym_env.cli import sandbox as cli_sandbox
    from fdegym_env.cli import serve as cli_serve
    from fdegym_env.harness import cli as cases_cli
    return [
        _cmd("list", _list_setup, cmd_list),
        _cmd("run", _run_setup, cmd_run),
        _cmd("validate", _validate_setup, cmd_validate),
        _cmd("schema", _schema_setup, cmd_schema),
        _cmd("bench", cli_batch._bench_setup, cli_batch.cmd_bench),
        _cmd("report", cli_batch._report_setup, cli_batch.cmd_report),
        _cmd("play", cli_batch._play_setup, cli_batch.cmd_play),
        _cmd("replay", cli_record._replay_setup, cli_record.cmd_replay),
        _cmd("show", cli_record._show_setup, cli_record.cmd_show),
        _cmd("doctor", cli_sandbox._doctor_setup, cli_sandbox.cmd_doctor),
        _cmd("sandbox", cli_sandbox._sandbox_setup, cli_sandbox.cmd_sandbox),
        _cmd("cases", cases_cli._setup, cases_cli.cmd_cases),
        _cmd("serve", cli_serve._setup, cli_serve.cmd_serve),
        _cmd("serve-env", cli_serve._env_setup, cli_serve.cmd_serve_env),
        _cmd("episode", cli_episode._setup, cli_episode.cmd_episode),
        _cmd("mcp", cli_mcp._setup, cli_mcp.cmd_mcp),
    ]


def _version() -> str:
    """The installed distribution's version (no heavy imports: ``--version`` answers at once)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("fdegym")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown (not installed)"


class _HelpFormatter(argparse.HelpFormatter):
    """Measures command names at the indent they are printed at (argparse measures them one level
    shallower, so the longest name, serve-env, had its help pushed to the next line)."""

    def add_argument(self, action):
        super().add_argument(action)
        for sub in self._iter_indented_subactions(action):  # (the indent is one level deeper in here)
            width = len(self._format_action_invocation(sub)) + self._current_indent
            self._action_max_length = max(self._action_max_length, width)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fdegym", description="FDE-Gym delivery tasks as Gymnasium environments.",
                                     formatter_class=_HelpFormatter)
    parser.add_argument("--version", action="version", version=f"fdegym {_version()}")
    sub = parser.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    for c in commands():
        p = sub.add_parser(c.name, help=c.help, description=c.help)
        c.setup(p)
        p.set_defaults(func=c.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    a = parser.parse_args(argv)
    try:
        rc = int(a.func(a) or 0)
        sys.stdout.flush()  # a short output still in the buffer meets the closed pipe here, not at exit
        return rc
    except BrokenPipeError:  # `fdegym show ep.jsonl | less` quit early, or `| head`: not an error
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the exit flush stays quiet
        return 0
    except (ValueError, RuntimeError) as e:
        print(f"fdegym {a.cmd}: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:   # a path the user gave that cannot be read or written
        where = f" {e.filename!r}" if e.filename else ""
        print(f"fdegym {a.cmd}: error: {e.strerror or e}{where} (fix: check the path and its permissions)",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
