"""What a post may name, for one actor in one scene (spec/posting.md "Names match forgivingly").

Targets are the characters present; weapons are those the actor carries (and everyone's Fist,
F19); skills are the rulebook's and the actor's own; Traits answer to the seed's alternate names
(F2); spells are the actor's; hits are the provisional hits of the last resolution on the actor
(F13).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fappo_bot.posting.names import Named, Names
from fappo_bot.rules import (
    FLOATING,
    SKILLS,
    TRAIT_ALIASES,
    WEAPONS,
    ArmorType,
    Character,
    PendingHit,
    Special,
    StatusKind,
    Trait,
    TraitCatalogue,
    TurnState,
    fold,
)

_FLOATING_POOL = Named(FLOATING, ("float", "floating sp", "free"), "SP pool")
TRAITS = Names((
    *(Named(t.value, TRAIT_ALIASES[t], "Trait") for t in Trait),
    _FLOATING_POOL,
))
"""The SP pools a post may name in a game with the rulebook's Traits only."""


@lru_cache(maxsize=64)
def trait_names(catalogue: TraitCatalogue) -> Names:
    """The SP pools a post of a game may name: every Trait of its catalogue (its own answering
    to their alternate names as the rulebook's do), and the floating pool."""
    if not catalogue.custom:
        return TRAITS
    return Names((*TRAITS[:-1], *(Named(e.name, e.aliases, "Trait") for e in catalogue.custom),
                  _FLOATING_POOL))
SPECIALS = Names(Named(s.value, (), "Special") for s in Special)
TABLE_SKILLS = Names(Named(s.name, (), "skill") for s in SKILLS)
TABLE_WEAPONS = Names(Named(w.name, w.aliases, "weapon") for w in WEAPONS)
SHIELD = "shield"
_FIST = Named("Fist", ("Fists", "Unarmed", "fist"), "weapon")
_EMBEDDED = frozenset({StatusKind.IMPALED, StatusKind.BARBED, StatusKind.TRANSFIXED})


_TABLE_BY_KEY = {fold(w.name): w for w in WEAPONS}
_TABLE_SKILL_KEYS = frozenset(s.key for s in TABLE_SKILLS)


def _weapon_named(name: str) -> Named:
    """A weapon by its name, answering to the table's aliases when it is a table weapon."""
    row = _TABLE_BY_KEY.get(fold(name))
    return Named(name, row.aliases if row is not None else (), "weapon")


@dataclass(frozen=True, slots=True)
class Scene:
    """The names one actor's statements are resolved against."""

    state: TurnState
    actor: Character | None
    characters: Names = Names()
    weapons: Names = Names()
    skills: Names = TABLE_SKILLS
    spells: Names = Names()
    hits: tuple[tuple[Named, PendingHit], ...] = ()
    #: the characters other than the actor (Guard targets)
    opponents: Names = Names()
    #: what `with ...` may name in an attack: a weapon carried or a skill
    arms: Names = Names()
    #: the SP pools the game's posts may name (`trait_names`)
    traits: Names = TRAITS

    @classmethod
    def build(cls, state: TurnState, actor: Character | None, traits: Names = TRAITS) -> Scene:
        """The scene as `actor` sees it: targets present, weapons carried (F19: everyone's Fist),
        skills (F2), spells (F26), hits pending on it (F13), the game's Traits (F2)."""
        present = tuple(c.name for c in state.characters)
        if actor is None:
            characters = characters_named(present)
            return cls(state, None, characters, opponents=characters, traits=traits)
        names = _actor_names(
            present,
            actor.name,
            tuple(w.name for w in actor.weapons),
            actor.shield is not ArmorType.NONE,
            tuple(actor.skills),
            tuple(s.name for s in actor.spells),
        )
        own = fold(actor.name)
        hits = tuple((Named(h.id, hit_aliases(h), "hit"), h) for h in state.pending
                     if fold(h.target) == own)
        return cls(
            state,
            actor,
            names.characters,
            names.weapons,
            names.skills,
            names.spells,
            hits,
            names.opponents,
            names.arms,
            traits,
        )

    def loose_weapons(self) -> tuple[Named, ...]:
        """Weapons that may be stuck in the actor or lie about: the ones in its impale-type
        statuses, every weapon carried in the scene, and the weapon table (F18.12-14)."""
        found: dict[str, Named] = {}
        if self.actor is not None:
            for status in self.actor.statuses:
                if status.kind in _EMBEDDED and status.item:
                    found[fold(status.item)] = _weapon_named(status.item)
        for character in self.state.characters:
            for weapon in character.weapons:
                found.setdefault(fold(weapon.name), _weapon_named(weapon.name))
        for row in TABLE_WEAPONS:
            found.setdefault(row.key, row)
        return tuple(found.values())

    def others(self) -> Names:
        """The characters present other than the actor."""
        return self.opponents


def _owner(name: str) -> str:
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


def hit_name(hit: PendingHit) -> str:
    """`Skarg's Broadsword hit`: a pending hit as the results name it, and as a Reduce line may
    name it (`hit_aliases`); the id only for a hit with neither attacker nor weapon."""
    if hit.attacker:
        return f"{_owner(hit.attacker)} {hit.weapon} hit" if hit.weapon \
            else f"{_owner(hit.attacker)} hit"
    return f"the {hit.weapon} hit" if hit.weapon else f"hit {hit.id}"


def hit_aliases(hit: PendingHit) -> tuple[str, ...]:
    """What a Reduce line may name a hit by besides its id: its attacker, its weapon, and both
    as the results name it ("Skarg's Broadsword", "Skarg Broadsword")."""
    names = [a for a in (hit.attacker, hit.weapon) if a]
    if hit.attacker and hit.weapon:
        names += [f"{_owner(hit.attacker)} {hit.weapon}", f"{hit.attacker} {hit.weapon}"]
    return tuple(names)


# A scene's names depend only on the names of the characters present and of the actor's things,
# not on the state's objects: the service reads every post against a freshly loaded state, and
# keeping these collections lets the resolutions each `Names` remembers carry over from post to
# post.
_NAMES_CACHE = 512


@lru_cache(maxsize=_NAMES_CACHE)
def characters_named(present: tuple[str, ...]) -> Names:
    """Characters by their names (the ones present, as targets; the ones a poster controls)."""
    return Names(Named(name, (), "character") for name in present)


@dataclass(frozen=True, slots=True)
class _ActorNames:
    """What one actor may name, apart from its pending hits."""

    characters: Names
    weapons: Names
    skills: Names
    spells: Names
    opponents: Names
    arms: Names


@lru_cache(maxsize=_NAMES_CACHE)
def _actor_names(present: tuple[str, ...], actor: str, weapons: tuple[str, ...], shield: bool,
                 skills: tuple[str, ...], spells: tuple[str, ...]) -> _ActorNames:
    """The names of `Scene.build` for an actor called `actor` among `present`, carrying
    `weapons` (and a shield), with `skills` on its sheet and `spells` learnt."""
    characters = characters_named(present)
    carried = [_weapon_named(w) for w in weapons]
    if not any(w.key == "fist" for w in carried):
        carried.append(_FIST)
    if shield:
        carried.append(Named(SHIELD, ("shield",), "shield"))
    custom = [Named(name, (), "skill") for name in skills if fold(name) not in _TABLE_SKILL_KEYS]
    all_skills = Names((*TABLE_SKILLS, *custom))
    own = fold(actor)
    return _ActorNames(
        characters,
        Names(carried),
        all_skills,
        Names(Named(name, (), "spell") for name in spells),
        Names(c for c in characters if c.key != own),
        Names((*carried, *all_skills)),
    )
