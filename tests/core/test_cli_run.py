"""`fdegym run` on every shipped task: the paper's anchors hold for real episodes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fdegym_env.core.registry import list_tasks

DESIGN_KEYS = {"task", "variant", "level", "seed", "agent", "score", "uplift", "uplift_bounded", "contact_cost",
               "incidents", "resolved", "end_reason", "turns", "key_fact_coverage", "facts_obtained",
               "questions_asked", "kpi", "kpi_baseline", "kpi_reference", "isolation"}


def fdegym(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", *args], capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


@pytest.mark.parametrize("task", list_tasks())
def test_run_anchors(task):
    ref = fdegym("run", task, "--agent", "reference", "--json")
    assert DESIGN_KEYS <= set(ref)
    assert ref["score"] >= 0.95 and ref["resolved"] and not ref["incidents"], ref
    assert ref["isolation"] in ("bwrap", "docker")
    nothing = fdegym("run", task, "--agent", "do-nothing", "--json")
    assert abs(nothing["score"]) < 0.05, nothing
    literal = fdegym("run", task, "--agent", "literal", "--json")
    assert literal["score"] <= 0.2, literal


def test_unknown_task_is_a_clear_error():
    out = subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", "run", "news_incidnt", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "Did you mean 'news_incident'" in out.stderr


def test_output_piped_into_a_reader_that_quits_early_is_not_a_traceback():
    # `fdegym show ep.jsonl | less` (the README) or `| head`: the reader closes the pipe first
    for args in (["schema"], ["schema", "menu.yaml"]):                 # a long output, and one that fits a buffer
        reader = subprocess.Popen([sys.executable, "-m", "fdegym_env.cli.main", *args], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        reader.stdout.close()                                        # the reader is gone before the first write
        err = reader.stderr.read().decode()
        assert reader.wait(timeout=60) == 0 and "Traceback" not in err and "BrokenPipe" not in err, (args, err)


def test_help_lists_every_subcommand_with_a_line_of_help(capsys):
    import pytest as _pytest

    from fdegym_env.cli.main import build_parser, commands
    with _pytest.raises(SystemExit) as e:
        build_parser().parse_args(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    names = [c.name for c in commands()]
    assert {"list", "run", "validate", "bench", "report", "replay", "show", "doctor", "cases"} <= set(names)
    for c in commands():
        assert c.help and len(c.help) > 15, c
        line = next((ln for ln in out.splitlines() if ln.strip().startswith(c.name + " ")), None)
        assert line is not None and line.split(None, 1)[1].strip(), f"no help for {c.name!r} in:\n{out}"


def test_llm_agent_without_openai_is_a_clear_error(monkeypatch, capsys):
    from fdegym_env.cli.main import main
    from tests.conftest import TINY
    monkeypatch.setitem(sys.modules, "openai", None)  # `import openai` raises ImportError
    code = main(["run", TINY, "--agent", "llm", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "Traceback" not in err
    assert "fdegym run: error: the LLM agent (--agent llm) needs the `openai` package" in err
    assert "pip install 'fdegym[llm]'" in err


def test_list_shows_every_task_in_its_own_sector_and_the_readme_table_matches(capsys):
    from fdegym_env.cli.main import main
    from fdegym_env.core.registry import load_task
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    tasks = [load_task(t) for t in list_tasks()]
    for t in tasks:
        assert t.gym_id in out and f"sector: {t.sector}" in out and t.title in out
    assert len({t.sector for t in tasks}) == len(tasks), "two shipped tasks share a sector"
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(FDEGym/[a-z0-9_]+-v\d+)` \|", readme, re.M))
    assert rows == {t.gym_id for t in tasks}, "README's task table and the registry differ"
