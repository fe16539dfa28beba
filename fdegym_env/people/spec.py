"""Validation of people.yaml (the reference harness's npcs.json semantics, docs/design.md, People)."""

from __future__ import annotations

from typing import Any

from fdegym_env.core.clock import FORMAT, parse_time
from fdegym_env.core.errors import TaskFormatError, did_you_mean

PERSON_FIELDS = {"id", "name", "role", "blurb", "fallback", "patience", "out_of_patience", "cost", "soft_limit",
                 "over_factor", "off_limits", "off_limits_reply", "gone_after_hours", "gone_at", "gone_after_asks",
                 "gone_label", "gone_reply", "away_until", "away_label", "away_reply", "overflow", "topics",
                 "misconceptions", "persona", "dont_know"}
TOPIC_FIELDS = {"id", "about", "triggers", "requires", "gate", "gate_miss", "requires_hint", "answer", "facts",
                "requires_facts", "requires_miss", "exclusive", "stall", "available_at", "available_after_hours",
                "stall_again", "stall_seconds", "keywords", "recap", "examples"}
TOP_FIELDS = {"people", "npcs", "total_questions", "show_budget", "clock", "inbox", "trial", "matcher", "replies"}
REPLY_FIELDS = {"refer_elsewhere", "recap_repeats", "not_to_hand"}
AWAY_FIELDS = ("away_until", "away_label", "away_reply")
# How an out-of-office begins: a reply made only of these costs nothing and takes no time.
AUTO_REPLY_MARKS = ("(auto-reply)", "(automatic reply)", "(out of office)")
MAX_EXAMPLES = 12            # example questions per topic
MAX_EXAMPLE_CHARS = 1200     # one example question, as an agent would write it


def _err(where: str, msg: str) -> ValueError:
    return TaskFormatError(f"{where}: {msg}")


def _hints(unknown: set[str], known: set[str]) -> str:
    """``'max_turn' (Did you mean 'max_turns'?), 'zz'``."""
    return ", ".join(f"{k!r}" + (f" ({did_you_mean(k, sorted(known)).strip()})" if did_you_mean(k, known) else "")
                     for k in sorted(unknown))


def _check_after_stall(m: dict[str, Any], topics_of: dict[str, dict[str, dict[str, Any]]], where: str) -> None:
    """``after_stall: person/topic`` must name a topic that can be held back (stall, gate or
    ``requires_facts``); ``stall_delay_hours`` only goes with ``after_stall``."""
    if "stall_delay_hours" in m and "after_stall" not in m:
        raise TaskFormatError(f"{where}: 'stall_delay_hours' needs 'after_stall: <person>/<topic>'")
    if "after_stall" not in m:
        return
    ref = m["after_stall"]
    pid, _, tid = ref.partition("/") if isinstance(ref, str) else ("", "", "")
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
    delay = m.get("stall_delay_hours", 0)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or delay < 0:
        raise TaskFormatError(f"{where}: stall_delay_hours: expected a number of hours >= 0, got {delay!r}")


def _check_inbox_news(m: dict[str, Any], topics_of: dict[str, dict[str, dict[str, Any]]], where: str) -> None:
    """An inbox message's ``facts`` are a list of fact ids; ``unless_asked`` names people
    (``person``) or topics (``person/topic``) of this file, as a string or a list of them."""
    if "facts" in m and not (isinstance(m["facts"], list) and all(isinstance(f, str) for f in m["facts"])):
        raise TaskFormatError(f"{where}: facts: expected a list of fact ids, got {m['facts']!r}")
    if "unless_asked" not in m:
        return
    refs = m["unless_asked"]
    refs = [refs] if isinstance(refs, str) else refs
    if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
        raise TaskFormatError(f"{where}: unless_asked: expected '<person>' or '<person>/<topic>', or a list "
                              f"of them, got {m['unless_asked']!r}")
    for ref in refs:
        pid, slash, tid = ref.partition("/")
        if pid not in topics_of:
            raise TaskFormatError(f"{where}: unless_asked: unknown person {pid!r} in {ref!r}."
                                  f"{did_you_mean(pid, sorted(topics_of))} Expected one of {sorted(topics_of)}")
        if slash and tid not in topics_of[pid]:
            raise TaskFormatError(f"{where}: unless_asked: {pid} has no topic {tid!r}."
                                  f"{did_you_mean(tid, sorted(topics_of[pid]))} Expected one of "
                                  f"{sorted(topics_of[pid])}")


def _check_away(p: dict[str, Any], has_clock: bool, where: str) -> None:
    """``away_until`` (a clock stamp), with optional ``away_label`` and ``away_reply`` (an out-of-office)."""
    fields = sorted(k for k in ("away_label", "away_reply") if k in p)
    if "away_until" not in p:
        if fields:
            raise TaskFormatError(f"{where}: {', '.join(fields)} needs 'away_until: YYYY-MM-DDTHH:MM'")
        return
    until = p["away_until"]
    try:
        parse_time(until)
    except (TypeError, ValueError):
        raise TaskFormatError(f"{where}: away_until: expected a clock stamp like '2026-03-05T09:00' "
                              f"({FORMAT}), got {until!r}") from None
    if not has_clock:
        raise TaskFormatError(f"{where}: away_until needs a 'clock' (the episode's calendar) to be away by")
    for k in fields:
        if not isinstance(p[k], str) or not p[k].strip():
            raise TaskFormatError(f"{where}: {k} must be a non-empty string, got {p[k]!r}")
    if "away_reply" in p and not p["away_reply"].startswith(AUTO_REPLY_MARKS):
        raise TaskFormatError(f"{where}: away_reply is an out-of-office and must begin with one of "
                              f"{', '.join(AUTO_REPLY_MARKS)}, got {p['away_reply'][:40]!r}")


def _check_examples(t: dict[str, Any], where: str) -> None:
    """``examples:`` — questions an agent might send that this topic answers (for meaning-level routers)."""
    ex = t.get("examples")
    if ex is None:
        return
    if not isinstance(ex, list) or not ex or len(ex) > MAX_EXAMPLES:
        got = f"{len(ex)} items" if isinstance(ex, list) else repr(ex)[:60]
        raise TaskFormatError(f"{where}: field 'examples' must be a list of 1-{MAX_EXAMPLES} questions, got {got}; "
                              f"fix: write each example question as one list item")
    for k, q in enumerate(ex):
        if not isinstance(q, str) or not q.strip():
            raise TaskFormatError(f"{where}: examples[{k}] must be a non-empty string, got {q!r}")
        if len(q) > MAX_EXAMPLE_CHARS:
            raise TaskFormatError(f"{where}: examples[{k}] is {len(q)} characters, expected at most "
                                  f"{MAX_EXAMPLE_CHARS}; fix: shorten the quoted context")


def validate_people(data: Any, where: str) -> dict[str, Any]:
    """Check the structure and return a normalised copy (``people`` list, defaults filled)."""
    if not isinstance(data, dict):
        raise _err(where, "expected a mapping at the top level")
    unknown = set(data) - TOP_FIELDS
    if unknown:
        raise _err(where, f"unknown top-level field(s): {_hints(unknown, TOP_FIELDS)}")
    people = data.get("people", data.get("npcs"))
    if not isinstance(people, list) or not people:
        raise _err(where, "field 'people' must be a non-empty list")
    seen = set()
    for i, p in enumerate(people):
        w = f"people[{i}]"
        if not isinstance(p, dict):
            raise _err(where, f"{w} must be a mapping")
        for k in ("id", "name", "role", "blurb"):
            if not isinstance(p.get(k), str):
                raise _err(where, f"{w}: field {k!r} must be a string")
        if p["id"] in seen:
            raise _err(where, f"{w}: duplicate id {p['id']!r}")
        seen.add(p["id"])
        bad = set(p) - PERSON_FIELDS
        if bad:
            raise _err(where, f"{w} ({p['id']}): unknown field(s): {_hints(bad, PERSON_FIELDS)}")
        if p.get("off_limits") and not p.get("topics") and not isinstance(p.get("off_limits_reply"), str):
            raise _err(where, f"{w} ({p['id']}): an off_limits person without topics needs 'off_limits_reply'")
        _check_away(p, isinstance(data.get("clock"), dict) and data["clock"].get("start") is not None,
                    f"{where}: {w} ({p['id']})")
        p.setdefault("fallback", "Sorry, that's not something I can help with.")
        p.setdefault("topics", [])
        for j, t in enumerate(p["topics"]):
            tw = f"{w} ({p['id']}).topics[{j}]"
            if not isinstance(t, dict) or not isinstance(t.get("id"), str):
                raise _err(where, f"{tw}: needs a string 'id'")
            bad = set(t) - TOPIC_FIELDS
            if bad:
                raise _err(where, f"{tw} ({t['id']}): unknown field(s): {_hints(bad, TOPIC_FIELDS)}")
            if not isinstance(t.get("answer"), str):
                raise _err(where, f"{tw} ({t['id']}): field 'answer' must be a string")
            if "keywords" in t:    # YAML reads `[mct, 40, null]` as str, int, None: keywords are words
                kws = t["keywords"]
                if not isinstance(kws, list) or not all(x is None or isinstance(x, (str, int, float)) for x in kws):
                    raise _err(where, f"{tw} ({t['id']}): field 'keywords' must be a list of words")
                t["keywords"] = ["null" if x is None else str(x).lower() if isinstance(x, bool) else str(x)
                                 for x in kws]
            _check_examples(t, f"{where}: {tw} ({t['id']})")
            for k in ("triggers", "requires", "facts", "requires_facts", "stall"):
                if k in t and not (isinstance(t[k], list) and all(isinstance(x, str) for x in t[k])):
                    raise _err(where, f"{tw} ({t['id']}): field {k!r} must be a list of strings")
    replies = data.get("replies") or {}
    if not isinstance(replies, dict) or set(replies) - REPLY_FIELDS or not all(isinstance(v, bool) for v in replies.values()):
        raise _err(where, f"'replies' must map {sorted(REPLY_FIELDS)} to true/false, got {replies!r}")
    topics_of = {p["id"]: {t["id"]: t for t in p["topics"]} for p in people}
    for i, m in enumerate(data.get("inbox") or []):
        if not isinstance(m, dict) or not all(isinstance(m.get(k), str) for k in ("id", "from", "text")):
            raise _err(where, f"inbox[{i}]: needs string fields 'id', 'from', 'text'")
        _check_after_stall(m, topics_of, f"{where}: inbox[{i}] ({m['id']})")
        _check_inbox_news(m, topics_of, f"{where}: inbox[{i}] ({m['id']})")
    out = dict(data)
    out.pop("npcs", None)
    out["people"] = people
    out.setdefault("show_budget", True)
    out.setdefault("inbox", [])
    out.setdefault("trial", {})
    return out
