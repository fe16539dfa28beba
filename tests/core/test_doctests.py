"""Every example in a docstring of fdegym_env (wrappers and agents included) runs and prints what it says.

One test per module, so a failing example names its module. Modules that import an optional extra
(the README lists them: llm, multiagent, sb3, ray, docker, plot, openenv) are skipped, loudly, only when that
extra is missing; examples marked ``# doctest: +SKIP`` in the source are the only others not run.
"""

from __future__ import annotations

import doctest
import importlib
import os

import pytest

from tests.core.test_import_graph import _modules

OPTIONAL = {"openai": "llm", "pettingzoo": "multiagent", "stable_baselines3": "sb3", "sb3_contrib": "sb3",
            "ray": "ray", "docker": "docker", "matplotlib": "plot", "openenv": "openenv"}
MODULES = sorted(m for m in _modules() if m != "fdegym_env.tasks")
# Modules whose docstrings hold no example: package markers, command-line front ends, servers and
# processes that only run as such. Every other module must run at least one example, and a module
# listed here that gains one must leave the list (both are asserted).
NO_EXAMPLES = frozenset({
    "fdegym_env", "fdegym_env.admission", "fdegym_env.agents", "fdegym_env.cli", "fdegym_env.core",
    "fdegym_env.evaluation", "fdegym_env.grading", "fdegym_env.llm", "fdegym_env.people", "fdegym_env.sandbox",
    "fdegym_env.serving", "fdegym_env.tasklib", "fdegym_env.testing", "fdegym_env.web", "fdegym_env.wrappers",
    "fdegym_env.cli.batch", "fdegym_env.cli.episode", "fdegym_env.cli.main", "fdegym_env.cli.mcp", "fdegym_env.cli.record",
    "fdegym_env.cli.sandbox", "fdegym_env.cli.serve", "fdegym_env.harness.cli", "fdegym_env.harness.clients",
    "fdegym_env.harness.envvars", "fdegym_env.serving.episode_daemon", "fdegym_env.serving.episode_pool",
    "fdegym_env.serving.mcp_server", "fdegym_env.web.views", "fdegym_env.sandbox.executor_sandbox",
    "fdegym_env.sandbox.none", "fdegym_env.sandbox.base",
    # programs run inside a sandbox or written into a workspace (tests/sandbox/test_inside_programs.py)
    "fdegym_env.sandbox.inside.ask", "fdegym_env.sandbox.inside.delivered_wrapper",
    "fdegym_env.sandbox.inside.executor_main", "fdegym_env.sandbox.inside.llm_client",
    "fdegym_env.sandbox.inside.pilot", "fdegym_env.sandbox.inside.worker_main",
    "fdegym_env.sandbox.inside.call_driver",
    # run real episodes, sandboxes or graders: covered by their own tests rather than an example
    "fdegym_env.admission.bypasses", "fdegym_env.admission.realism", "fdegym_env.admission.validate",
    "fdegym_env.agents.base", "fdegym_env.agents.baselines", "fdegym_env.core.paths", "fdegym_env.core.workspace",
    "fdegym_env.core.yamlio", "fdegym_env.people.spec", "fdegym_env.serving.episode_host",
    "fdegym_env.tasklib.evaluation", "fdegym_env.tasklib.menu", "fdegym_env.tasklib.size", "fdegym_env.tasklib.solutions",
})


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name, tmp_path, monkeypatch):
    monkeypatch.setenv("FDEGYM_CACHE", os.environ.get("FDEGYM_CACHE", str(tmp_path / "cache")))
    monkeypatch.chdir(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    try:
        mod = importlib.import_module(name)
    except ImportError as e:
        top = (e.name or "").split(".")[0]
        if top in OPTIONAL:
            pytest.skip(f"{name} needs the optional extra fdegym[{OPTIONAL[top]}] ({top} is not installed)")
        raise
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(mod, name) if t.examples]
    for t in tests:
        runner.run(t)
    res = runner.summarize(verbose=False)
    assert res.failed == 0, f"{res.failed} of {res.attempted} docstring examples in {name} failed (output above)"
    found = sum(len(t.examples) for t in tests)   # run, or marked +SKIP (needs a server, a model ...)
    if name in NO_EXAMPLES:
        assert found == 0, f"{name} now has examples: take it off NO_EXAMPLES"
    else:
        assert found > 0, f"{name} has no docstring example: add one (or list it in NO_EXAMPLES, saying why)"


def test_the_finder_sees_the_examples():
    import fdegym_env.core.errors
    import fdegym_env.evaluation.report
    found = sum(len(t.examples) for m in (fdegym_env.core.errors, fdegym_env.evaluation.report)
                for t in doctest.DocTestFinder().find(m))
    assert found >= 5
