"""A game's own Traits (F2: "others may be introduced that follow the same general pattern"
[F:L40]) and the catalogue of every Trait a game's sheets and posts may name.

A game's Trait is a `CustomTrait` (its name) with the alternate names and the skills it suggests
the GM gave it (`TraitDef`). The ten Traits of the rulebook stay the `Trait` enum and come first
in every catalogue; a catalogue without the game's own Traits (`BUILT_IN`) is the rulebook's,
which is what case files use. The skills a game's Trait suggests are skills the rulebook does not
list (a rulebook skill keeps the Suggested Trait the seed gives it, F2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any

from pydantic import PlainSerializer, PlainValidator

from fappo_bot.rules.data import (
    SKILLS_BY_KEY,
    TRAIT_ALIASES,
    CustomTrait,
    SkillDef,
    Trait,
    trait_by_name,
)

MAX_CUSTOM_TRAITS = 20
"""A game's own Traits, at most (a sheet lists its Traits on one screen)."""
MAX_TRAIT_NAME = 24
"""Characters of a Trait's name or alternate name, at most."""
MAX_TRAIT_ALIASES = 4
MAX_TRAIT_SKILLS = 8

#: one word, as a post's `1 SP NAME` reads a Trait: letters, then letters, digits, `'` or `-`
_NAME = re.compile(r"[^\W\d_][\w'-]*")
#: words a Trait may not be called: the floating pool's names and the post language's SP words
_RESERVED = frozenset({"floating", "float", "free", "sp", "sps", "from", "of", "any", "all"})


def _custom(value: Any) -> CustomTrait:
    if isinstance(value, CustomTrait):
        return value
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a Trait is named by a non-empty text")
    return CustomTrait(value)


def _name(trait: CustomTrait) -> str:
    return trait.name


@dataclass(frozen=True, slots=True)
class TraitDef:
    """One of a game's own Traits: its name, alternate names and the skills it suggests."""

    trait: Annotated[CustomTrait, PlainValidator(_custom),
                     PlainSerializer(_name, return_type=str)]
    aliases: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The Trait's name."""
        return self.trait.name


@dataclass(frozen=True, slots=True)
class TraitCatalogue:
    """Every Trait of a game: the rulebook's ten, then the game's own."""

    custom: tuple[TraitDef, ...] = ()

    def find(self, name: str) -> Trait | CustomTrait | None:
        """The Trait called `name` (case-insensitive, alternate names accepted), or None."""
        builtin = trait_by_name(name)
        if builtin is not None:
            return builtin
        key = name.strip().casefold()
        for entry in self.custom:
            if entry.trait.name.casefold() == key or any(a.casefold() == key
                                                         for a in entry.aliases):
                return entry.trait
        return None

    def names(self) -> tuple[str, ...]:
        """Every Trait's name, the rulebook's first."""
        return (*(t.value for t in Trait), *(e.name for e in self.custom))

    def entries(self) -> Iterator[tuple[str, tuple[str, ...]]]:
        """Each Trait's name with its alternate names (for name matching in posts)."""
        for trait in Trait:
            yield trait.value, TRAIT_ALIASES[trait]
        for entry in self.custom:
            yield entry.name, entry.aliases

    def skill_defs(self) -> tuple[SkillDef, ...]:
        """The skills the game's own Traits suggest, each with its Suggested Trait."""
        return tuple(SkillDef(skill, entry.trait) for entry in self.custom
                     for skill in entry.skills)

    def suggested(self, skill: str | None) -> Trait | CustomTrait | None:
        """A skill's Suggested Trait (F2): the rulebook's for its skills, else the game's own
        Trait that suggests it, else None."""
        if not skill:
            return None
        row = _rulebook_skill(skill)
        if row is not None or not self.custom:
            return row.suggested if row is not None else None
        key = " ".join(skill.split()).casefold()
        for entry in self.custom:
            if any(s.casefold() == key for s in entry.skills):
                return entry.trait
        return None

    def get(self, name: str) -> TraitDef | None:
        """The game's own Trait called `name` (exactly, case-insensitive), or None."""
        key = name.strip().casefold()
        return next((e for e in self.custom if e.name.casefold() == key), None)


@lru_cache(maxsize=4096)
def _rulebook_skill(skill: str) -> SkillDef | None:
    """The rulebook's skill written `skill` (asked per attack: remembered)."""
    return SKILLS_BY_KEY.get(" ".join(skill.split()).casefold())


BUILT_IN = TraitCatalogue()
"""The rulebook's ten Traits and nothing else."""


class TraitRefused(ValueError):
    """A Trait the GM may not add, with the sentence that says why."""


def new_trait(catalogue: TraitCatalogue, name: str, aliases: Iterable[str] = (),
              skills: Iterable[str] = ()) -> TraitDef:
    """The game's new Trait, checked against the catalogue; `TraitRefused` names what is wrong:
    a name that is no one word or too long, a name or alternate name that a Trait of the
    catalogue (the rulebook's or the game's, or their alternate names) already answers to, a
    rulebook skill (its Suggested Trait is the seed's), more Traits than the limit."""
    name = name.strip()
    _check_word(name, "A Trait's name")
    alias_list = _unique(a.strip() for a in aliases if a.strip())
    for word in (name, *alias_list):
        _check_word(word, "An alternate name" if word is not name else "A Trait's name")
        owner = catalogue.find(word)
        if owner is not None:
            same = owner.value.casefold() == word.casefold()
            raise TraitRefused(f'"{word}" is already ' + (
                f"the Trait {owner.value}." if same else f"a name of the Trait {owner.value}."))
    if name.casefold() in {a.casefold() for a in alias_list}:
        raise TraitRefused(f'"{name}" is the Trait\'s own name; an alternate name is another '
                           "word.")
    if len(alias_list) > MAX_TRAIT_ALIASES:
        raise TraitRefused(f"A Trait has at most {MAX_TRAIT_ALIASES} alternate names, not "
                           f"{len(alias_list)}.")
    skill_list = _unique(" ".join(s.split()) for s in skills if s.strip())
    if len(skill_list) > MAX_TRAIT_SKILLS:
        raise TraitRefused(f"A Trait suggests at most {MAX_TRAIT_SKILLS} skills, not "
                           f"{len(skill_list)}.")
    for skill in skill_list:
        _check_skill(catalogue, skill)
    if len(catalogue.custom) >= MAX_CUSTOM_TRAITS:
        raise TraitRefused(f"A game has at most {MAX_CUSTOM_TRAITS} Traits of its own; remove "
                           "one first.")
    return TraitDef(CustomTrait(name), tuple(alias_list), tuple(skill_list))


def _check_word(word: str, what: str) -> None:
    if len(word) > MAX_TRAIT_NAME:
        raise TraitRefused(f'{what} has at most {MAX_TRAIT_NAME} characters; "{word[:40]}" has '
                           f"{len(word)}.")
    if not _NAME.fullmatch(word):
        raise TraitRefused(f'{what} is one word of letters (then letters, digits, \' or -), as a '
                           f'post writes it in "1 SP NAME"; "{word[:40]}" is not.')
    if word.casefold() in _RESERVED:
        raise TraitRefused(f'"{word}" is a word of the post language; choose another name.')


def _check_skill(catalogue: TraitCatalogue, skill: str) -> None:
    if len(skill) > 40:
        raise TraitRefused(f'A skill\'s name has at most 40 characters; "{skill[:40]}…" has '
                           f"{len(skill)}.")
    row = SKILLS_BY_KEY.get(skill.casefold())
    if row is not None:
        suggested = row.suggested.value if row.suggested is not None else "none"
        raise TraitRefused(f"{row.name} is a rulebook skill: its Suggested Trait is "
                           f"{suggested} (F2); a game's Trait suggests skills of its own.")
    for entry in catalogue.custom:
        if any(s.casefold() == skill.casefold() for s in entry.skills):
            raise TraitRefused(f"{skill} is already suggested by {entry.name}; a skill has one "
                               "Suggested Trait.")


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        seen.setdefault(item.casefold(), item)
    return list(seen.values())
