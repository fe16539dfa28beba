"""The lexical router on every paraphrased routing set: precision >= 0.9, recall >= 0.85, and fishing
questions release nothing. Sets: tests/routing/<task>.yaml (with the task's people.yaml) and the
hand-written tests/people/data/*.routing.yaml (always present, so this runs with tiny_task alone).
Numbers: ``python -m fdegym_env.people.routing_report``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fdegym_env.people.routers import LexicalRouter, RegexRouter
from fdegym_env.people.routing_report import cases, check_set, evaluate, load_yaml
from fdegym_env.people.spec import validate_people

TESTS = Path(__file__).resolve().parents[1]
SETS = sorted((TESTS / "people" / "data").glob("*.routing.yaml")) + sorted((TESTS / "routing").glob("*.yaml"))
MIN_PRECISION, MIN_RECALL = 0.9, 0.85


def _load(path: Path):
    if path.parent.name == "routing":
        from fdegym_env.core.registry import load_task
        task = load_task(path.stem)
        return task.people_spec(task.variant("base")), load_yaml(path) or {}
    name = path.name[: -len(".routing.yaml")]
    return validate_people(load_yaml(path.with_name(name + ".yaml")), name), load_yaml(path) or {}


@pytest.fixture(params=SETS, ids=[p.name.split(".")[0] for p in SETS])
def routing_set(request):
    spec, rset = _load(request.param)
    check_set(spec, rset, str(request.param))
    return spec, rset


def test_the_hand_written_set_is_there():
    assert any(p.parent.name == "data" for p in SETS), "tests/people/data/*.routing.yaml is missing"


def test_lexical_precision_recall_and_fishing(routing_set):
    spec, rset = routing_set
    r = evaluate(spec, rset, "lexical")
    misses = "\n".join(f"  {m['kind']} {m['person']}: {m['q']!r} want {m['want']} got {m['got']}" for m in r["misses"])
    assert r["fishing_released"] == 0, f"fishing questions released facts:\n{misses}"
    assert r["precision"] >= MIN_PRECISION, f"precision {r['precision']} < {MIN_PRECISION}:\n{misses}"
    assert r["recall"] >= MIN_RECALL, f"recall {r['recall']} < {MIN_RECALL}:\n{misses}"


def test_regex_router_is_the_harness_matcher(routing_set):
    """Harness semantics: a topic matches when any trigger ``re.search``es the message, ignoring
    case; its gate is met when any ``requires`` pattern does, on this message only."""
    spec, rset = routing_set
    people = {p["id"]: p for p in spec["people"]}
    router = RegexRouter()
    msgs = [(pid, q) for _, pid, q, _ in cases(rset)] + [(pid, q) for q in rset.get("fishing") or [] for pid in people]
    for pid, q in msgs:
        topics, gates = router.route(people[pid], q, ["INC0000001 RMA-1 earlier evidence"])
        want = [t for t in people[pid]["topics"] if any(re.search(p, q, re.I) for p in t.get("triggers", []))]
        assert topics == want
        assert gates == {t["id"]: any(re.search(p, q, re.I) for p in t["requires"]) for t in want if t.get("requires")}


def test_lexical_repairs_typos_and_ignores_fishing():
    people = [{"id": "ann", "topics": [
        {"id": "refunds", "about": "when refunds are paid out to the customer's card"},
        {"id": "capacity", "about": "how many parcels the warehouse can inspect per day"}]}]
    r = LexicalRouter(people)
    route = lambda q: [t["id"] for t in r.route(people[0], q, [])[0]]  # noqa: E731
    assert route("how long do refnds take?") == ["refunds"]
    assert route("whats the inspecton capcity per day") == ["capacity"]
    assert route("When do customers get reimbursed?") == ["refunds"]            # synonym
    assert route("Two things: when are refunds paid to the card, and how many parcels can you inspect a day?") == ["capacity", "refunds"]
    for q in ("Tell me everything.", "What should I know?", "Any advice?", "What are the main problems?"):
        assert route(q) == []


def test_lexical_does_not_repair_a_real_word_into_a_near_spelling():
    people = [{"id": "ann", "topics": [
        {"id": "status", "about": "the state of the print run; stat sheet"},
        {"id": "rota", "about": "who works which shift; the rota"}]}]
    r = LexicalRouter(people)
    # "start" is one edit from "stat" but is a word of its own, not a typo; "stat" itself still matches
    assert r.query_terms("when did you start?") == set()
    assert r.query_terms("the stat sheet") == {"stat", "sheet"}
    assert r.query_terms("the shfit rota") == {"shift", "rota"}       # a real typo is still repaired


def test_lexical_gate_counts_evidence_given_earlier():
    people = [{"id": "ann", "topics": [{"id": "owner", "about": "who owns the scanners", "requires": ["INC\\d+"]}]}]
    r = LexicalRouter(people)
    assert r.route(people[0], "who owns the scanners?", [])[1] == {"owner": False}
    assert r.route(people[0], "who owns the scanners?", ["see INC123"])[1] == {"owner": True}


def test_words_inside_negative_lookarounds_are_not_topic_vocabulary():
    from fdegym_env.people.routers import _trigger_words
    assert _trigger_words(r"embargo(?! ukns)") == "embargo"
    assert _trigger_words(r"(?<!meridian )\bkill(ed)?") == "kill ed"
    people = [{"id": "ann", "topics": [{"id": "mrd", "about": "meridian embargo times", "triggers": ["embargo(?!.*ukns)"]},
                                       {"id": "ukns", "about": "ukns advisories and kills"}]}]
    r = LexicalRouter(people)
    assert [t["id"] for t in r.route(r.people["ann"], "ukns advisories?", [])[0]] == ["ukns"]


def test_peoples_names_are_not_repaired_into_topic_words():
    people = [{"id": "ann", "name": "Ann Lee", "topics": [{"id": "close", "about": "the march month-end close"}]},
              {"id": "marcus", "name": "Marcus Webb", "topics": [{"id": "bridge", "about": "the dispute bridge"}]}]
    r = LexicalRouter(people)
    assert "march" not in r.query_terms("Is Marcus's bridge nightly?")
    assert r.query_terms("the marhc close") >= {"march"}          # a real typo is still repaired
