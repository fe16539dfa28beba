"""Subject-line urgency classifier.

Weighted keyword score over the subject line. Introduced in 2.1.0 to replace the old
"URGENT in capitals" rule. Threshold and weights live in config/subject_keywords.json.
Bodies are deliberately not scored: see CHANGELOG 2.1.2 (connector timeouts on long bodies).
"""

from __future__ import annotations

import json
import os
import re

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "config", "subject_keywords.json")
_cache = None


def _load():
    global _cache
    if _cache is None:
        with open(_PATH, encoding="utf-8") as f:
            _cache = json.load(f)
    return _cache


def score(subject: str) -> float:
    cfg = _load()
    text = " " + re.sub(r"[^a-z0-9 ]+", " ", subject.lower()) + " "
    total = 0.0
    for kw, w in cfg["weights"].items():
        if f" {kw} " in text:
            total += w
    return total


def is_urgent(subject: str) -> bool:
    return score(subject) >= _load()["threshold"]
