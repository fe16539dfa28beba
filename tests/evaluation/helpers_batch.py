"""Helpers shared by the batch tests: run the CLI, read results, make a task whose solution kills its worker."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import TINY

SANDBOX = os.environ.get("FDEGYM_TEST_SANDBOX", "auto")
REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, timeout: float = 600, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``fdegym ARGS`` in a fresh interpreter (as a user would)."""
    return subprocess.run([sys.executable, "-m", "fdegym_env.cli.main", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO, env={**os.environ, **(env or {})})


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]


def scores_by_run(out: Path) -> dict[str, float]:
    return {r["run_id"]: r["score"] for r in lines(out / "results.jsonl")}


def crashing_task(tmp: Path) -> str:
    """A copy of tiny_task with ``solutions/crash.py`` (kills its process) and ``solutions/boom.py`` (raises)."""
    dest = tmp / "crash_task"
    shutil.copytree(TINY, dest, ignore=shutil.ignore_patterns("__pycache__"))
    yml = dest / "task.yaml"
    yml.write_text(yml.read_text().replace("id: tiny_task", "id: crash_task"))
    (dest / "solutions" / "crash.py").write_text("import os\n\n\ndef apply(ws, params):\n    os._exit(13)\n")
    (dest / "solutions" / "boom.py").write_text("def apply(ws, params):\n    raise RuntimeError('boom on purpose')\n")
    return str(dest)


def semaphores_of_group(pgid: int) -> set[str]:
    """The POSIX semaphores (``/dev/shm/sem.*``) the processes of group ``pgid`` have mapped: what a
    SIGKILL of the whole group (its resource tracker included) leaves in ``/dev/shm``."""
    found = set()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            if os.getpgid(int(pid)) != pgid:
                continue
            with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as f:
                found |= {line.split()[-1] for line in f if "/dev/shm/sem." in line}
        except OSError:
            pass
    return {p for p in found if p.startswith("/dev/shm/sem.")}
