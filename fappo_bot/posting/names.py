"""Forgiving name matching for posts (spec/posting.md "Names match forgivingly", RULINGS F2).

A written name is compared, case-insensitively and with blanks normalised, with the names of one
kind of thing (the characters present, the weapons carried, the skills, the Traits...), in tiers:

1. exact: the name itself;
2. an alternate name (the seed's alternate Trait names, weapon aliases);
3. a unique prefix (`Sword` for Swordfighting, `Broad` for Broadsword);
4. one typo away: one letter added, removed or changed, or two neighbours swapped.

The first tier with any match decides: one thing is a match, several are `ambiguous-name` (with
the candidates). Nothing in any tier is `unknown-name`, with the nearest names as suggestions.
Every comparison is linear in the lengths compared.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from fappo_bot.spelling import fold, nearest

#: small words in front of a name that are not part of it ("the Goblins", "my dagger")
ARTICLES = frozenset({"the", "a", "an", "my", "his", "her", "their", "its", "our", "your"})


def strip_articles(words: Sequence[str]) -> list[str]:
    """Drop leading articles and possessives, but never the last word."""
    out = list(words)
    while len(out) > 1 and out[0].casefold() in ARTICLES:
        out.pop(0)
    return out


@dataclass(frozen=True, slots=True)
class Named:
    """Something a post may name: its canonical name and the other names it answers to."""

    name: str
    aliases: tuple[str, ...] = ()
    #: what it is, for messages ("weapon", "skill")
    kind: str = ""
    #: the folded name and aliases (computed once)
    key: str = field(default="", compare=False)
    alias_keys: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", fold(self.name))
        object.__setattr__(self, "alias_keys", tuple(fold(a) for a in self.aliases))


class MatchTier(StrEnum):
    """How a name matched."""

    EXACT = "exact"
    ALIAS = "alias"
    PREFIX = "prefix"
    TYPO = "typo"


@dataclass(frozen=True, slots=True)
class NameMatch:
    """The outcome of resolving one written name."""

    query: str
    found: Named | None = None
    tier: MatchTier | None = None
    #: ambiguous: the things it could mean; unknown: the nearest names
    candidates: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Exactly one thing matched."""
        return self.found is not None

    @property
    def ambiguous(self) -> bool:
        """Several things matched in the deciding tier."""
        return self.found is None and self.tier is not None

    @property
    def name(self) -> str:
        """The canonical name (the query itself when nothing matched)."""
        return self.found.name if self.found is not None else self.query


def one_typo(a: str, b: str) -> bool:
    """Whether `a` and `b` differ by exactly one edit: a letter added, removed, changed, or two
    neighbours swapped (optimal string alignment distance 1; posting.md "one typo away")."""
    la, lb = len(a), len(b)
    if a == b or abs(la - lb) > 1:
        return False
    i = 0
    while i < la and i < lb and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1:] == b[i + 1:]:
            return True  # one letter changed
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:]
    if la > lb:
        return a[i + 1:] == b[i:]
    return a[i:] == b[i + 1:]


def _distinct(things: Iterable[Named]) -> list[Named]:
    seen: dict[str, Named] = {}
    for thing in things:
        seen.setdefault(thing.key, thing)
    return list(seen.values())


class Names(tuple[Named, ...]):
    """A fixed collection of names that remembers how written names resolved against it (a
    scene's names are looked up again and again, post after post)."""

    memo: dict[str, NameMatch]

    def __new__(cls, items: Iterable[Named] = ()) -> Names:
        made = super().__new__(cls, tuple(items))
        made.memo = {}
        return made


_MEMO_LIMIT = 1024


def resolve(query: str, things: Sequence[Named]) -> NameMatch:
    """Resolve a written name against `things` by the tiers of this module (posting.md)."""
    if not isinstance(things, Names):
        return _resolve(query, things)
    key = fold(query)
    found = things.memo.get(key)
    if found is None:
        if len(things.memo) >= _MEMO_LIMIT:
            things.memo.clear()
        found = things.memo[key] = _resolve(query, things)
    return found if found.query == query else replace(found, query=query)


def _resolve(query: str, things: Sequence[Named]) -> NameMatch:
    key = fold(query)
    if not key or len(key) > 200:
        return NameMatch(query, candidates=suggest(key, things))
    decided = _decide(query, MatchTier.EXACT, [t for t in things if t.key == key])
    if decided is None:
        decided = _decide(query, MatchTier.ALIAS, [t for t in things if key in t.alias_keys])
    if decided is None:
        decided = _decide(query, MatchTier.PREFIX, [
            t for t in things
            if t.key.startswith(key) or any(a.startswith(key) for a in t.alias_keys)
        ])
    if decided is None:
        decided = _decide(query, MatchTier.TYPO, [
            t for t in things
            if one_typo(key, t.key) or any(one_typo(key, a) for a in t.alias_keys)
        ])
    return decided if decided is not None else NameMatch(query, candidates=suggest(key, things))


def _decide(query: str, tier: MatchTier, hits: list[Named]) -> NameMatch | None:
    distinct = _distinct(hits)
    if not distinct:
        return None
    if len(distinct) == 1:
        return NameMatch(query, distinct[0], tier)
    names = sorted((t.name for t in distinct), key=fold)
    return NameMatch(query, None, tier, tuple(names))


def suggest(key: str, things: Sequence[Named], limit: int = 3) -> tuple[str, ...]:
    """The nearest names to `key` (`spelling.nearest`), always some: a player who wrote a name
    that is nowhere needs the names there are."""
    return nearest(key, [thing.name for thing in things], limit, always=True)
