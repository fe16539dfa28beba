"""Typo repair leaves real English words alone: a common word is not read as another word one letter
away ("reach" is not "breach"), though it may still be an inflection of a word the scripts use."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fdegym_env.people.routers import LexicalRouter
from fdegym_env.people.words import common_words, is_common_word

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tasks"))
from people_of import people_of  # noqa: E402

SPEC = [{"id": "ann", "name": "Ann Lee", "topics": [
    {"id": "embargo", "about": "embargo breach batch"},
    {"id": "steps", "about": "what to take first"}]}]


def test_the_word_list_is_the_shipped_vocabulary():
    words = common_words()
    assert 8000 < len(words) < 20000
    assert {"reach", "watch", "receive", "taken"} <= words
    assert not {"recieve", "breach", "kestrel"} & words


@pytest.mark.parametrize("word, repaired", [
    ("reach", None), ("watch", None),                      # real words, not typos of breach / batch
    ("taken", "take"),                                     # an inflection still finds its word
    ("breech", "breach"), ("embrago", "embargo"),          # real typos are still repaired
])
def test_repair(word, repaired):
    assert LexicalRouter(SPEC)._repair(word) == repaired
    assert is_common_word(word) == (word in {"reach", "watch", "taken"})


@pytest.mark.parametrize("variant", ["base", "sample:3866"])
@pytest.mark.parametrize("message", [
    "How do Kestrel kills reach us?",
    "How does a Kestrel kill reach the night desk?",
    "When Kestrel kill a story, how does that reach us on the wire?",
])
def test_the_night_editor_says_how_kestrel_kills_reach_the_desk(variant, message):
    res = people_of("news_incident", variant).contact("night_editor", message)
    assert "kna_kills" in res.tags, res.reply
