"""Programs that run inside a sandbox or a case's workspace, kept as ordinary modules.

Each file here is stdlib-only and runs on Python >= 3.8 (the sandbox's ``python3`` is the
distribution's); none imports fdegym. The host does not import the programs: it reads their text with
:func:`source` and hands it over (``python3 -c <text>``, or a file written into the workspace).
``common.py`` holds what the executor and the grading worker share; :func:`source` puts its text in
place of a program's ``from .common import ...`` line, so the sandbox gets one self-contained text.

Annotations are strings, with their names imported under ``TYPE_CHECKING = False``: checked by mypy,
never evaluated, and the programs do not import ``typing`` at start.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_INLINE = re.compile(r"^from \.(\w+) import (?:\([^)]*\)|[^\n]*)\n", re.M)


@functools.lru_cache(maxsize=None)
def source(name: str) -> str:
    """The text of ``<name>.py`` with each ``from .<module> import ...`` line replaced by that module's text.

    Example:
        >>> text = source("executor_main")
        >>> "\\ndef supervise(" in text, "\\nfrom .common import" in text
        (True, False)
    """
    text = (_HERE / f"{name}.py").read_text(encoding="utf-8")
    return _INLINE.sub(lambda m: source(m.group(1)), text)


def with_values(text: str, shebang: str | None = None, **values: object) -> str:
    """A program's text with its ``#!`` first line set to ``shebang`` and, for each keyword, its one
    top-level ``NAME = ...`` line (trailing comment included) set to ``NAME = <repr(value)>``.

    Example:
        >>> print(with_values("#!python3\\nPORT = 0   # set below\\nprint(PORT)", shebang="#!/usr/bin/python3", PORT=80))
        #!/usr/bin/python3
        PORT = 80
        print(PORT)
    """
    for name, value in values.items():
        line = f"{name} = {value!r}"
        text, n = re.subn(rf"^{re.escape(name)} = [^\n]*$", line.replace("\\", "\\\\"), text, flags=re.M)
        if n != 1:
            raise ValueError(f"expected one line '{name} = ...' in the program, found {n}")
    if shebang is not None:
        if not text.startswith("#!"):
            raise ValueError("the program has no #! line to set")
        text = shebang + text[text.index("\n"):]
    return text
