"""Lines of a scenario's harness: Python + YAML outside ``world/`` and ``briefs/``, plus every file
under ``solutions/`` (overlay folders included). The toolkit's budget (issue 18) is counted this way.

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
        if f.suffix in (".py", ".yaml", ".yml") or rel.parts[0] == "solutions":
            n += len(f.read_text(encoding="utf-8", errors="replace").splitlines())
    return n


if __name__ == "__main__":
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "tasks")
    for d in sorted(p for p in root.iterdir() if (p / "task.yaml").is_file()):
        print(f"{d.name:<22} {harness_lines(d):>6}")
