"""loan_prequal: an underwriter's reconsideration note that says a file's DTI is "over our limit" names the
limit it means, and the DTI it quotes is over it. A playtest (sample:7780, the committee's appetite at 38%)
read "DTI is still 39.3% on the real income, over our limit" against the engine's 43% and called it a
contradiction."""

from __future__ import annotations

import re

import pytest

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot

TASK = load_task("loan_prequal")
NOTE = re.compile(r"DTI is still (\d+(?:\.\d+)?)% on the real income, over our (\d+(?:\.\d+)?)% limit")


@pytest.mark.parametrize("variant", ["base", "tight_appetite", "sample:7780", "sample:4388"])
def test_every_over_the_limit_note_names_a_limit_its_dti_exceeds(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in ws.rglob("*")
                     if p.is_file() and p.suffix in (".csv", ".json", ".md", ".txt", ".log"))
    assert "over our limit" not in text
    notes = NOTE.findall(text)
    appetite = min(float(TASK.variant(variant).params["appetite_dti"]), 0.43) * 100
    for dti, limit in notes:
        assert float(limit) == pytest.approx(appetite) and float(dti) > float(limit), (dti, limit)
    if variant == "sample:7780":
        assert ("39.3", "38") in notes
