"""English words the bot's texts share: a count and its noun (`plural`), so no text writes
"question(s)" or "1 GM points" by hand. Pure, imports nothing: every layer may use it."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """`count` and `word`, the noun in the number `count` asks: `1 hit`, `2 hits`,
    `0 successes`, `1 GM point`, `3 GM points`. `many`: the plural when it is not the noun
    and an "s" (or "es" after s, x, z, ch, sh): `plural(2, "set of orders", "sets of orders")`.
    """
    return f"{count} {noun(count, word, many)}"


def noun(count: int, word: str, many: str | None = None) -> str:
    """`word` alone in the number `count` asks (`plural` without the count)."""
    if count == 1:
        return word
    if many is not None:
        return many
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"
