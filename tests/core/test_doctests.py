"""Every example in a docstring of fdegym_env (wrappers and agents included) runs and prints what it says.

One test per module, so a failing example names its module. Modules that import an optional extra
(the README lists them: llm, multiagent, sb3, ray, docker, plot) are skipped, loudly, only when that
extra is missing; examples marked ``# doctest: +SKIP`` in the source are the only others not run.
"""

from __future__ import annotations

import doctest
import importlib
import os

import pytest

from tests.core.test_import_graph import _modules

OPTIONAL = {"openai": "llm", "pettingzoo": "multiagent", "stable_baselines3": "sb3", "sb3_contrib": "sb3",
            "ray": "ray", "docker": "docker", "matplotlib": "plot"}
MODULES = sorted(m for m in _modules() if m != "fdegym_env.tasks")


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


def test_the_finder_sees_the_examples():
    import fdegym_env.core.errors
    import fdegym_env.evaluation.report
    found = sum(len(t.examples) for m in (fdegym_env.core.errors, fdegym_env.evaluation.report)
                for t in doctest.DocTestFinder().find(m))
    assert found >= 5
