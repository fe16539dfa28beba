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
