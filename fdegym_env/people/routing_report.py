"""Precision and recall of the topic routers on paraphrased routing sets.

A routing set is a YAML file beside a people spec::

    person_topics:                      # questions that ask about one topic of one person
      - {person: night_editor, topic: kill_notices, questions: ["How do kills arrive?", ...]}
    multi:                              # optional: one message about several topics
      - {person: night_editor, q: "...", topics: [kill_notices, embargoes]}
    fishing: ["Tell me everything.", ...]           # asked of every person: must match nothing
    off_topic: [{person: night_editor, question: "Where is lunch?"}]

Sets are found in ``tests/routing/<task_id>.yaml`` (people from the task's ``people.yaml``, base
variant) and ``tests/people/data/<name>.routing.yaml`` (people from ``<name>.yaml`` beside it).

Counting: each labelled topic the router returns is a true positive, each other topic it returns
(for any question, fishing and off-topic included) a false positive, each labelled topic it misses
a false negative. ``fishing_released`` counts facts a fresh engine would release to a fishing
question (must be 0).

Held-out sets (``tests/routing/heldout/<task_id>.yaml``, written before tuning and never tuned
against) measure what an agent experiences, through the whole engine (fresh state per question)::

    questions:
      - {person: night_editor, q: "How do Kestrel kills reach us?", expect: [kna_kills]}
      - {person: dana_whitlock, q: "What's the legal rule on court copy?", expect: dont_know, refer: legal_counsel}

Each reply is one of: ``on_topic`` (an expected topic answered, gated or stalled included),
``dont_know`` (no topic, as expected, naming the expected person when ``refer`` is given),
``wrong_referral`` (no topic as expected, but naming someone else or nobody), ``missed`` (no topic
where one was expected) or ``wrong_paragraph`` (a topic that was not asked about: the defect that
matters most, since the agent is told something irrelevant with confidence).

Usage::

    python -m fdegym_env.people.routing_report                  # every set, regex and lexical
    python -m fdegym_env.people.routing_report --heldout        # the held-out sets, through the engine
    python -m fdegym_env.people.routing_report --set blind2     # any labelled set routing/NAME/, through the engine
    python -m fdegym_env.people.routing_report --tuning         # the tuning sets, through the engine
    python -m fdegym_env.people.routing_report --set blind7 --router-arg min_about=0.5   # a router setting
    python -m fdegym_env.people.routing_report --set blind7 --agree blind7_second   # two labellers compared
    python -m fdegym_env.people.routing_report --misses         # also list what went wrong
    python -m fdegym_env.people.routing_report --routers lexical --json

Example:
    >>> from fdegym_env.people.routing_report import find_sets, evaluate
    >>> for name, spec, rset in find_sets("tests"):                     # doctest: +SKIP
    ...     print(name, evaluate(spec, rset, "lexical")["precision"])
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Iterator

import yaml

from fdegym_env.people.engine import NOT_TO_HAND_TAG, People
from fdegym_env.people.routers import Router, make_router
from fdegym_env.people.spec import AWAY_FIELDS, validate_people


def load_yaml(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def cases(rset: dict[str, Any]) -> Iterator[tuple[str, str, str, frozenset[str]]]:
    """Every (kind, person, message, labelled topics) of a routing set."""
    for e in rset.get("person_topics") or []:
        for q in e.get("questions") or []:
            if isinstance(q, dict):
                yield "topic", e["person"], q["q"], frozenset(q.get("topics") or [e["topic"]])
            else:
                yield "topic", e["person"], q, frozenset([e["topic"]])
    for e in rset.get("multi") or []:
        yield "multi", e["person"], e["q"], frozenset(e["topics"])
    for e in rset.get("off_topic") or []:
        yield "off_topic", e["person"], e["question"], frozenset()


def without_leave(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` with nobody away (``away_until``): routing measures what people answer, not their calendar."""
    return {**spec, "people": [{k: v for k, v in p.items() if k not in AWAY_FIELDS} for p in spec["people"]]}


def check_set(spec: dict[str, Any], rset: dict[str, Any], where: str) -> None:
    """Raise ValueError naming any person or topic of the set that the spec does not have."""
    topics = {p["id"]: {t["id"] for t in p.get("topics", [])} for p in spec["people"]}
    for kind, pid, _q, labels in cases(rset):
        if pid not in topics:
            raise ValueError(f"{where}: {kind} question to unknown person {pid!r}; expected one of {sorted(topics)}")
        bad = labels - topics[pid]
        if bad:
            raise ValueError(f"{where}: person {pid!r} has no topic(s) {sorted(bad)}; expected one of "
                             f"{sorted(topics[pid])} (fix the routing set or people.yaml)")


def evaluate(spec: dict[str, Any], rset: dict[str, Any], router: str | Router = "lexical",
             **router_kwargs: Any) -> dict[str, Any]:
    """Score one router on one routing set (nobody on leave). Returns counts, precision, recall and the misses."""
    spec = without_leave(spec)
    r = make_router(router, spec["people"], **router_kwargs)
    people = {p["id"]: p for p in spec["people"]}
    tp = fp = fn = 0
    per_topic: dict[str, list[int]] = {}
    misses: list[dict[str, Any]] = []
    for kind, pid, q, labels in cases(rset):
        got = [t["id"] for t in r.route(people[pid], q, [])[0]]
        hit = labels & set(got)
        extra = [g for g in got if g not in labels]
        tp, fp, fn = tp + len(hit), fp + len(extra), fn + len(labels - hit)
        for lab in labels:
            c = per_topic.setdefault(f"{pid}/{lab}", [0, 0])
            c[0] += lab in hit
            c[1] += 1
        if extra or labels - hit:
            misses.append({"kind": kind, "person": pid, "q": q, "want": sorted(labels), "got": got})
    fish_matched = fish_released = n_fish = 0
    for q in rset.get("fishing") or []:
        for pid, p in people.items():
            n_fish += 1
            got = [t["id"] for t in r.route(p, q, [])[0]]
            fp += len(got)
            fish_matched += bool(got)
            if got:
                misses.append({"kind": "fishing", "person": pid, "q": q, "want": [], "got": got})
            eng = People(spec, r)
            res = eng.contact(pid, q)
            fish_released += len([f for f in res.facts if not f.startswith(("F_off_limits:", "F_gone:"))])
    return {"router": getattr(r, "name", str(router)), "tp": tp, "fp": fp, "fn": fn,
            "precision": round(tp / (tp + fp), 4) if tp + fp else 1.0,
            "recall": round(tp / (tp + fn), 4) if tp + fn else 1.0,
            "questions": sum(1 for _ in cases(rset)), "fishing_questions": n_fish,
            "fishing_matched": fish_matched, "fishing_released": fish_released,
            "per_topic_recall": {k: round(a / b, 3) for k, (a, b) in sorted(per_topic.items())},
            "misses": misses}


OUTCOMES = ("on_topic", "dont_know", "wrong_referral", "missed", "wrong_paragraph")
_NOT_TOPICS = ("dont_know", "off_limits", "out_of_patience", "gone", "away", "auto_reply", NOT_TO_HAND_TAG)


def _topics(tags: list[str]) -> set[str]:
    """The topics a reply's tags say were told (gated, stalled or hedged included)."""
    return {t.split(":", 1)[0] for t in tags if t not in _NOT_TOPICS and not t.startswith("refer:")}


def classify(tags: list[str], expect: list[str] | str, refer: str | None = None) -> str:
    """One of :data:`OUTCOMES` for the tags of one reply.

    A reply that says the person lacks the figure or date asked for, then gives a paragraph
    (``not_to_hand``), is not told as an answer: for a question nobody's script answers it is a
    "don't know" (a wrong referral if someone else's does); for an answerable one it is on topic
    when the paragraph is an expected one, else missed. :func:`hedge_kind` counts these replies.

    Example:
        >>> classify(["kills:gated"], ["kills"]), classify(["dont_know", "refer:ann"], "dont_know", "ann")
        ('on_topic', 'dont_know')
        >>> classify(["flags", "not_to_hand"], "dont_know"), classify(["flags", "not_to_hand"], ["ring"])
        ('dont_know', 'missed')
    """
    topics = _topics(tags)
    hedged = NOT_TO_HAND_TAG in tags
    if expect == "dont_know":
        if topics and not hedged:
            return "wrong_paragraph"
        if refer and "refer:" + refer not in tags:
            return "wrong_referral"
        return "dont_know"
    if topics - set(expect) and not hedged:
        return "wrong_paragraph"
    return "on_topic" if topics & set(expect) else "missed"


def gatekeeper_refers(tags: list[str], reply: str, spec: dict[str, Any]) -> list[str]:
    """``refer:<id>`` for each person an off-limits person's gatekeeper reply names ("please route
    everything through Deirdre Kinsella"): the agent is sent to them as by a referral.

    Example:
        >>> spec = {"people": [{"id": "dk", "name": "Deirdre Kinsella"}, {"id": "fd", "name": "Fergal Dunne"}]}
        >>> gatekeeper_refers(["off_limits"], "Please route everything through Deirdre Kinsella.", spec)
        ['refer:dk']
        >>> gatekeeper_refers(["dont_know"], "Deirdre Kinsella would know.", spec)
        []
    """
    if "off_limits" not in tags:
        return []
    out = []
    for p in spec.get("people") or []:
        name = str(p.get("name") or "")
        surname = name.split()[-1] if name.split() else ""
        if name and (name in reply or (len(surname) >= 4 and re.search(rf"\b{re.escape(surname)}\b", reply))):
            out.append("refer:" + p["id"])
    return out


def hedge_kind(tags: list[str], expect: list[str] | str) -> str | None:
    """For a ``not_to_hand`` reply: ``needed`` (the script lacks what was asked: the question is
    labelled "don't know", or the paragraph given is not an expected one) or ``needless`` (an
    expected paragraph, which may hold what was asked, opened with "I don't have that"); else None."""
    if NOT_TO_HAND_TAG not in tags:
        return None
    topics = _topics(tags)
    return "needless" if expect != "dont_know" and topics & set(expect) else "needed"


def _check_question(e: dict[str, Any], i: int, topics: dict[str, set[str]], where: str) -> None:
    """A ValueError naming ``questions[i]`` of a labelled set unless it is for a known person, expects
    'dont_know' or some of that person's topics, and refers (if it does) to a known person."""
    pid, expect, refer = e.get("person"), e.get("expect"), e.get("refer")
    if pid not in topics:
        raise ValueError(f"{where}: questions[{i}] is for unknown person {pid!r}; expected one of {sorted(topics)}")
    if expect != "dont_know" and not (isinstance(expect, list) and set(expect) <= topics[pid] and expect):
        raise ValueError(f"{where}: questions[{i}] ({pid}): 'expect' must be 'dont_know' or a non-empty list of "
                         f"{pid}'s topics {sorted(topics[pid])}, got {expect!r}")
    if refer is not None and refer not in topics:
        raise ValueError(f"{where}: questions[{i}]: 'refer' names unknown person {refer!r}")


def evaluate_heldout(spec: dict[str, Any], hset: dict[str, Any], router: str | Router = "lexical",
                     where: str = "held-out set", router_kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ask every held-out question through a fresh :class:`People` engine, nobody on leave
    (:func:`without_leave`); shares per outcome.
    ``router_kwargs`` go to the router's constructor (e.g. ``{"min_about": 0.5}`` for ``lexical``)."""
    spec = without_leave(spec)
    r = make_router(router, spec["people"], **(router_kwargs or {}))
    topics = {p["id"]: {t["id"] for t in p.get("topics", [])} for p in spec["people"]}
    counts = dict.fromkeys(OUTCOMES, 0)
    hedges = {"needed": 0, "needless": 0}     # "I don't have that figure" replies (hedge_kind)
    rows = []
    for i, e in enumerate(hset.get("questions") or []):
        _check_question(e, i, topics, where)
        pid, expect, refer = e["person"], e["expect"], e.get("refer")
        res = People(spec, r).contact(pid, e["q"])
        outcome = classify(res.tags + gatekeeper_refers(res.tags, res.reply, spec), expect, refer)
        counts[outcome] += 1
        hedge = hedge_kind(res.tags, expect)
        if hedge:
            hedges[hedge] += 1
        rows.append({"person": pid, "q": e["q"], "expect": expect, "refer": refer, "tags": res.tags,
                     "outcome": outcome, "hedge": hedge, "reply": res.reply})
    n = len(rows)
    return {"router": getattr(r, "name", str(router)), "questions": n, "counts": counts,
            "shares": _shares(counts), "hedges": hedges, "rows": rows}


def label_agreement(first: dict[str, Any], second: dict[str, Any], spec: dict[str, Any],
                    router: str | Router = "lexical", where: str = "labelled set") -> dict[str, Any]:
    """How two labellers of the same questions agree, and what each makes of the same replies.

    ``labels``: how many questions both call don't-know (``dont_know_same_refer`` when they refer
    alike), both label with the same topics (``same_topics``) or overlapping ones, or split topic
    against don't-know. ``first``/``second``: the router's outcome shares under each labelling;
    ``wrong_paragraph_both``: the share of questions both call a wrong paragraph (a defect no
    labelling choice explains).
    ``first_as_router``/``second_as_router``: one labelling scored as replies against the other (the
    floor a router that reads as carefully as a labeller meets)."""
    qa, qb = first.get("questions") or [], second.get("questions") or []
    if [(q["person"], q["q"]) for q in qa] != [(q["person"], q["q"]) for q in qb]:
        raise ValueError(f"{where}: the two labellings must hold the same questions in the same order")
    r = evaluate_heldout(spec, first, router, where)   # checks the first labelling's questions
    topics = {p["id"]: {t["id"] for t in p.get("topics", [])} for p in spec["people"]}
    for i, b in enumerate(qb):
        _check_question(b, i, topics, f"{where} (second labelling)")
    kinds = dict.fromkeys(("dont_know_same_refer", "dont_know_other_refer", "same_topics", "overlapping_topics",
                           "disjoint_topics", "topic_vs_dont_know"), 0)
    ob = dict.fromkeys(OUTCOMES, 0)
    both_wrong = 0
    for a, b, row in zip(qa, qb, r["rows"]):
        ea, eb = a.get("expect"), b.get("expect")
        if ea == eb == "dont_know":
            kinds["dont_know_same_refer" if a.get("refer") == b.get("refer") else "dont_know_other_refer"] += 1
        elif "dont_know" in (ea, eb):
            kinds["topic_vs_dont_know"] += 1
        else:
            kinds["same_topics" if set(ea) == set(eb) else "overlapping_topics" if set(ea) & set(eb) else "disjoint_topics"] += 1
        second_outcome = classify(row["tags"], eb, b.get("refer"))
        ob[second_outcome] += 1
        both_wrong += row["outcome"] == second_outcome == "wrong_paragraph"
    n = len(qa)
    return {"questions": n, "labels": kinds, "first": r["shares"], "second": _shares(ob),
            "wrong_paragraph_both": round(both_wrong / n, 4) if n else 0.0,
            "first_as_router": _shares(_as_router(qa, qb)), "second_as_router": _shares(_as_router(qb, qa))}


def _shares(counts: dict[str, int]) -> dict[str, float]:
    """Each outcome's share of all the counted questions, to four places."""
    n = sum(counts.values())
    return {k: round(v / n, 4) if n else 0.0 for k, v in counts.items()}


def _as_router(router_labels: list[dict[str, Any]], labels: list[dict[str, Any]]) -> dict[str, int]:
    """Outcome counts when one labeller's answers are the replies and the other's the labels: what a
    router that reads as carefully as a labeller would score."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for said, want in zip(router_labels, labels):
        e = said.get("expect")
        tags = list(e) if isinstance(e, list) else ["dont_know"] + ([f"refer:{said['refer']}"] if said.get("refer") else [])
        counts[classify(tags, want["expect"], want.get("refer"))] += 1
    return counts


def as_heldout(rset: dict[str, Any]) -> dict[str, Any]:
    """A tuning set as a held-out set, to measure it through the engine: each labelled question
    expects its topics, each off-topic question a "don't know" (fishing questions are measured by
    :func:`evaluate`)."""
    qs = [{"person": pid, "q": q, "expect": sorted(labels) if labels else "dont_know"}
          for _kind, pid, q, labels in cases(rset)]
    return {"questions": qs}


def find_heldout_sets(tests_dir: str | Path = "tests", folder: str = "heldout") -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(task id, validated base-variant people spec, held-out set) for ``routing/<folder>/*.yaml``
    (``heldout``: written before tuning; ``blind``: written without seeing people.yaml at all;
    ``tuning``: the tuning sets ``routing/*.yaml`` themselves, through :func:`as_heldout`)."""
    from fdegym_env.core.registry import load_task
    out = []
    tuning = folder == "tuning"
    for path in sorted((Path(tests_dir) / "routing" / ("" if tuning else folder)).glob("*.yaml")):
        task = load_task(path.stem)
        data = load_yaml(path) or {}
        out.append((path.stem, task.people_spec(task.variant("base")), as_heldout(data) if tuning else data))
    return out


def labelled_sets(tests_dir: str | Path = "tests") -> list[str]:
    """The names of the labelled-set folders under ``<tests_dir>/routing`` (``heldout``, ``blind2``, ...)."""
    return sorted(p.name for p in (Path(tests_dir) / "routing").glob("*/") if p.is_dir())


def find_sets(tests_dir: str | Path = "tests", strict: bool = False) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(name, validated people spec, routing set) for every routing set under ``tests_dir``.

    A set whose task does not load is skipped with a note on stderr (``strict=True``: raised)."""
    root = Path(tests_dir)
    out = []
    for path in sorted((root / "people" / "data").glob("*.routing.yaml")):
        name = path.name[: -len(".routing.yaml")]
        spec = validate_people(load_yaml(path.with_name(name + ".yaml")), str(path.with_name(name + ".yaml")))
        out.append((name, spec, load_yaml(path) or {}))
    for path in sorted((root / "routing").glob("*.yaml")):
        from fdegym_env.core.registry import load_task
        try:
            task = load_task(path.stem)
            out.append((path.stem, task.people_spec(task.variant("base")), load_yaml(path) or {}))
        except Exception as e:  # a scenario still being written: say so, keep going
            if strict:
                raise
            print(f"skipping routing set {path}: {type(e).__name__}: {e}", file=sys.stderr)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fdegym_env.people.routing_report", description=__doc__.split("\n")[0])
    ap.add_argument("--tests-dir", default="tests", help="folder holding routing/ and people/data/ (default: tests)")
    ap.add_argument("--routers", default=None,
                    help="comma-separated: regex, lexical, llm (default: regex,lexical; --heldout: each task's own)")
    ap.add_argument("--only", default=None, help="only the set with this name")
    ap.add_argument("--misses", action="store_true", help="list every wrong routing")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--heldout", action="store_true", help="evaluate routing/heldout/*.yaml through the engine")
    ap.add_argument("--blind", action="store_true", help="evaluate routing/blind/*.yaml (questions written without "
                    "seeing people.yaml) through the engine")
    ap.add_argument("--tuning", action="store_true", help="evaluate the tuning sets routing/*.yaml through the "
                    "engine, with the held-out outcomes (off-topic questions expect a don't-know)")
    ap.add_argument("--set", dest="set_name", default=None, metavar="NAME",
                    help="evaluate the labelled set routing/NAME/*.yaml (e.g. blind2) through the engine")
    ap.add_argument("--agree", default=None, metavar="NAME",
                    help="with --set: compare its labels with routing/NAME/ (the same questions, labelled again)")
    ap.add_argument("--router-arg", dest="router_args", action="append", default=[], metavar="KEY=VALUE",
                    help="a router setting for the engine runs (repeatable), e.g. min_about=0.5")
    a = ap.parse_args(argv)
    try:
        a.router_kwargs = parse_router_args(a.router_args)
    except ValueError as e:
        ap.error(str(e))
    if a.set_name is not None:
        sets = labelled_sets(a.tests_dir)
        if a.set_name not in sets:
            ap.error(f"--set: expected one of the folders under {a.tests_dir}/routing {sets}, got {a.set_name!r}; "
                     f"fix: pass a folder name (not a path) that holds <task>.yaml sets")
        if a.agree is not None:
            if a.agree not in sets:
                ap.error(f"--agree: expected one of the folders under {a.tests_dir}/routing {sets}, got {a.agree!r}")
            return _agree_main(a)
        return _heldout_main(a, a.set_name)
    if a.agree is not None:
        ap.error("--agree needs --set NAME (the first labelling)")
    if a.heldout or a.blind or a.tuning:
        return _heldout_main(a, "blind" if a.blind else "tuning" if a.tuning else "heldout")
    rows = []
    for name, spec, rset in find_sets(a.tests_dir):
        if a.only and name != a.only:
            continue
        check_set(spec, rset, name)
        for router in (a.routers or "regex,lexical").split(","):
            rows.append(dict(evaluate(spec, rset, router.strip(), **a.router_kwargs), set=name))
    done = _json_or_empty(rows, a.json, f"no routing sets found under {a.tests_dir}/routing or {a.tests_dir}/people/data")
    if done is not None:
        return done
    print(f"{'set':<22} {'router':<8} {'questions':>9} {'precision':>9} {'recall':>7} {'fishing matched':>16} {'released':>8}")
    for r in rows:
        print(f"{r['set']:<22} {r['router']:<8} {r['questions']:>9} {r['precision']:>9.3f} {r['recall']:>7.3f} "
              f"{r['fishing_matched']:>9}/{r['fishing_questions']:<6} {r['fishing_released']:>8}")
    for rt in dict.fromkeys(r["router"] for r in rows):
        sub = [r for r in rows if r["router"] == rt]
        tp, fp, fn = (sum(r[k] for r in sub) for k in ("tp", "fp", "fn"))
        print(f"{'ALL':<22} {rt:<8} {sum(r['questions'] for r in sub):>9} {tp / max(1, tp + fp):>9.3f} "
              f"{tp / max(1, tp + fn):>7.3f}")
    if a.misses:
        for r in rows:
            for m in r["misses"]:
                print(f"[{r['set']}/{r['router']}] {m['kind']:<9} {m['person']}: {m['q']!r} want {m['want']} got {m['got']}")
    return 0


def _json_or_empty(rows: list[dict[str, Any]], as_json: bool, empty: str) -> int | None:
    """The exit code once ``rows`` are printed as JSON (0) or found empty (1, ``empty`` on stderr);
    None when the caller prints its table."""
    if as_json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print(empty, file=sys.stderr)
        return 1
    return None


def _agree_main(a: argparse.Namespace) -> int:
    second = {name: h for name, _spec, h in find_heldout_sets(a.tests_dir, a.agree)}
    rows = []
    for name, spec, hset in find_heldout_sets(a.tests_dir, a.set_name):
        if name in second and not (a.only and name != a.only):
            router = make_router(a.routers or "lexical", spec["people"], **a.router_kwargs)
            rows.append(dict(label_agreement(hset, second[name], spec, router, name), set=name))
    done = _json_or_empty(rows, a.json, f"no task has both routing/{a.set_name}/ and routing/{a.agree}/")
    if done is not None:
        return done
    n = sum(r["questions"] for r in rows)
    total = {k: sum(r["labels"][k] for r in rows) for k in rows[0]["labels"]}
    print(f"{a.set_name} against {a.agree}: {n} questions over {len(rows)} tasks")
    for k, v in total.items():
        print(f"  {k:<24} {v:>5} {v / n:>7.1%}")
    for which, label in (("first", a.set_name), ("second", a.agree)):
        shares = {o: sum(r[which][o] * r["questions"] for r in rows) / n for o in OUTCOMES}
        print(f"  outcomes under {label}: " + " ".join(f"{o} {v:.1%}" for o, v in shares.items()))
    both = sum(r["wrong_paragraph_both"] * r["questions"] for r in rows) / n
    print(f"  wrong paragraph under both labellings: {both:.1%}")
    for which, label, other in (("first_as_router", a.set_name, a.agree), ("second_as_router", a.agree, a.set_name)):
        shares = {o: sum(r[which][o] * r["questions"] for r in rows) / n for o in OUTCOMES}
        print(f"  {label} as the router, {other} as labels: " + " ".join(f"{o} {v:.1%}" for o, v in shares.items()))
    return 0


def parse_router_args(pairs: list[str]) -> dict[str, Any]:
    """``["min_about=0.5", "about_lead=none"]`` -> ``{"min_about": 0.5, "about_lead": None}`` (numbers,
    ``none``/``true``/``false``; anything else stays a string)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"--router-arg: expected KEY=VALUE with KEY a setting name, got {pair!r}")
        low = raw.strip().lower()
        if low in ("none", "null"):
            out[key.strip()] = None
        elif low in ("true", "false"):
            out[key.strip()] = low == "true"
        else:
            try:
                out[key.strip()] = int(raw) if raw.strip().lstrip("-").isdigit() else float(raw)
            except ValueError:
                out[key.strip()] = raw
    return out


def _heldout_main(a: argparse.Namespace, folder: str = "heldout") -> int:
    results = []
    from fdegym_env.core.registry import load_task
    for name, spec, hset in find_heldout_sets(a.tests_dir, folder):
        if a.only and name != a.only:
            continue
        for router in (a.routers or load_task(name).router).split(","):
            results.append(dict(evaluate_heldout(spec, hset, router.strip(), name, a.router_kwargs), set=name))
    done = _json_or_empty(results, a.json, f"no held-out sets under {a.tests_dir}/routing/{folder}")
    if done is not None:
        return done
    print(f"{'set':<22} {'router':<8} {'questions':>9} " + " ".join(f"{o:>15}" for o in OUTCOMES))
    for r in results:
        print(f"{r['set']:<22} {r['router']:<8} {r['questions']:>9} " + " ".join(f"{r['shares'][o]:>15.1%}" for o in OUTCOMES))
    for rt in dict.fromkeys(r["router"] for r in results):
        sub = [r for r in results if r["router"] == rt]
        counts = {o: sum(r["counts"][o] for r in sub) for o in OUTCOMES}
        n, answerable = sum(counts.values()), sum(1 for r in sub for row in r["rows"] if row["expect"] != "dont_know")
        shares = _shares(counts)
        needed, needless = (sum(r["hedges"][k] for r in sub) for k in ("needed", "needless"))
        print(f"{'ALL':<22} {rt:<8} {n:>9} " + " ".join(f"{shares[o]:>15.1%}" for o in OUTCOMES)
              + f"   on topic of answerable: {counts['on_topic'] / max(1, answerable):.1%}"
              + f"   'not to hand' replies: {needed} needed, {needless} needless"
              + f" ({needless / max(1, counts['on_topic']):.1%} of on-topic replies)")
    if a.misses:
        for r in results:
            for row in r["rows"]:
                if row["outcome"] not in ("on_topic", "dont_know"):
                    print(f"[{r['set']}/{r['router']}] {row['outcome']:<15} {row['person']}: {row['q']!r} "
                          f"expect {row['expect']} got {row['tags']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
