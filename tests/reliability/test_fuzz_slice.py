"""A seeded slice of the shipped fuzzer (bench/fuzz_actions.py): random and adversarial actions
cause no exception, no hang, no missing result, no change from a rejected action, no leftover folder."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from tests.conftest import TINY

FUZZ = Path(__file__).resolve().parents[2] / "bench" / "fuzz_actions.py"


def test_fuzz_slice_on_the_tiny_task():
    spec = importlib.util.spec_from_file_location("fuzz_actions", FUZZ)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod   # its dataclasses look their module up
    spec.loader.exec_module(mod)
    rep = mod.fuzz([TINY], actions_per_task=120, seed=1, step_limit_s=30.0, episode_len=30)
    assert rep.actions >= 120 and rep.episodes >= 4
    assert rep.ok, rep
