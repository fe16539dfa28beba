"""Grading's on-disk caches."""

from __future__ import annotations

import os
from pathlib import Path

from fdegym_env.grading import grade as grading
from fdegym_env.core.registry import load_task
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
