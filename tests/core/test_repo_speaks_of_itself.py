"""The repository speaks of the project alone: its code and docs cite its own docs (docs/design.md,
docs/scenarios.md), never a work tracker's numbers or files that live outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = re.compile(r"\b[Ii]ssues? #?\d+\b|DESIGN §|\bDESIGN\.md|\bSCENARIOS\.md|\.\./shared/")


def _tracked_text_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "*.py", "*.md", "*.yaml", "*.toml", "*.sh", "*.txt"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):   # not a git checkout: scan the files on disk
        out = [str(p.relative_to(ROOT)) for ext in ("py", "md", "yaml", "toml", "sh", "txt")
               for p in ROOT.rglob(f"*.{ext}") if ".git" not in p.parts and "site-packages" not in p.parts]
    # a scenario's world is the customer's own text ("issue 28 days once"); blind sets and agent traffic are questions
    return [ROOT / f for f in out if "/world/" not in f and not f.startswith(("tests/routing/blind", "tests/routing/agent_traffic"))]


def test_no_tracker_numbers_or_outside_files_are_cited():
    files = _tracked_text_files()
    assert len(files) > 100
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()[:100]}"
            for p in files if p != Path(__file__).resolve()
            for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if OUTSIDE.search(line)]
    assert hits == [], "cite docs/design.md or docs/scenarios.md instead:\n" + "\n".join(hits)


def test_the_design_docs_exist_and_are_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/design.md", "docs/scenarios.md"):
        assert (ROOT / doc).is_file() and doc in readme, doc
