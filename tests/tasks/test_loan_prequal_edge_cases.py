"""loan_prequal: the subtle cases of the held-out traffic exist on every named variant and on
samples, the world shows evidence for each, the matched pairs differ only in identity fields, and
the menu's parsing item is what separates the good-enough answer from the reference."""

from __future__ import annotations

import csv
import re

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import held_out_traffic
from fdegym_env.tasklib import menu

TASK = load_task("loan_prequal")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:0", "sample:1", "sample:2", "sample:3"]
MENU = {a["id"]: a for a in menu.items(TASK)}   # apply: items expanded to their edit_file steps
IDENTITY = {"app_id", "received", "first_name", "last_name", "title", "marital_status", "age", "zip"}


def _legacy_parses(raw) -> bool:
    if isinstance(raw, (int, float)):
        return True
    try:
        float(str(raw).replace(",", "").strip())
        return True
    except ValueError:
        return False


def _menu_parser():
    """parse_amount as the menu's fix_parse_text item rewrites it."""
    src = (TASK.world_path / "system" / "prequal" / "income.py").read_text(encoding="utf-8")
    step = MENU["fix_parse_text"]["steps"][0]
    assert step["old"] in src
    ns: dict = {}
    exec(compile(src.replace(step["old"], step["new"]).replace("from __future__ import annotations", ""),
                 "income.py", "exec"), ns)
    return ns["parse_amount"]


def _apps(variant: str):
    tr = held_out_traffic(TASK, TASK.variant(variant))
    return [(a, tr["truth"][a["app_id"]]) for week in tr["weeks"] for a in week]


@pytest.mark.parametrize("variant", VARIANTS)
def test_held_out_has_every_subtle_case(variant):
    p = TASK.variant(variant).params
    apps = _apps(variant)
    quirky_se = [(a, t) for a, t in apps if a["channel"] == p["quirk_channel"] and a["employment"] == "self_employed"]
    old = [a for a, t in quirky_se if a["form"] == p["old_form"]]
    new = [a for a, t in quirky_se if a["form"] == p["quirk_form"]]
    assert len(old) >= 3, (variant, len(old))                       # still annual, on the old form
    messy = [a for a in new if not _legacy_parses(a["income_amount"])]
    assert len(messy) >= 0.15 * len(new), (variant, len(messy), len(new))
    parse = _menu_parser()
    for a in messy:                                                    # the menu's parser reads every one
        assert parse(a["income_amount"]) > 0, (variant, a["income_amount"])
    # free text only on the new form of the quirky intake; everything else is a number
    assert all(_legacy_parses(a["income_amount"]) for a, _t in apps if a not in new)


@pytest.mark.parametrize("variant", VARIANTS)
def test_matched_pairs_differ_only_in_identity(variant):
    apps = _apps(variant)
    by_id = {a["app_id"]: a for a, _t in apps}
    pairs = [(by_id[t["twin_of"]], a) for a, t in apps if t["twin_of"]]
    assert len(pairs) == 24, variant
    for orig, twin in pairs:
        assert {k: v for k, v in orig.items() if k not in IDENTITY} == {k: v for k, v in twin.items() if k not in IDENTITY}
        assert orig["zip"][:3] != twin["zip"][:3] or orig["zip"] != twin["zip"]
        assert orig["title"] != twin["title"] and orig["age"] != twin["age"]


@pytest.mark.parametrize("variant", NAMED)
def test_dev_world_shows_the_evidence(variant):
    p = TASK.variant(variant).params
    root = world_snapshot(TASK, TASK.variant(variant))
    rows = list(csv.DictReader((root / "data" / "applications_2026-02.csv").open(encoding="utf-8")))
    se = [r for r in rows if r["channel"] == p["quirk_channel"] and r["employment"] == "self_employed"]
    assert any(r["form"] == p["old_form"] for r in se), "no old-form self-employed application in the extract"
    new_declined = [r for r in se if r["form"] == p["quirk_form"] and r["decision"] == "decline"]
    assert len(new_declined) >= 0.5 * len([r for r in se if r["form"] == p["quirk_form"]])
    log = (root / "logs" / "prequal_intake.log").read_text(encoding="utf-8")
    assert re.search(rf"unparseable: .* {re.escape(p['quirk_form'])}\)", log), "no unparseable income in the log"
    recon = (root / "data" / "reconsiderations.csv").read_text(encoding="utf-8")
    assert p["old_form"] in recon or "annual" in recon.lower()


def test_world_config_uses_no_identity_field():
    src = (TASK.world_path / "system" / "prequal" / "engine.py").read_text(encoding="utf-8")
    for field in ("zip", "title", "marital_status", "first_name"):
        assert f'"{field}"' not in src, field
