"""Topic routers: decide which of a person's scripted topics a message asks about, and whether
each topic's evidence gate is met. What people know and say stays scripted; only routing varies.

- ``regex``: the reference harness's semantics exactly (``triggers`` and ``requires`` patterns).
- ``lexical``: deterministic and offline; tolerant of paraphrase and typos (TF-IDF-weighted overlap
  of stems with each topic's ``about``, ``keywords`` and trigger words; fuzzy token repair).
- ``llm``: see :mod:`fdegym_env.people.llm_router`.
"""

from __future__ import annotations

import difflib
import math
import re
from typing import Any, Protocol

MAX_TOPICS_PER_MESSAGE = 4

Topic = dict[str, Any]
Person = dict[str, Any]


class Router(Protocol):
    deterministic: bool

    def route(self, person: Person, message: str, earlier: list[str]) -> tuple[list[Topic], dict[str, bool]]:
        """-> (matched topics, most direct first; {topic id: gate met} for gated topics)."""


def _regex_any(patterns: list[str], text: str) -> bool:
    return any(re.search(p, text, re.I) for p in patterns)


class RegexRouter:
    """The harness's matcher: a topic matches if any trigger matches; its gate if any ``requires`` does."""

    deterministic = True
    name = "regex"

    def route(self, person, message, earlier):
        matched = [t for t in person["topics"] if _regex_any(t.get("triggers", []), message)]
        gates = {t["id"]: _regex_any(t["requires"], message) for t in matched if t.get("requires")}
        return matched, gates


# --- lexical -------------------------------------------------------------------------------------
STOP = set("""
a about above after again against all am an and any anything are as at be because been before being
below between both but by can could did do does doing done down during each else ever every everything
few for from further get got had has have having he her here hers him his how i if in into is it its
just know let like me might more most much must my no nor not now of off on once only or other our out
over own please really same say she should so some something such tell than thanks thank that the their
them then there these they thing things this those through to too under until up us very want was we
were what when where which while who whom why will with would you your yours hi hello hey quick question
questions ask asking wonder wondering curious could help need also maybe perhaps okay ok sure one two
anyone someone share give happy know knows advice general overview everyone info information should
""".split())
_SUFFIXES = ("ational", "ization", "fulness", "iveness", "ations", "ation", "ments", "ment", "ness",
             "ings", "ing", "edly", "ers", "ies", "ied", "ed", "es", "ly", "er", "s")
_WORD = re.compile(r"[a-z0-9]+")


def stem(word: str) -> str:
    for suf in _SUFFIXES:
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            base = word[: -len(suf)]
            return base + "y" if suf in ("ies", "ied") else base
    return word


def tokens(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOP and len(w) > 1]


def _trigger_words(pattern: str) -> str:
    """Literal words inside a regex (``\\bkill(ed)?`` -> ``kill ed``), for the lexical index."""
    return " ".join(re.findall(r"[A-Za-z]{3,}", re.sub(r"\\[a-zA-Z]", " ", pattern)))


class LexicalRouter:
    """Deterministic paraphrase-tolerant routing.

    A topic's document is its ``about``, ``keywords`` and the words of its regex ``triggers``.
    A message scores each topic by the IDF-weighted share of the topic's best terms it mentions;
    typos are repaired against the vocabulary. A regex trigger hit always counts as a match.
    Broad fishing questions share no weighted terms with any topic and match nothing.
    Gates: the harness's ``requires`` patterns, checked on this message and the earlier messages
    to the same person (evidence already given counts, as in the harness's LLM router).
    """

    deterministic = True
    name = "lexical"

    def __init__(self, people: list[Person], threshold: float = 1.6, relative: float = 0.45):
        self.threshold = threshold
        self.relative = relative
        self.docs: dict[tuple[str, str], dict[str, float]] = {}
        df: dict[str, int] = {}
        raw: dict[tuple[str, str], set[str]] = {}
        for p in people:
            for t in p.get("topics", []):
                text = " ".join([t.get("about", ""), " ".join(t.get("keywords", [])),
                                 " ".join(_trigger_words(x) for x in t.get("triggers", []))])
                terms = set(tokens(text))
                raw[(p["id"], t["id"])] = terms
                for w in terms:
                    df[w] = df.get(w, 0) + 1
        n = max(1, len(raw))
        self.idf = {w: math.log(1 + n / c) for w, c in df.items()}
        self.vocab = sorted(self.idf)
        for key, terms in raw.items():
            self.docs[key] = {w: self.idf[w] for w in terms}
        self._repair_cache: dict[str, str | None] = {}

    def _repair(self, w: str) -> str | None:
        if w in self.idf:
            return w
        if w not in self._repair_cache:
            near = difflib.get_close_matches(w, self.vocab, n=1, cutoff=0.8) if len(w) >= 4 else []
            self._repair_cache[w] = near[0] if near else None
        return self._repair_cache[w]

    def scores(self, person: Person, message: str) -> dict[str, float]:
        words = {r for w in tokens(message) if (r := self._repair(w))}
        out = {}
        for t in person.get("topics", []):
            doc = self.docs.get((person["id"], t["id"]), {})
            out[t["id"]] = sum(doc.get(w, 0.0) for w in words)
        return out

    def route(self, person, message, earlier):
        scores = self.scores(person, message)
        best = max(scores.values(), default=0.0)
        matched = []
        for t in person.get("topics", []):
            s = scores.get(t["id"], 0.0)
            if _regex_any(t.get("triggers", []), message) or (s >= self.threshold and s >= self.relative * best):
                matched.append((s, t))
        matched.sort(key=lambda st: -st[0])
        topics = [t for _, t in matched]
        context = "\n".join(earlier[-4:] + [message])
        gates = {t["id"]: _regex_any(t["requires"], context) for t in topics if t.get("requires")}
        return topics, gates


def make_router(kind: str | Router, people: list[Person], **kwargs: Any) -> Router:
    """Build a router by name (``regex``, ``lexical``, ``llm``) or pass one through."""
    if not isinstance(kind, str):
        return kind
    if kind == "regex":
        return RegexRouter()
    if kind == "lexical":
        return LexicalRouter(people, **kwargs)
    if kind == "llm":
        from fdegym_env.people.llm_router import LLMRouter
        return LLMRouter(**kwargs)
    raise ValueError(f"router must be 'regex', 'lexical' or 'llm', got {kind!r}")
