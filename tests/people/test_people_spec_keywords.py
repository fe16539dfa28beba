"""people.yaml keywords are words, even where YAML reads them as numbers (`[mct, 40]`)."""

import pytest

from fdegym_env.people.spec import validate_people


def _spec(keywords):
    return {"people": [{"id": "a", "name": "A", "role": "r", "blurb": "b",
                        "topics": [{"id": "t", "answer": "x", "keywords": keywords}]}]}


def test_numeric_keywords_become_strings():
    out = validate_people(_spec(["mct", 40, 2.5, None, True]), "people.yaml")
    assert out["people"][0]["topics"][0]["keywords"] == ["mct", "40", "2.5", "null", "true"]


@pytest.mark.parametrize("bad", ["mct", [{"a": 1}]])
def test_keywords_must_be_a_list_of_words(bad):
    with pytest.raises(ValueError, match="keywords"):
        validate_people(_spec(bad), "people.yaml")
