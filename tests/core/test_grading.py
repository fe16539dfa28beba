"""Grading's on-disk caches."""

from __future__ import annotations

import os
from pathlib import Path

from fdegym_env.core.registry import load_task
from fdegym_env.grading import grade as grading
from tests.conftest import TINY


def test_anchor_cache_temp_file_is_unique_per_process(tmp_path, monkeypatch):
    # id(obj) repeats across processes (forked workers share a memory layout): the temp name carries the pid
    monkeypatch.setenv("FDEGYM_CACHE", str(tmp_path / "cache"))
    seen: list[str] = []
    real_replace = Path.replace

    def spy(self, target):
        seen.append(self.name)
        return real_replace(self, target)

    monkeypatch.setattr(Path, "replace", spy)
    task = load_task(TINY)
    out = grading.anchors(task, task.variant("base"), "none")
    assert set(out) >= {"kpi_baseline", "kpi_reference"}
    tmp_names = [n for n in seen if n.endswith(".tmp")]
    assert tmp_names, seen
    assert all(f".{os.getpid()}." in n for n in tmp_names), tmp_names


def test_shadow_traffic_is_generated_once_per_variant_and_day_and_copied_out(monkeypatch):
    task = load_task(TINY)
    variant = task.variant("base")
    mod = task.module("traffic")
    calls: list[int] = []

    def shadow(params, day):
        calls.append(day)
        return {"day": day, "items": [{"id": 1, "pair": (1, 2)}]}   # a tuple: not JSON-faithful

    monkeypatch.setattr(mod, "shadow", shadow, raising=False)
    grading._TRAFFIC_CACHE.clear()
    first = grading.shadow_traffic(task, variant, 3)
    first["items"].clear()                        # a trial that mutates its traffic ...
    again = grading.shadow_traffic(task, variant, 3)
    assert again == {"day": 3, "items": [{"id": 1, "pair": (1, 2)}]}   # ... does not change the next day's copy
    assert grading.shadow_traffic(task, variant, 4)["day"] == 4
    assert calls == [3, 4]
    grading._TRAFFIC_CACHE.clear()


def test_held_out_traffic_copies_are_independent():
    task = load_task(TINY)
    variant = task.variant("base")
    a = grading.held_out_traffic(task, variant)
    b = grading.held_out_traffic(task, variant)
    assert a == b and a is not b


def test_a_deployment_receives_system_only_and_the_cache_key_ignores_the_rest(tmp_path):
    # production gets system/ (the engagement rules say so): a delivered system that reads the
    # workspace's docs/ or data/ works nowhere but on the agent's machine, so grading must not see them
    import shutil
    task = load_task(TINY)
    variant = task.variant("base")
    ws = tmp_path / "ws"
    shutil.copytree(grading.world_snapshot(task, variant), ws)
    (ws / "notes").mkdir()
    (ws / "notes" / "todo.md").write_text("look at the logs\n")
    before = grading.deployed_digest(task, ws)
    (ws / "notes" / "todo.md").write_text("changed my mind\n")
    assert grading.deployed_digest(task, ws) == before          # notes are not deployed: same grading
    with grading.Deployment(task, ws, "none") as deploy:
        assert sorted(p.name for p in deploy.workspace.iterdir()) == ["system"]
    (ws / "system" / "extra.py").write_text("X = 1\n")
    assert grading.deployed_digest(task, ws) != before
    shutil.rmtree(ws / "system")
    assert grading.deployed_digest(task, ws) != before          # nothing deployed is a different system
    with grading.Deployment(task, ws, "none") as deploy:
        assert list(deploy.workspace.iterdir()) == []
