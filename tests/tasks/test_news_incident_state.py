"""news_incident: what the agent's own runs leave inside system/ is never graded. Any `run` that imports
the ingest writes system/state/ingest.db (and __pycache__); system/ is deployed as it stands, so without
task.yaml's runtime_state a db left by replaying the archived week was graded with the code, and a
system that reads its db (here: a known slug means an update) scored differently for it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading import grade as grading

TASK = load_task("news_incident")

_REPLAY = ("import glob, json, sys\nsys.path.insert(0, '.')\nfrom wire_ingest.pipeline import process_batch\n"
           "for f in sorted(glob.glob('../data/wire/*.jsonl')):\n"
           "    process_batch([json.loads(line) for line in open(f) if line.strip()])\n")

# a system that reads its own state: a story whose slug it has already filed updates that story
_SLUG_MEMORY = '''    row = db.execute("SELECT guid FROM items WHERE agency = ? AND slug = ? ORDER BY received LIMIT 1",
                     (item["agency"], item["slug"])).fetchone()
    if row is not None and item["msgtype"] == "story":
        store.record(db, item, "update")
        return _decision(item, "update", "a slug we know", story=row["guid"])

    # Advisories, test messages'''

# what a stale __pycache__ would hold: a pipeline that holds everything
_STALE = '''
def process_batch(items):
    return [{"guid": it["guid"], "action": "hold", "story": it["guid"], "reason": "stale bytecode"} for it in items]
'''

_PYC = '''import importlib.util, marshal, os, sys
src, stale, tag = sys.argv[1], sys.argv[2], sys.implementation.cache_tag
st = os.stat(src)
out = os.path.join(os.path.dirname(src), "__pycache__", f"pipeline.{tag}.pyc")
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "wb") as f:   # a header that matches pipeline.py's mtime and size: the interpreter trusts it
    f.write(importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
            + (st.st_size & 0xFFFFFFFF).to_bytes(4, "little") + marshal.dumps(compile(stale, src, "exec")))
'''


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(world_snapshot(TASK, TASK.variant("base")), ws)
    p = ws / "system" / "wire_ingest" / "pipeline.py"
    src = p.read_text(encoding="utf-8")
    assert "    # Advisories, test messages" in src
    p.write_text(src.replace("    # Advisories, test messages", _SLUG_MEMORY, 1), encoding="utf-8")
    return ws


def _grade(ws: Path) -> grading.GradeOutcome:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return grading._grade_uncached(TASK, TASK.variant("base"), ws, "none")


def _leave_experiments_behind(ws: Path) -> None:
    """What the agent's runs leave: the archived week replayed into the default db, and bytecode."""
    system = ws / "system"
    subprocess.run([sys.executable, "-c", _REPLAY], cwd=system, check=True, capture_output=True)
    db = system / "state" / "ingest.db"
    assert db.is_file() and db.stat().st_size > 0
    for exe in dict.fromkeys([sys.executable, shutil.which("python3"), "/usr/bin/python3"]):
        if exe and Path(exe).exists():
            subprocess.run([exe, "-c", _PYC, str(system / "wire_ingest" / "pipeline.py"), _STALE], check=True)
    # the stale bytecode is live in the workspace: run there, the ingest holds everything
    probe = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, '.'); "
                            "from wire_ingest.pipeline import process_batch as p; "
                            "print(p([{'guid': 'x'}])[0]['action'])"], cwd=system, capture_output=True, text=True)
    assert probe.stdout.strip() == "hold", probe


def test_runtime_state_is_declared_and_the_readme_says_production_keeps_its_own():
    assert TASK.runtime_state == ("state",)
    readme = (TASK.world_path / "system" / "README.md").read_text(encoding="utf-8")
    assert "never the contents of `state/`" in readme


@pytest.mark.slow
def test_a_db_and_bytecode_left_in_system_change_neither_grade_nor_trial(tmp_path):
    ws = _workspace(tmp_path)
    clean = _grade(ws)
    digest = grading.deployed_digest(TASK, ws)
    _leave_experiments_behind(ws)
    assert grading.deployed_digest(TASK, ws) == digest      # nothing deployed changed: the caches still answer
    left = _grade(ws)
    assert (left.kpi, left.incidents, left.details) == (clean.kpi, clean.incidents, clean.details)
    with grading.Deployment(TASK, ws, "none") as deploy:
        system = deploy.workspace / "system"
        assert (system / "state").is_dir() and not any((system / "state").iterdir())
        assert not list(system.rglob("__pycache__"))
    params = dict(TASK.variant("base").params)
    traffic = TASK.module("traffic").shadow(params, 1)
    trials = []
    for _ in range(2):                                     # with the leftover db, then without it
        with grading.Deployment(TASK, ws, "none") as deploy:
            trials.append(TASK.module("trial").run(deploy, params, 1, traffic)["feedback"])
        (ws / "system" / "state" / "ingest.db").unlink(missing_ok=True)
    assert trials[0] == trials[1]


def test_without_runtime_state_the_leftover_db_would_be_graded(tmp_path, monkeypatch):
    """The defect, kept visible: deploy the same folder as before the fix and the db comes along."""
    ws = _workspace(tmp_path)
    _leave_experiments_behind(ws)
    monkeypatch.setattr(type(TASK), "runtime_state", property(lambda self: ()))
    with grading.Deployment(TASK, ws, "none") as deploy:
        assert (deploy.workspace / "system" / "state" / "ingest.db").is_file()
