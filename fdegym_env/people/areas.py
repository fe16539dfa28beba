"""What each person owns, by their own account: role, blurb, persona, topic subjects and the inbox
messages they sent. The engine asks it before a person says something is not their area.

A message is in a person's area when it shares a content word with that area and the person's
area is the closest of everyone's to the message, by meaning (the semantic router's embeddings,
within ``lead``) or by words (the shared words weighted by how few people's areas have them).
Built once per spec and cached per process.

Example:
    >>> spec = {"people": [
    ...     {"id": "hal", "name": "Harriet Osei", "role": "Head of Legal", "blurb": "Court reporting and legal risk."},
    ...     {"id": "tom", "name": "Tomasz Nowak", "role": "Wire editor", "blurb": "Runs the agency wire feeds."}]}
    >>> AreaIndex.of(spec).owns("hal", "How do you want court copy about a stabbing handled?")
    True
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

import numpy as np

from fdegym_env.people.routers import tokens
from fdegym_env.people.semantic_router import clean, embed

_NAME = re.compile(r"[A-Za-z][A-Za-z'-]+")


class AreaIndex:
    """Each person's area as one embedding and one set of content words.

    Args:
        areas: ``{person id: area text}``.
        names: ``{person id: [name words]}`` (full name and first name).
        lead: how far below the closest person's area a person's own may be and still count.
    """

    def __init__(self, areas: dict[str, str], names: dict[str, list[str]], lead: float = 0.02):
        self.ids = list(areas)
        self.lead = lead
        self.vectors = embed([areas[i] for i in self.ids])
        self.words = {i: frozenset(tokens(areas[i])) for i in self.ids}
        self.names = names
        df: dict[str, int] = {}
        for ws in self.words.values():
            for w in ws:
                df[w] = df.get(w, 0) + 1
        self.idf = {w: math.log((len(self.ids) + 1) / c) for w, c in df.items()}

    @classmethod
    def of(cls, spec: dict[str, Any]) -> "AreaIndex":
        """The index of a validated people spec (cached on the spec's area texts)."""
        areas, names = [], []
        for p in spec["people"]:
            own = [str(m.get("text", "")) for m in spec.get("inbox") or [] if m.get("from") in (p["id"], p["name"])]
            text = ". ".join([str(p.get("role", "")), str(p.get("blurb", "")), str(p.get("persona", "") or "")]
                             + [str(t.get("about", "")) for t in p.get("topics") or []] + own)
            areas.append((p["id"], text))
            full = str(p.get("name", ""))
            names.append((p["id"], tuple(dict.fromkeys([full] + _NAME.findall(full)[:1]))))
        return _cached(tuple(areas), tuple(names))

    def owns(self, person_id: str, message: str) -> bool:
        """Whether ``message`` is about what ``person_id``'s own account says they own."""
        text = clean(message)
        words = set(tokens(text))
        if person_id not in self.words or not (words & self.words[person_id]):
            return False
        overlap = {i: math.fsum(self.idf[w] for w in words & self.words[i]) for i in self.ids}
        if overlap[person_id] >= max(overlap.values()):
            return True
        sims = self.vectors @ embed([text])[0]
        mine = float(sims[self.ids.index(person_id)])
        return mine >= float(np.max(sims)) - self.lead

    def names_someone(self, person_id: str, text: str) -> bool:
        """Whether ``text`` (a scripted line of ``person_id``) names any other person."""
        return bool(self.named_in(person_id, text))

    def named_in(self, person_id: str, text: str) -> list[str]:
        """The other people ``text`` (a scripted line of ``person_id``) names, by full or first name."""
        return [pid for pid, ns in self.names.items() if pid != person_id
                and any(len(n) >= 2 and re.search(r"\b" + re.escape(n) + r"\b", text) for n in ns)]


@functools.lru_cache(maxsize=64)
def _cached(areas: tuple[tuple[str, str], ...], names: tuple[tuple[str, tuple[str, ...]], ...]) -> AreaIndex:
    return AreaIndex(dict(areas), {pid: list(ns) for pid, ns in names})
