"""Validation of people.yaml (the reference harness's npcs.json semantics, docs/design.md, People)."""

from __future__ import annotations

import re
from typing import Any, cast

from fdegym_env.core import schema
from fdegym_env.core.errors import TaskFormatError, did_you_mean
from fdegym_env.core.schema import AUTO_REPLY_MARKS as AUTO_REPLY_MARKS
from fdegym_env.core.schema import MAX_EXAMPLE_CHARS as MAX_EXAMPLE_CHARS
from fdegym_env.core.schema import MAX_EXAMPLES as MAX_EXAMPLES

# The structure (fields, types, required keys) is the pydantic model in fdegym_env.core.schema; the
# field sets below are read from it (the harness's case import keeps only these).
PERSON_FIELDS = frozenset(schema.Person.model_fields)
TOPIC_FIELDS = frozenset(schema.Topic.model_fields)
TOP_FIELDS = frozenset(schema.PeopleFile.model_fields)
REPLY_FIELDS = frozenset(schema.RepliesSpec.model_fields)
AWAY_FIELDS = ("away_until", "away_label", "away_reply")


def _check_after_stall(m: dict[str, Any], topics_of: dict[str, dict[str, dict[str, Any]]], where: str) -> None:
    """``after_stall: person/topic`` must name a topic that can be held back (stall, gate or
    ``requires_facts``)."""
    if "after_stall" not in m:
        return
    ref = m["after_stall"]
    pid, _, tid = ref.partition("/")
    if pid not in topics_of:
        raise TaskFormatError(f"{where}: after_stall: expected '<person>/<topic>' with a person of "
                              f"{sorted(topics_of)}, got {ref!r}")
    t = topics_of[pid].get(tid)
    if t is None:
        raise TaskFormatError(f"{where}: after_stall: {pid} has no topic {tid!r}; expected one of "
                              f"{sorted(topics_of[pid])}")
    if not (t.get("stall") or t.get("requires") or t.get("gate") or t.get("requires_facts")):
        raise TaskFormatError(f"{where}: after_stall: topic {ref!r} is never held back (it has no 'stall', "
                              f"'requires'/'gate' or 'requires_facts'), so the message could never arrive; "
                              f"fix: point it at a stalled or gated topic")


def _check_inbox_news(m: dict[str, Any], topics_of: dict[str, dict[str, dict[str, Any]]], where: str) -> None:
    """An inbox message comes from a person of this file; ``unless_asked`` names people (``person``)
    or topics (``person/topic``) of this file."""
    if m["from"] not in topics_of:
        raise TaskFormatError(f"{where}: from: unknown person {m['from']!r}.{did_you_mean(m['from'], sorted(topics_of))} "
                              f"Expected one of {sorted(topics_of)}")
    if m.get("from_if_gone") and m["from_if_gone"] not in topics_of:
        raise TaskFormatError(f"{where}: from_if_gone: unknown person {m['from_if_gone']!r}."
                              f"{did_you_mean(m['from_if_gone'], sorted(topics_of))} Expected one of {sorted(topics_of)}")
    refs = m.get("unless_asked") or []
    for ref in [refs] if isinstance(refs, str) else refs:
        pid, slash, tid = ref.partition("/")
        if pid not in topics_of:
            raise TaskFormatError(f"{where}: unless_asked: unknown person {pid!r} in {ref!r}."
                                  f"{did_you_mean(pid, sorted(topics_of))} Expected one of {sorted(topics_of)}")
        if slash and tid not in topics_of[pid]:
            raise TaskFormatError(f"{where}: unless_asked: {pid} has no topic {tid!r}."
                                  f"{did_you_mean(tid, sorted(topics_of[pid]))} Expected one of "
                                  f"{sorted(topics_of[pid])}")


def _check_regexes(t: dict[str, Any], where: str) -> None:
    """``triggers`` and ``requires`` are regular expressions (matched ignoring case)."""
    for k in ("triggers", "requires"):
        for n, rx in enumerate(t.get(k) or []):
            try:
                re.compile(rx, re.IGNORECASE)
            except re.error as e:
                raise TaskFormatError(f"{where}.{k}[{n}]: not a valid regular expression ({e}): {rx!r}") from None


def validate_people(data: Any, where: str) -> dict[str, Any]:
    """Check ``data`` against :class:`fdegym_env.core.schema.PeopleFile` (structure), then what
    refers to what; return a normalised copy (``people`` list, defaults filled, keywords as words)."""
    model = cast("schema.PeopleFile", schema.check("people.yaml", data, where))
    people = data.get("people", data.get("npcs"))
    models = model.people if model.people is not None else model.npcs
    has_clock = model.clock is not None and model.clock.start is not None
    seen = set()
    for i, (p, pm) in enumerate(zip(people, models or [])):
        w = f"{where}: people[{i}] ({p['id']})"
        if p["id"] in seen:
            raise TaskFormatError(f"{w}: duplicate id {p['id']!r}")
        seen.add(p["id"])
        if "away_until" in p and not has_clock:
            raise TaskFormatError(f"{w}: away_until needs a 'clock' (the episode's calendar) to be away by")
        p.setdefault("fallback", "Sorry, that's not something I can help with.")
        p.setdefault("topics", [])
        for j, (t, tm) in enumerate(zip(p["topics"], pm.topics or [])):
            if tm.keywords is not None:
                t["keywords"] = list(tm.keywords)      # YAML's `[mct, 40, null]`, read as words
            _check_regexes(t, f"{w}.topics[{j}] ({t['id']})")
    topics_of = {p["id"]: {t["id"]: t for t in p["topics"]} for p in people}
    for i, m in enumerate(data.get("inbox") or []):
        _check_after_stall(m, topics_of, f"{where}: inbox[{i}] ({m['id']})")
        _check_inbox_news(m, topics_of, f"{where}: inbox[{i}] ({m['id']})")
    out = dict(data)
    out.pop("npcs", None)
    out["people"] = people
    out.setdefault("show_budget", True)
    out.setdefault("inbox", [])
    out.setdefault("trial", {})
    return out
