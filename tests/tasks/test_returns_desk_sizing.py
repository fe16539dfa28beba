"""returns_desk: the size conversions follow real-world women's sizing. The Buying how-to's standard
conversions match the published tables, the size charts and the shop model use those offsets for
every brand, a brand that runs small is offset from its standard by whole sizes, and the buyer (or,
when she is away, the returns lead) states the offset the grader's model really uses."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.people.engine import People
from fdegym_env.people.routers import make_router

TASK = load_task("returns_desk")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:0", "sample:1", "sample:2", "sample:2573"]
shop = TASK.module("shop")

# Women's clothing, one size in each system (published conversion tables): UK 8 = EU/FR 36 = IT 40
# = DE 34 = US 4. Offset = label number - UK size.
REAL_UK8 = {"UK": 8, "EU": 36, "FR": 36, "IT": 40, "DE": 34, "US": 4}
REAL_OFFSET = {system: label - 8 for system, label in REAL_UK8.items()}
_LINE = re.compile(r"^\s*-\s*([A-Z/ ]+):\s*(-?\d+)\s*\(([A-Z]{2}) (\d+) = UK (\d+)\)\s*$")


def doc_offsets() -> dict[str, int]:
    """The standard conversions listed in docs/size_chart_setup.md, system -> offset; each line's
    worked example must agree with its own offset."""
    text = (TASK.world_path / "docs" / "size_chart_setup.md").read_text(encoding="utf-8")
    out = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        offset, label, uk = int(m.group(2)), int(m.group(4)), int(m.group(5))
        assert label - uk == offset, line
        for system in m.group(1).split("/"):
            out[system.strip()] = offset
        assert m.group(3) in out, line
    return out


def test_the_docs_standard_conversions_are_real_world_sizing():
    doc = doc_offsets()
    assert {"UK", "EU", "IT", "US"} <= set(doc), doc
    assert set(doc) <= set(REAL_OFFSET), f"conversions with no agreed real-world table: {set(doc) - set(REAL_OFFSET)}"
    assert doc == {s: REAL_OFFSET[s] for s in doc}, (doc, REAL_OFFSET)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_size_charts_use_the_docs_standard_offsets(variant):
    doc = doc_offsets()
    v = TASK.variant(variant)
    charts = json.loads((world_snapshot(TASK, v) / "system" / "size_charts.json").read_text(encoding="utf-8"))["brands"]
    for brand, chart in charts.items():
        assert chart["offset"] == doc[chart["system"]], (brand, chart)
    for brand, (system, offset, _cats) in shop.BRANDS.items():
        assert (system, offset) == (charts[brand]["system"], charts[brand]["offset"]), brand
    p = v.params
    assert p["chart_offset"] == doc[p["label_system"]] == shop.BRANDS[p["problem_brand"]][1], p
    assert p["true_offset"] - p["chart_offset"] == p["shift"] and p["shift"] > 0 and p["shift"] % 2 == 0, p


@pytest.mark.parametrize("variant", VARIANTS)
def test_whoever_knows_states_the_true_offset(variant):
    v = TASK.variant(variant)
    p = v.params
    truth = shop.true_offset(p["problem_brand"], "dresses", p)
    assert truth == p["true_offset"]
    assert shop.true_offset(p["problem_brand"], "knitwear", p) == p["chart_offset"]
    spec = TASK.people_spec(v)
    eng = People(spec, make_router("semantic", spec["people"]))
    q = "Which brand's woven lines are coming back too small, and what offset should its size chart use?"
    if p["buyer_gone_at"]:
        r = eng.contact("shaun_whitaker", q)
        assert "F_size_chart" in r.facts, r.reply
        m = re.search(r"UK (\d+) \S+ dress measures .*? it's a (\d+) spec", r.reply)
        assert m and int(m.group(1)) - int(m.group(2)) == truth - p["chart_offset"], r.reply
        return
    r = eng.contact("francesca_lowe", q)
    assert "F_size_chart" in r.facts, r.reply
    stated = re.search(r"offset[a-z ]{0,12}?(\d+)", r.reply, re.I)
    assert stated and int(stated.group(1)) == truth, r.reply
    m = re.search(rf"{p['label_system']} (\d+) dress is a UK (\d+)", r.reply)
    assert m and int(m.group(1)) - int(m.group(2)) == truth, r.reply
