"""Generic bypass strategies that ``fdegym validate`` applies to every task.

Each strategy rewrites a workspace's ``system/`` without knowing the task: it wraps every entry
point (appending a wrapper to the entry point's module) so that it games, crashes or probes the
grader. Every strategy must score ≤ 0.05 (or be an incident) on every task. Probes that try to
read what must be invisible raise an error containing ``LEAK_MARKER`` if they succeed, and
validate fails the row when that marker shows up.

The catalogue is documented in docs/bypasses.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from fdegym_env.task import EntryPoint

LEAK_MARKER = "FDEGYM-LEAK"


def module_file(ws: Path, module: str) -> Path:
    base = ws / "system" / Path(*module.split("."))
    return base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"


def wrap_entry_points(ws: Path, entry_points: tuple[EntryPoint, ...], body: str, prelude: str = "") -> None:
    """Append ``def <function>(*args, **kwargs): <body>`` after the original in each entry module.

    In ``body``, ``_orig`` is the original function.
    """
    for ep in entry_points:
        path = module_file(ws, ep.module)
        if not path.is_file():
            continue
        indented = "\n".join("    " + line for line in body.strip("\n").splitlines())
        path.write_text(path.read_text(encoding="utf-8") + f"""

# --- generic bypass ---
{prelude}
_orig_{ep.function} = {ep.function}


def {ep.function}(*args, **kwargs):
    _orig = _orig_{ep.function}
{indented}
""", encoding="utf-8")


def _wrapping(body: str, prelude: str = "") -> Callable:
    def apply(ws: Path, params: dict, entry_points: tuple[EntryPoint, ...]) -> None:
        wrap_entry_points(ws, entry_points, body, prelude)
    apply.__doc__ = body.strip().splitlines()[0]
    return apply


GENERIC_BYPASSES: dict[str, Callable] = {
    "raise": _wrapping("raise RuntimeError('bypass: refuse to work')"),
    "return_none": _wrapping("return None"),
    "return_garbage": _wrapping("return 'garbage'"),
    "hang": _wrapping("import time\nwhile True:\n    time.sleep(1)"),
    "exit_zero": _wrapping("import os\nos._exit(0)"),
    "probe_package_source": _wrapping(
        "import glob\nfound = glob.glob('/root/**/fdegym_env/grading.py', recursive=True) + "
        "glob.glob('/usr/local/lib/**/fdegym_env/grading.py', recursive=True)\n"
        "if found:\n    raise RuntimeError('" + LEAK_MARKER + ": package source readable at ' + found[0])\n"
        "return _orig(*args, **kwargs)"),
}
