"""A text space that holds real text.

Gymnasium's :class:`gymnasium.spaces.Text` only admits a fixed alphanumeric charset, so it rejects
the observations this env produces (punctuation, newlines, accented names). :class:`UnicodeText`
admits any ``str`` up to ``max_length`` characters and samples printable Unicode.

Example:
    >>> s = UnicodeText(max_length=100)
    >>> s.contains("Café — 14:05 UTC\\n")
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.spaces import Space

# Letters, digits, punctuation, whitespace and a few non-ASCII characters, for sample().
_SAMPLE_CHARS = np.array(list(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?-_/'\"()\n"
    "éèüßøåçñ—€£"))


class UnicodeText(Space[str]):
    """Any Python ``str`` of at most ``max_length`` characters."""

    def __init__(self, max_length: int = 1_000_000, min_length: int = 0, seed: int | None = None):
        if not 0 <= min_length <= max_length:
            raise ValueError(f"expected 0 <= min_length <= max_length, got {min_length}, {max_length}")
        self.max_length = int(max_length)
        self.min_length = int(min_length)
        super().__init__(dtype=str, seed=seed)

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        hi = min(self.max_length, 64)
        n = int(self.np_random.integers(self.min_length, max(self.min_length, hi) + 1))
        return "".join(self.np_random.choice(_SAMPLE_CHARS, size=n))

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"UnicodeText(max_length={self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and (other.max_length, other.min_length) == (
            self.max_length, self.min_length)

    def __hash__(self) -> int:  # equal spaces hash equal (defining __eq__ alone made it unhashable)
        return hash((UnicodeText, self.max_length, self.min_length))

    def to_jsonable(self, sample_n):
        return list(sample_n)

    def from_jsonable(self, sample_n):
        return list(sample_n)
