"""helpdesk_tutorial: the subtle cases of the held-out traffic exist on every named variant and on
samples, the world shows evidence for each, and the menu's tidy-up item is what separates the
good-enough answer from the reference."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from fdegym_env.core.registry import load_task
from fdegym_env.core.workspace import world_snapshot
from fdegym_env.grading.grade import held_out_traffic
from fdegym_env.tasklib import menu

TASK = load_task("helpdesk_tutorial")
NAMED = list(yaml.safe_load((TASK.path / "variants.yaml").read_text(encoding="utf-8")))
VARIANTS = NAMED + ["sample:0", "sample:1", "sample:2", "sample:3"]
MENU = {a["id"]: a for a in menu.items(TASK)}
PARKED = ["rt7", "scanner", "handheld", "scan gun"]
TIDY = json.loads("{" + MENU["tidy_handheld_matching"]["steps"][0]["new"] + "}")["match"]
COPIER_RULE = re.search(r"\{.*?\}", MENU["tidy_handheld_matching"]["steps"][1]["new"]).group(0)
COPIER = json.loads(COPIER_RULE)["match"]


def _text(t: dict) -> str:
    return f"{t['subject']} {t['body']}".lower()


def _has(words, text: str) -> bool:
    return any(w in text for w in words)


def _tickets(variant: str):
    tr = held_out_traffic(TASK, TASK.variant(variant))
    return [(t, tr["truth"][t["id"]]) for week in tr["weeks"] for t in week]


@pytest.mark.parametrize("variant", VARIANTS)
def test_held_out_has_every_subtle_case(variant):
    p = TASK.variant(variant).params
    tix = _tickets(variant)
    hh = [(t, tr) for t, tr in tix if tr["kind"] == "scanner"]
    # handheld faults that name the device only by a name the parked R15 list does not know
    other_names = [t for t, _ in hh if not _has(PARKED, _text(t)) and _has(TIDY, _text(t))]
    assert hh and len(other_names) >= 0.1 * len(hh), (variant, len(other_names), len(hh))
    # head-office copier tickets that say "scanner": every one also says what kind of scanner it is
    copiers = [t for t, tr in tix if tr["kind"] == "mfp" and "scanner" in _text(t)]
    assert copiers, variant
    assert all(_has(COPIER, _text(t)) for t, tr in tix if tr["kind"] == "mfp"), variant
    if p["match_on"] == "category":   # supervisors still phone or email handheld faults in
        phoned = [t for t, _ in hh if t["channel"] != "kiosk"]
        assert len(phoned) >= 0.2 * len(hh) and all(_has(TIDY, _text(t)) for t in phoned), variant


@pytest.mark.parametrize("variant", VARIANTS)
def test_only_handhelds_and_copiers_use_the_device_words(variant):
    """The tidy-up keywords must not drag other work to the handheld owner."""
    for t, tr in _tickets(variant):
        if tr["kind"] not in ("scanner", "mfp", "outage"):
            assert not _has(TIDY, _text(t)), (variant, t["id"], _text(t))


@pytest.mark.parametrize("variant", NAMED)
def test_dev_log_shows_the_evidence(variant):
    v = TASK.variant(variant)
    log = (world_snapshot(TASK, v) / "logs" / "triage.log").read_text(encoding="utf-8").lower()
    lines = log.splitlines()
    routed = {m.group(1): ln for ln in lines if (m := re.search(r"triage\.router\s+(inc\d+) ", ln))}
    to_fixer = {m.group(1) for ln in lines if (m := re.search(r"(inc\d+) reassigned \S+ -> field_ops", ln))}
    names = [i for i in to_fixer if i in routed and _has(["hht", "rf gun", "rt-7", "rt 7", "hand held", "hand-held"], routed[i])
             and not _has(PARKED, routed[i].split("subj=", 1)[1])]
    assert names, "the reassignment trail shows no handheld ticket named outside the parked list"
    assert any("scanner" in ln.split("subj=", 1)[1] and _has(COPIER, ln) and "-> service_desk" in ln
               for ln in routed.values()), "no copier 'scanner' ticket in the log"
    if v.params["match_on"] == "category":
        assert any(i in to_fixer and "ch=phone" in routed[i] and 'cat=""' in routed[i] for i in routed), \
            "no phoned-in handheld ticket in the kiosk world's log"


@pytest.mark.parametrize("variant", NAMED)
def test_world_names_no_variant_or_param(variant):
    v = TASK.variant(variant)
    words = set(NAMED) | set(v.params) - {"angle"}
    root = world_snapshot(TASK, v)
    for f in root.rglob("*"):
        if f.is_file() and "__pycache__" not in f.parts:
            text = f.read_text(encoding="utf-8", errors="replace")
            for w in words:
                assert not re.search(rf"\b{re.escape(w)}\b", text), (f.relative_to(root), w)


def test_say_draws_like_a_list_of_f_strings():
    """tickets.say renders every alternative of {a|b} (with its own draws, left to right) before it
    picks, as rng.choice([f"...", f"..."]) does: a wording table gives the traffic hand-written
    f-strings would, draw for draw."""
    import random
    say = TASK.module("tickets").say
    for seed in range(40):
        a, b = random.Random(seed), random.Random(seed)
        got = say(a, ["x {1-9} {p|q}", "y | {who}", "{{n}|z}."], who=["Ann", "Bo"], n=lambda a=a: a.randrange(3))
        want = b.choice([f"x {b.randrange(1, 9)} {b.choice(['p', 'q'])}", f"y | {b.choice(['Ann', 'Bo'])}",
                         b.choice([f"{b.randrange(3)}", "z"]) + "."])
        assert got == want and a.random() == b.random()
    with pytest.raises(KeyError, match="no value for {site}"):
        say(random.Random(0), "{site} down")
