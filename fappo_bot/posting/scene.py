"""What a post may name, for one actor in one scene (spec/posting.md "Names match forgivingly").

Targets are the characters present; weapons are those the actor carries (and everyone's Fist,
F19); skills are the rulebook's and the actor's own; Traits answer to the seed's alternate names
(F2); spells are the actor's; hits are the provisional hits of the last resolution on the actor
(F13).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fappo_bot.posting.names import Named, fold
from fappo_bot.rules.character import FLOATING, Character, StatusKind
from fappo_bot.rules.data import (
    SKILLS,
    TRAIT_ALIASES,
    WEAPONS,
    ArmorType,
    Special,
    Trait,
    weapon_by_name,
)
from fappo_bot.rules.orders import PendingHit
from fappo_bot.rules.results import TurnState

TRAITS: tuple[Named, ...] = (
    *(Named(t.value, TRAIT_ALIASES[t], "Trait") for t in Trait),
    Named(FLOATING, ("float", "floating sp", "free"), "SP pool"),
)
SPECIALS: tuple[Named, ...] = tuple(Named(s.value, (), "Special") for s in Special)
TABLE_SKILLS: tuple[Named, ...] = tuple(Named(s.name, (), "skill") for s in SKILLS)
TABLE_WEAPONS: tuple[Named, ...] = tuple(Named(w.name, w.aliases, "weapon") for w in WEAPONS)
SHIELD = "shield"
_FIST = Named("Fist", ("Fists", "Unarmed", "fist"), "weapon")
_EMBEDDED = frozenset({StatusKind.IMPALED, StatusKind.BARBED, StatusKind.TRANSFIXED})


def _weapon_named(name: str) -> Named:
    row = weapon_by_name(name)
    aliases = row.aliases if row is not None and fold(row.name) == fold(name) else ()
    return Named(name, aliases, "weapon")


@dataclass(frozen=True, slots=True)
class Scene:
    """The names one actor's statements are resolved against."""

    state: TurnState
    actor: Character | None
    characters: tuple[Named, ...] = ()
    weapons: tuple[Named, ...] = ()
    skills: tuple[Named, ...] = ()
    spells: tuple[Named, ...] = ()
    hits: tuple[tuple[Named, PendingHit], ...] = ()
    embedded: tuple[Named, ...] = field(default=())

    @classmethod
    def build(cls, state: TurnState, actor: Character | None) -> Scene:
        """The scene as `actor` sees it."""
        characters = tuple(Named(c.name, (), "character") for c in state.characters)
        if actor is None:
            return cls(state, None, characters, skills=TABLE_SKILLS)
        weapons = [_weapon_named(w.name) for w in actor.weapons]
        if not any(fold(w.name) == "fist" for w in weapons):
            weapons.append(_FIST)
        if actor.shield is not ArmorType.NONE:
            weapons.append(Named(SHIELD, ("shield",), "shield"))
        custom = tuple(
            Named(name, (), "skill")
            for name in actor.skills
            if all(fold(name) != fold(s.name) for s in TABLE_SKILLS)
        )
        spells = tuple(Named(s.name, (), "spell") for s in actor.spells)
        hits = tuple(
            (
                Named(
                    h.id,
                    tuple(a for a in (h.attacker, h.weapon) if a),
                    "hit",
                ),
                h,
            )
            for h in state.pending
            if fold(h.target) == fold(actor.name)
        )
        embedded_names: dict[str, Named] = {}
        for status in actor.statuses:
            if status.kind in _EMBEDDED and status.item:
                embedded_names[fold(status.item)] = _weapon_named(status.item)
        for character in state.characters:
            for weapon in character.weapons:
                embedded_names.setdefault(fold(weapon.name), _weapon_named(weapon.name))
        for row in TABLE_WEAPONS:
            embedded_names.setdefault(fold(row.name), row)
        return cls(
            state,
            actor,
            characters,
            tuple(weapons),
            (*TABLE_SKILLS, *custom),
            spells,
            hits,
            tuple(embedded_names.values()),
        )

    def others(self) -> tuple[Named, ...]:
        """The characters present other than the actor."""
        if self.actor is None:
            return self.characters
        own = fold(self.actor.name)
        return tuple(c for c in self.characters if fold(c.name) != own)

    def skill_rating(self, skill: str) -> int:
        """The actor's points in `skill` (0 without it)."""
        if self.actor is None:
            return 0
        key = fold(skill)
        return next((v for k, v in self.actor.skills.items() if fold(k) == key), 0)
