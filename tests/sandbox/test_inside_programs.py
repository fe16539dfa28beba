"""The programs fdegym runs inside a sandbox (or writes into a workspace) are ordinary module files.

Every file in ``fdegym_env/sandbox/inside/`` compiles as Python 3.8, imports only the standard
library (or a sibling, which :func:`source` inlines), and the constants the host passes on are the
files' text. A guard keeps programs from moving back into string literals, where no linter, type
checker or coverage sees them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from fdegym_env.grading import grade
from fdegym_env.harness import clients, delivered, servers
from fdegym_env.sandbox import executor, worker
from fdegym_env.sandbox.inside import source, with_values

ROOT = Path(__file__).resolve().parents[2]
INSIDE = ROOT / "fdegym_env" / "sandbox" / "inside"
FILES = sorted(INSIDE.glob("*.py"))
PROGRAMS = [p for p in FILES if p.name != "__init__.py"]   # __init__: the host's loader
# what a delivered program reading /proc/*/cmdline must not learn (the bypass probe_proc looks for these)
HOST_MARKERS = ("fdegym_env", "site-packages", "pytest", "/root/")


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((a.name, 0) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", node.level


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def test_the_programs_are_there():
    names = {p.stem for p in PROGRAMS}
    assert {"common", "worker_main", "executor_main", "ask", "pilot", "delivered_wrapper", "llm_client",
            "call_driver"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_file_is_stdlib_only_python38(path):
    text = path.read_text(encoding="utf-8")
    compile(text, str(path), "exec")
    tree = ast.parse(text, feature_version=(3, 8))   # no syntax newer than the oldest python3 it runs on
    for mod, level in _imports(tree):
        if level:
            assert level == 1 and (INSIDE / f"{mod}.py").exists(), f"{path.name}: only a sibling may be imported: {mod}"
            continue
        assert mod.partition(".")[0] in sys.stdlib_module_names, f"{path.name} imports {mod}"


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_program_annotations_cost_nothing_on_python38(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # no __future__ import: common.py is inlined in the middle of another program, where one is a SyntaxError
    assert not any(mod == "__future__" for mod, _ in _imports(tree)), path.name
    # Annotations are strings and their names are imported only for the type checker, so a program
    # neither imports typing at start nor evaluates ``list[int]`` or ``X | None`` on Python 3.8.
    runtime = [n for n in tree.body if not (isinstance(n, ast.If) and _is_type_checking(n))]
    assert not any(mod == "typing" for node in runtime for mod, _ in _imports(node)), path.name
    for node in ast.walk(tree):
        anns = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            anns = [x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg] if x]
            anns.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            anns = [node.annotation]
        for ann in anns:
            if ann is not None and not isinstance(ann, (ast.Constant, ast.Name, ast.Attribute)):
                pytest.fail(f"{path.name}:{ann.lineno}: annotation {ast.unparse(ann)!r} must be a string or a name")


def test_the_launched_texts_are_the_files():
    assert worker.WORKER_SRC == source("worker_main")
    assert executor.EXECUTOR_SRC == source("executor_main")
    assert servers.LLM_CLIENT == (INSIDE / "llm_client.py").read_text(encoding="utf-8")
    assert grade._DRIVER == with_values(source("call_driver"), MARK=grade._MARK)
    common = (INSIDE / "common.py").read_text(encoding="utf-8")
    for name, src in (("worker_main", worker.WORKER_SRC), ("executor_main", executor.EXECUTOR_SRC)):
        own = (INSIDE / f"{name}.py").read_text(encoding="utf-8")
        line = next(x for x in own.splitlines(keepends=True) if x.startswith("from .common import"))
        assert src == own.replace(line, common)   # common.py in place of its import line, nothing else
        compile(src, name, "exec")
        assert not [m for m in HOST_MARKERS if m in src], name   # it is visible in /proc/<pid>/cmdline


@pytest.mark.filterwarnings("ignore:sandbox='none':UserWarning")
def test_written_clients_get_their_values(tmp_path):
    ask = clients.ask_client(41873)
    assert "PORT = 41873\n" in ask and ask == with_values(source("ask"), PORT=41873)
    assert "PORT = 41873\n" in clients.pilot_client(41873)
    (tmp_path / "system").mkdir()
    with delivered.DeliveredPython(tmp_path, "none") as exe:   # the wrapper's round trip, not the sandbox
        text = Path(exe).read_text(encoding="utf-8")
        out = subprocess.run([exe, "-c", "import sys; print(sys.stdin.read() * 2); sys.exit(3)"], input="ab",
                             capture_output=True, text=True, cwd=tmp_path / "system", timeout=60)
    assert (out.returncode, out.stdout) == (3, "abab\n"), out.stderr
    assert text.startswith(f"#!{sys.executable} -I\n")
    assert "\nSOCK = " in text and "SOCK = ''" not in text and "PARENT_STDIN = (-1, -1)" not in text
    with pytest.raises(ValueError):
        with_values(source("ask"), NO_SUCH_NAME=1)


def test_ask_without_a_server_fails_cleanly(tmp_path):
    """The written ``bin/ask`` runs as a program (help text; a refused connection is an error, not a hang)."""
    script = tmp_path / "ask"
    script.write_text(clients.ask_client(1), encoding="utf-8")
    out = subprocess.run([sys.executable, "-I", str(script), "--help"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and "ask --who" in out.stdout
    out = subprocess.run([sys.executable, "-I", str(script), "--who"], capture_output=True, text=True, timeout=30)
    assert out.returncode != 0 and "Connection refused" in out.stderr


# --- the guard: no program in a string literal -------------------------------------------------------
GUARD_LINES = 13   # literals this long that parse as a program fail the guard (the grading call driver had 13;
#                   the bypass probes' short attack payloads, up to 12, stay as data)


def programs_in_strings(root: Path, min_lines: int) -> list[tuple[str, int, int]]:
    """(file, line, lines) of every string literal under ``root`` of at least ``min_lines`` lines that is a
    program: it parses as Python and defines or imports something, or it starts with a python ``#!`` line
    (a template such as ``{sock!r}`` does not parse)."""
    found = []
    for f in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            text = node.value
            n = len(text.strip("\n").splitlines())
            if n < min_lines:
                continue
            first = text.lstrip("\n").split("\n", 1)[0]
            try:
                body = ast.walk(ast.parse(text))
                program = any(isinstance(x, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)) for x in body)
            except (SyntaxError, ValueError):
                program = False
            if program or (first.startswith("#!") and "python" in first):
                found.append((str(f.relative_to(root.parent)), node.lineno, n))
    return found


def test_no_program_hides_in_a_string_literal():
    found = programs_in_strings(ROOT / "fdegym_env", GUARD_LINES)
    assert not found, ("programs kept in string literals (make each a module in fdegym_env/sandbox/inside/ and "
                       f"read it with source()): {found}")


def test_the_guard_sees_a_program_and_a_template(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    program = "import os\n\n" + "".join(f"def f{i}():\n    return os.getpid()\n\n" for i in range(6))
    template = "#!{python} -I\nimport sys\n" + "s.connect({sock!r})\n" * 20
    prose = "\n".join(f"Line {i} of a long message, not a program." for i in range(40))
    (pkg / "m.py").write_text(f"A = {program!r}\nB = {template!r}\nC = {prose!r}\n", encoding="utf-8")
    assert [(line, n) for _, line, n in programs_in_strings(pkg, GUARD_LINES)] == [(1, 19), (2, 22)]
