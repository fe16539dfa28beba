"""Lines of a scenario's harness: every text file outside ``world/`` and ``briefs/`` (Python, YAML,
solutions and their overlay folders, and any data table a generator reads), except the top-level
``*.md`` design notes. The toolkit's budget is counted this way, so moving code or
phrase tables into another file type does not make a scenario cheaper.

``python -m fdegym_env.tasklib.size [TASKS_FOLDER]`` prints one row per task.
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fdegym_env.tasklib.size", description="Lines of each scenario's harness.")
    ap.add_argument("tasks_folder", nargs="?", default="tasks", help="a folder of task folders (default: tasks)")
    root = Path(ap.parse_args(argv).tasks_folder)
    if not root.is_dir():
        ap.error(f"{root} is not a folder")
    for d in sorted(p for p in root.iterdir() if (p / "task.yaml").is_file()):
        print(f"{d.name:<22} {harness_lines(d):>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
