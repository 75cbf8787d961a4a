"""Matching the names players write to the things of the game (spec/cases.md: names match
case-insensitively and accept the seed's alternate Trait names).

A name matches exactly (case-folded, spaces normalised) or, failing that, as the unique prefix of
one candidate ("Gob" for "Goblin"). Several prefix matches make the name ambiguous ("Goblin" when
only "Goblin 1" and "Goblin 2" exist).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from fappo_bot.rules.character import FLOATING, Character, Weapon, fist
from fappo_bot.rules.data import SKILLS_BY_KEY, trait_by_name, weapon_by_name
from fappo_bot.rules.orders import PendingHit
from fappo_bot.spelling import fold as fold  # the rules modules import it from here


class Match(NamedTuple):
    """The outcome of matching one name: the canonical name, or the candidates it could mean."""

    query: str
    name: str | None
    candidates: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Exactly one thing matched."""
        return self.name is not None

    @property
    def ambiguous(self) -> bool:
        """Several things matched."""
        return self.name is None and len(self.candidates) > 1


def match_name(query: str, names: Iterable[str]) -> Match:
    """Match `query` against `names`: exact first, else a unique prefix."""
    key = fold(query)
    pool = list(dict.fromkeys(names))
    for name in pool:
        if fold(name) == key:
            return Match(query, name)
    if not key:
        return Match(query, None)
    prefixed = sorted((n for n in pool if fold(n).startswith(key)), key=fold)
    if len(prefixed) == 1:
        return Match(query, prefixed[0])
    return Match(query, None, tuple(prefixed))


@lru_cache(maxsize=1024)
def pool_key(name: str) -> str | None:
    """The canonical SP pool key for a written pool name: a Trait's default name or `floating`."""
    if fold(name) in {FLOATING, "float", "floating sp"}:
        return FLOATING
    trait = trait_by_name(name)
    return trait.value if trait is not None else None


def skill_names(character: Character) -> list[str]:
    """Skills the character can name: the rulebook's and its own custom ones (F2 Amb-6)."""
    names = [s.name for s in SKILLS_BY_KEY.values()]
    names.extend(k for k in character.skills if fold(k) not in SKILLS_BY_KEY)
    return names


def match_skill(character: Character, query: str) -> Match:
    """Match a skill name for `character` (rulebook skills first, then its custom skills)."""
    known = SKILLS_BY_KEY.get(fold(query))
    if known is not None:
        return Match(query, known.name)
    return match_name(query, skill_names(character))


def carried_weapons(character: Character) -> tuple[Weapon, ...]:
    """The character's weapons, with the Fist everyone has (F19) when not listed."""
    if any(fold(w.name) == "fist" for w in character.weapons):
        return character.weapons
    return (*character.weapons, fist())


def match_weapon(character: Character, query: str) -> tuple[Match, Weapon | None]:
    """Match one of the character's weapons (the Fist included)."""
    key = fold(query)
    for weapon in character.weapons:
        name = weapon.name
        if fold(name) == key:
            return Match(query, name), weapon
    weapons = carried_weapons(character)
    aliases = {"fists": "Fist", "unarmed": "Fist"}
    wanted = aliases.get(key, query)
    found = match_name(wanted, [w.name for w in weapons])
    if not found.ok:
        setting = _plaser_setting(character, query)
        if setting is not None:
            return Match(query, setting.name), setting
        return Match(query, None, found.candidates), None
    weapon = next(w for w in weapons if w.name == found.name)
    return found, weapon


def _plaser_setting(character: Character, query: str) -> Weapon | None:
    """A plaser's other setting: chosen per shot, free (F19 Amb-4), if a plaser is carried."""
    row = weapon_by_name(query)
    if row is None or not row.ammo_cost:
        return None
    if not any(w.ammo_cost for w in character.weapons):
        return None
    return Weapon.from_table(row)


def attack_weapon(character: Character, weapon: str | None) -> tuple[Match | None, Weapon | None]:
    """The weapon an attack uses: the one named, else the one in hand, else the first, else the
    Fist (spec/cases.md: `wielding` defaults to the first weapon)."""
    name = weapon or character.wielding
    if name is not None:
        return match_weapon(character, name)
    weapons = character.weapons
    return None, weapons[0] if weapons else fist()


def skill_rating(character: Character, skill: str) -> int:
    """The character's points in a skill, 0 without it (F1 Amb-4)."""
    key = fold(skill)
    for name, value in character.skills.items():
        if fold(name) == key:
            return value
    return 0


class Roster:
    """The characters of a scene indexed by folded name, for O(log n) matching of names."""

    def __init__(self, characters: Iterable[Character], pending: Iterable[PendingHit] = ()
                 ) -> None:
        self._by_key: dict[str, Character] = {}
        for character in characters:
            self._by_key.setdefault(fold(character.name), character)
        self._keys = sorted(self._by_key)
        self._hits: dict[str, list[PendingHit]] = {}
        for hit in pending:
            self._hits.setdefault(fold(hit.target), []).append(hit)

    def hits(self, name: str) -> list[PendingHit]:
        """The pending hits on the character called `name` (F13)."""
        return self._hits.get(fold(name), [])

    def match(self, query: str) -> Match:
        """Exact (case-folded) first, else a unique prefix (as `match_name`)."""
        key = fold(query)
        exact = self._by_key.get(key)
        if exact is not None:
            return Match(query, exact.name)
        if not key:
            return Match(query, None)
        start = bisect_left(self._keys, key)
        found: list[str] = []
        for k in self._keys[start:]:
            if not k.startswith(key):
                break
            found.append(self._by_key[k].name)
        if len(found) == 1:
            return Match(query, found[0])
        return Match(query, None, tuple(found))

    def get(self, name: str | None) -> Character | None:
        """The character a written name means, or None."""
        if name is None:
            return None
        exact = self._by_key.get(fold(name))
        if exact is not None:
            return exact
        found = self.match(name)
        return self._by_key[fold(found.name)] if found.name is not None else None
