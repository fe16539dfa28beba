"""UnicodeText: the text space of the observation."""

from __future__ import annotations

from fdegym_env.core.spaces import UnicodeText


def test_unicode_text_is_hashable_and_equal_spaces_hash_equal():
    a, b, c = UnicodeText(100), UnicodeText(100), UnicodeText(200)
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    assert {a: "x"}[b] == "x"
