"""`fappo_bot.words.plural`: the one way a text puts a count before its noun."""

from __future__ import annotations

import pytest

from fappo_bot.words import noun, plural

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("count", "word", "expected"), [
    (1, "hit", "1 hit"), (2, "hit", "2 hits"), (0, "hit", "0 hits"),
    (1, "success", "1 success"), (3, "success", "3 successes"),
    (1, "GM point", "1 GM point"), (2, "GM point", "2 GM points"),
    (2, "match", "2 matches"), (2, "box", "2 boxes"),
])
def test_a_count_and_its_noun(count: int, word: str, expected: str) -> None:
    assert plural(count, word) == expected


def test_an_irregular_plural_is_given() -> None:
    assert plural(2, "set of orders", "sets of orders") == "2 sets of orders"
    assert plural(1, "set of orders", "sets of orders") == "1 set of orders"
    assert noun(2, "ally", "allies") == "allies"
