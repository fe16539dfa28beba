"""Lines of a scenario's harness: every text file outside ``world/`` and ``briefs/`` (Python, YAML,
solutions and their overlay folders, and any data table a generator reads), except the top-level
``*.md`` design notes. The toolkit's budget (issue 18) is counted this way, so moving code or
phrase tables into another file type does not make a scenario cheaper.

``python -m fdegym_env.tasklib.size [TASKS_FOLDER]`` prints one row per task.
"""

from __future__ import annotations

import sys
from pathlib import Path

SKIP = ("world", "briefs", "__pycache__")


def harness_lines(task_dir: Path) -> int:
    n = 0
    for f in sorted(Path(task_dir).rglob("*")):
        rel = f.relative_to(task_dir)
        if not f.is_file() or rel.parts[0] in SKIP or "__pycache__" in rel.parts:
            continue
        if len(rel.parts) == 1 and f.suffix == ".md":
            continue
        try:
            n += len(f.read_text(encoding="utf-8").splitlines())
        except UnicodeDecodeError:   # a binary file is not written by hand
            continue
    return n


if __name__ == "__main__":
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "tasks")
    for d in sorted(p for p in root.iterdir() if (p / "task.yaml").is_file()):
        print(f"{d.name:<22} {harness_lines(d):>6}")
