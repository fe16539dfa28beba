"""`fdegym report` on N synthetic results (default 20,000): wall time and peak memory of the process.

    python bench/bench_report.py [--rows 20000] [--ci 0.9]

Writes a results.jsonl of N runs (5 tasks × 4 agents × 2 levels, scores drawn per task and agent) to
a temporary folder and runs ``fdegym report`` on it in a child process, reporting wall and CPU seconds and
the child's peak RSS (``resource.getrusage(RUSAGE_CHILDREN)``).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def write_results(folder: Path, n: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    tasks = ["news_incident", "billing_dispute", "clinic_inbox", "helpdesk_tutorial", "pager_fatigue"]
    agents = {"do-nothing": 0.0, "literal": 0.1, "reference": 0.95, "llm": 0.5}
    levels = ["L0", "L3"]
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "results.jsonl", "w", encoding="utf-8") as f:
        for i in range(n):
            task, (agent, mu), level = rng.choice(tasks), rng.choice(list(agents.items())), rng.choice(levels)
            u = max(-1.0, min(1.2, rng.gauss(mu, 0.25)))
            cost = round(rng.uniform(0, 0.2), 4)
            inc = ["breach"] if rng.random() < 0.05 else []
            score = (min(u, 0.0) if inc else u) - cost
            f.write(json.dumps({"run_id": f"{agent}|{level}|{task}|{i}", "task": task, "agent": agent, "level": level,
                                "variant": "base", "seed": i, "score": score, "uplift": u, "contact_cost": cost,
                                "incidents": inc, "resolved": score >= 0.8 and not inc, "wall_seconds": 1.0}) + "\n")
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=20_000)
    ap.add_argument("--ci", type=float, default=0.95)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_results(Path(tmp) / "b", a.rows)
        t0 = time.monotonic()
        proc = subprocess.run([sys.executable, "-c", "import sys; from fdegym_env.cli.main import main; sys.exit(main())",
                               "report", str(folder), "--ci", str(a.ci)], capture_output=True, text=True)
        wall = time.monotonic() - t0
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak_mb, cpu = ru.ru_maxrss / 1024, ru.ru_utime + ru.ru_stime
        if proc.returncode:
            sys.exit(proc.stderr)
        print(proc.stdout.splitlines()[0] if proc.stdout else "")
        print(f"{a.rows} rows: {wall:.2f} s wall ({cpu:.2f} s CPU), peak RSS {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
