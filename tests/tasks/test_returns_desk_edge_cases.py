"""returns_desk: the subtle cases of the held-out traffic exist on every named variant and on
samples, the world shows evidence for each, and the menu's items separate the good-enough answer
from the reference."""

from __future__ import annotations

import csv
import io

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.grading.grade import held_out_traffic
from fdegym_env.tasklib import menu

TASK = load_task("returns_desk")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:0", "sample:1", "sample:2"]
shop = TASK.module("shop")
traffic_mod = TASK.module("traffic")


def _returns(variant: str, listing: str = "true"):
    """Return requests the held-out orders produce when the site lists every size correctly."""
    v = TASK.variant(variant)
    p = dict(v.params)
    tr = held_out_traffic(TASK, v)
    listed = {}
    for prod in tr["prods"].values():
        off = shop.true_offset(prod["brand"], prod["category"], p) if listing == "true" else shop.BRANDS[prod["brand"]][1]
        for s in prod["sizes"]:
            listed[s["sku_size"]] = shop.label_number(s["size_label"]) - off
    reqs, truth, _cost, _lost = shop.shop(tr["lines"], tr["prods"], listed, p)
    return p, tr, reqs, truth


@pytest.mark.parametrize("variant", VARIANTS)
def test_held_out_has_every_subtle_case(variant):
    p, tr, reqs, truth = _returns(variant)
    knit = [x for x in tr["prods"].values() if x["brand"] == p["problem_brand"] and x["category"] not in shop.WOVEN]
    woven = [x for x in tr["prods"].values() if x["brand"] == p["problem_brand"] and x["category"] in shop.WOVEN]
    assert len(knit) >= 6 and len(woven) >= 15, (variant, len(knit), len(woven))        # S1: knit true to size
    flagged = [r for r in reqs if r["category"] == "occasionwear" and r["qc_c_12m"] >= 1]
    late = [r for r in flagged if not shop.statutory(r)]
    assert len(late) >= 5 and all(truth[r["rma_id"]]["worn"] for r in late[:3]), (variant, len(late))   # S2
    # S3: inside the period in UK dates, outside it by UTC dates or by order date
    utc = [r for r in flagged if shop.statutory(r)
           and (int(r["requested_at"][8:10]) - int(r["delivered_at"][8:10])) % 31 == 15]
    by_order = [r for r in flagged if shop.statutory(r) and (shop.local_day(r["requested_at"]) -
                                                             shop.local_day(r["ordered_at"])).days > 14]
    assert utc and len(by_order) >= 3, (variant, len(utc), len(by_order))


@pytest.mark.parametrize("variant", NAMED)
def test_wrong_chart_is_what_makes_the_fit_returns(variant):
    p, _tr, wrong, _t = _returns(variant, "legacy")
    _p, _tr2, right, _t2 = _returns(variant)
    fit = lambda rs: sum(r["reason"] == "too_small" and r["brand"] == p["problem_brand"] for r in rs)  # noqa: E731
    assert fit(wrong) > 3 * max(1, fit(right)), (variant, fit(wrong), fit(right))


def test_plus_members_have_protected_late_returns():
    p, _tr, reqs, _truth = _returns("plus_members")
    protected = [r for r in reqs if r["category"] == "occasionwear" and r["qc_c_12m"] >= 1 and not shop.statutory(r)
                 and shop.protected(r, p)]
    assert len(protected) >= 2


def test_world_shows_the_evidence(tmp_path):
    p = dict(TASK.variant("base").params)
    (tmp_path / "system").mkdir()
    traffic_mod.dev(p, tmp_path)
    rows = list(csv.DictReader(io.StringIO((tmp_path / "data" / "returns_extract.csv").read_text(encoding="utf-8"))))
    assert rows and all(r["requested"] < "2026-03-12T08" for r in rows if r["requested"][:4] == "2026")
    small = [r for r in rows if r["reason"] == "too_small"]
    conti = [r for r in small if r["brand"] == p["problem_brand"] and r["category"] in shop.WOVEN]
    assert len(conti) > len(small) / 2                                   # the brand's woven dominates
    knit_small = [r for r in small if r["brand"] == p["problem_brand"] and r["category"] not in shop.WOVEN]
    assert len(knit_small) < len(conti) / 4                              # knit does not
    qc = (tmp_path / "data" / "qc_log.csv").read_text(encoding="utf-8")
    assert ",C," in qc
    top = list(csv.DictReader(io.StringIO((tmp_path / "data" / "top_returners_90d.csv").read_text(encoding="utf-8"))))
    assert sum(p["problem_brand"] in r["brands_returned"] for r in top) > 0.5 * len(top)


def test_menu_items_apply_to_the_world():
    """Every expanded edit of a menu item finds its text in the world (rma_plus_no_quibble and
    rma_plus_45 edit the line rma_wear_rule adds, so they are checked after it)."""
    acts = {a["id"]: a for a in menu.items(TASK)}
    world = TASK.world_path
    files: dict = {}

    def text(rel):
        if rel not in files:
            f = world / rel
            files[rel] = (f if f.exists() else f.with_name(f.name + ".tmpl")).read_text(encoding="utf-8")
        return files[rel]

    for aid, a in acts.items():
        for step in a.get("steps", []):
            if step["tool"] == "edit_file" and aid not in ("rma_plus_no_quibble", "rma_plus_45"):
                assert step["old"] in text(step["path"]), aid
    after = text("system/rma/authorise.py")
    for step in acts["rma_wear_rule"]["steps"]:
        after = after.replace(step["old"], step["new"], 1)
    for plus in ("rma_plus_no_quibble", "rma_plus_45"):
        assert all(s["old"] in after for s in acts[plus]["steps"]), plus
    assert {"chart_conti_34", "chart_conti_all_34", "rma_wear_rule", "rma_wear_inspect_only", "literal_block"} <= set(acts)
