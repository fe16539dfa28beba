"""No import cycles among fdegym_env's modules, counting lazy (function-level) imports too.

The graph is read from the source with ``ast``: every ``import``/``from ... import`` anywhere in a
module (module level, functions, methods), plus ``importlib.import_module("fdegym_env...")`` with a
literal name. Imports under ``if TYPE_CHECKING:`` never run and are left out. An edge to a package
means its ``__init__``; the implicit import of a parent package is not an edge (every submodule
would otherwise form a cycle with ``fdegym_env/__init__``).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# import path -> folder (setuptools package-dir in pyproject.toml); tasks/: only the package itself
PACKAGES = {"fdegym_env": ROOT / "fdegym_env", "fdegym_env.wrappers": ROOT / "wrappers",
            "fdegym_env.agents": ROOT / "agents"}


def _modules() -> dict[str, Path]:
    mods = {"fdegym_env.tasks": ROOT / "tasks" / "__init__.py"}
    for pkg, folder in PACKAGES.items():
        for f in folder.rglob("*.py"):
            parts = list(f.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            mods[".".join([pkg, *parts])] = f
    return mods


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imported_names(tree: ast.AST, module: str, is_pkg: bool):
    """(imported module name, line) for every import that can run."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_pkg else module.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            for a in node.names:
                yield (mod, a.name), node.lineno  # a submodule of `mod`, or a name defined in `mod`
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name))
              and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.args[0].value, node.lineno
        stack.extend(ast.iter_child_nodes(node))


def _resolve(target: str | tuple[str, str], mods) -> str | None:
    if isinstance(target, tuple):  # from mod import name
        mod, name = target
        return f"{mod}.{name}" if f"{mod}.{name}" in mods else (mod if mod in mods else None)
    return target if target in mods else None


@functools.lru_cache(maxsize=1)
def import_graph() -> dict[str, dict[str, int]]:
    """module -> {imported fdegym_env module: line}."""
    mods = _modules()
    graph: dict[str, dict[str, int]] = {}
    for name, f in mods.items():
        edges: dict[str, int] = {}
        for target, line in _imported_names(ast.parse(f.read_text(encoding="utf-8")), name, f.name == "__init__.py"):
            dep = _resolve(target, mods)
            if dep is not None and dep != name:
                edges.setdefault(dep, line)
        graph[name] = edges
    return graph


def find_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Strongly connected components with more than one module (or a self-loop), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(graph[w])))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def test_the_checker_sees_lazy_imports_and_cycles():
    # a function-level import closing a loop is a cycle; a TYPE_CHECKING one is not
    src_a = "def f():\n    from fdegym_env.b import x\n"
    src_b = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fdegym_env.c import y\nimport fdegym_env.a\n"
    src_c = "import importlib\nimportlib.import_module('fdegym_env.b')\n"
    graph = {}
    for name, src in {"fdegym_env.a": src_a, "fdegym_env.b": src_b, "fdegym_env.c": src_c}.items():
        mods = {"fdegym_env.a", "fdegym_env.b", "fdegym_env.c", "fdegym_env"}
        graph[name] = {_resolve(t, mods): ln for t, ln in _imported_names(ast.parse(src), name, False)
                       if _resolve(t, mods) not in (None, name, "fdegym_env")}
    assert graph == {"fdegym_env.a": {"fdegym_env.b": 2}, "fdegym_env.b": {"fdegym_env.a": 4},
                     "fdegym_env.c": {"fdegym_env.b": 2}}
    assert find_cycles(graph) == [["fdegym_env.a", "fdegym_env.b"]]


def test_the_graph_covers_the_package():
    graph = import_graph()
    assert len(graph) > 60
    assert "fdegym_env.core.registry" in graph["fdegym_env.core.env"]          # a lazy import inside __init__
    assert "fdegym_env.people.spec" in graph["fdegym_env.core.task"]       # a lazy import inside a method


def test_no_import_cycles():
    graph = import_graph()
    cycles = find_cycles(graph)
    detail = "\n".join(
        " <-> ".join(c) + "\n" + "\n".join(f"    {a} imports {b} (line {graph[a][b]})"
                                            for a in c for b in graph[a] if b in c)
        for c in cycles)
    assert not cycles, f"import cycles among fdegym_env modules (lazy imports included):\n{detail}"


def test_errors_module_depends_on_nothing():
    assert import_graph()["fdegym_env.core.errors"] == {}
