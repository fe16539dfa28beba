"""claims_fasttrack: the subtle cases of the held-out traffic exist on every named variant and on
samples, the world shows evidence for each, and they are what separates the diligent intake from
the reference."""

from __future__ import annotations

import csv
import sqlite3

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import held_out_traffic

TASK = load_task("claims_fasttrack")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:0", "sample:1", "sample:2", "sample:3"]


def _claims(variant: str):
    tr = held_out_traffic(TASK, TASK.variant(variant))
    return [(c, tr["truth"][c["claim_id"]]) for batch in tr["batches"] for c in batch]


@pytest.mark.parametrize("variant", VARIANTS)
def test_held_out_has_every_subtle_case(variant):
    rows = _claims(variant)
    ring = [t for _c, t in rows if t["kind"] == "ring"]
    p = TASK.variant(variant).params
    # copies of claims filed after the nightly extract (photo rings chain; VIN rings recycle new cars)
    chained = [t for t in ring if "chained" in t["tags"] or "fresh_vin" in t["tags"]]
    assert len(chained) >= 0.15 * len(ring), (variant, len(chained), len(ring))
    # ring shops typed by hand: the EIN is the only stable key
    aliased = [c for c, t in rows if t["kind"] == "ring" and "alias" in t["tags"]]
    assert aliased and all(c["shop"]["ein"] == p["ring_ein"] for c in aliased), variant
    # second reports of the same loss: same policy and loss date as an earlier claim
    doubles = [c for c, t in rows if t["kind"] == "double"]
    assert len(doubles) >= 8, variant
    # honest claims at the ring's shops, so blocking the shops costs money
    honest_at_ring = [c for c, t in rows if t["kind"] == "legit" and c["shop"]["ein"] == p["ring_ein"]]
    assert len(honest_at_ring) >= 0.5 * len(ring), variant
    # flagged ring claims exist (the incident is reachable) and are a minority (the list lags)
    flagged = [t for t in ring if t["flagged"]]
    assert 0 < len(flagged) < 0.6 * len(ring), (variant, len(flagged), len(ring))


@pytest.mark.parametrize("variant", NAMED)
def test_world_shows_the_evidence(variant):
    ws = world_snapshot(TASK, TASK.variant(variant))
    sheet = (ws / "data" / "siu_referrals_2026.csv").read_text(encoding="utf-8").lower()
    assert "dup" in sheet and "same policy" in sheet           # doubles are not fraud
    con = sqlite3.connect(ws / "system" / "data" / "claims.db")
    assert con.execute("SELECT count(*) FROM claims WHERE status='CLOSED_DUP'").fetchone()[0] > 0
    assert con.execute("SELECT count(*) FROM siu_flags").fetchone()[0] > 0
    p = TASK.variant(variant).params
    names = {r[0] for r in con.execute("SELECT shop_name FROM claims WHERE shop_ein=?", (p["ring_ein"],))}
    assert len(names) >= 4, names                               # hand-typed shop names
    assert "nightly" in (ws / "system" / "README.md").read_text(encoding="utf-8")
    rows = list(csv.reader((ws / "data" / "siu_referrals_2026.csv").open(encoding="utf-8")))
    assert len(rows) > 20
