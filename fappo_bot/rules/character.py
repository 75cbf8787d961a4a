"""Character state as the rules see it (RULINGS F1, F3, F11, F17, F18).

A `Character` is an immutable value: the state of one character (or one nuisance or minion group)
at the start of a turn. Resolution returns new values; nothing here knows about storage.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Annotated, Any

from annotated_types import Ge

from fappo_bot.rules.data import (
    THROWING,
    THROWN_FORMS,
    TIERS,
    TRAIT_BY_VALUE,
    AnyTrait,
    ArmorType,
    CustomTrait,
    RangeClass,
    Special,
    Tier,
    TrackKind,
    Trait,
    WeaponDef,
    weapon_by_name,
)

FLOATING = "floating"
"""The key of the floating SP pool in every SP map (`{"Nimble": 1, "floating": 1}`)."""

#: the health track of each tier (F11): Lieutenants and Masters have their own, the rest standard
_TRACK_OF_TIER: dict[Tier, TrackKind] = {
    tier: {Tier.LIEUTENANT: TrackKind.LIEUTENANT, Tier.MASTER: TrackKind.MASTER}.get(
        tier, TrackKind.STANDARD
    )
    for tier in Tier
}


#: the tiers whose groups are fodder (F3 Amb-2: `TierDef.fodder`), asked thousands of times a turn
_FODDER_TIERS = frozenset(tier for tier, row in TIERS.items() if row.fodder)


@dataclass(frozen=True, slots=True, kw_only=True)
class Weapon:
    """A weapon a character carries: a table row (F19) plus legendary points and corrosion."""

    name: str
    damage: Annotated[int, Ge(0)]
    range_class: RangeClass = RangeClass.MELEE
    ranged: bool = False
    specials: tuple[Special, ...] = ()
    extra_damage: Annotated[int, Ge(0)] = 0
    skill: str | None = None
    reach: int = 0
    radius: int = 0
    area: bool = False
    #: legendary accuracy points (F22): added to attack totals made with this weapon
    accuracy: int = 0
    ammo_cost: int = 0
    uncanny_only_specials: bool = False
    self_hit_on_abject: bool = False
    steadied_range: RangeClass | None = None
    steadied_extra_damage: int | None = None
    single_use: bool = False
    #: legendary or magical: immune to Corrosion (F18.5, F22)
    magical: bool = False
    #: Corrosion steps taken (F18.5): each lowers the damage by one, to a minimum of 0
    corroded: int = 0
    #: a scope (F16 Amb-5): the penalty is the better of the class penalty and d // 6
    scope: bool = False
    #: the weapon's own Poison or Disease profile (F18.6 Amb-1: "the weapon data gives one"),
    #: as an attack's `profile`; None: the GM gives it in the review
    profile: dict[str, Any] | None = None

    @classmethod
    def from_table(cls, row: WeaponDef) -> Weapon:
        """A carried copy of a table weapon (`dataclasses.replace` to change a field)."""
        return cls(
            name=row.name,
            damage=row.damage,
            range_class=row.range_class,
            ranged=row.ranged,
            specials=row.specials,
            extra_damage=row.extra_damage,
            skill=row.skill,
            reach=row.reach,
            radius=row.radius,
            area=row.area,
            accuracy=row.accuracy,
            ammo_cost=row.ammo_cost,
            uncanny_only_specials=row.uncanny_only_specials,
            self_hit_on_abject=row.self_hit_on_abject,
            steadied_range=row.steadied_range,
            steadied_extra_damage=row.steadied_extra_damage,
            single_use=row.single_use,
            magical=row.legendary,
        )

    def used_with(self, skill: str | None) -> Weapon:
        """The weapon as an attack with `skill` uses it: a Spear attacked with Throwing is thrown
        at Short range (F19 amendment), keeping its own damage, Specials and upgrades."""
        form = THROWN_FORMS.get(self.name.casefold())
        if form is None or skill is None or skill.casefold() != THROWING.casefold():
            return self
        row = weapon_by_name(form)
        assert row is not None
        return replace(self, range_class=row.range_class, ranged=row.ranged, skill=row.skill)

    @classmethod
    def named(cls, name: str) -> Weapon | None:
        """The table weapon called `name`, or None."""
        row = weapon_by_name(name)
        return cls.from_table(row) if row else None

    @property
    def effective_damage(self) -> int:
        """D after corrosion (F12: D = base + legendary - corrosion steps, min 0)."""
        damage = self.damage - self.corroded
        return damage if damage > 0 else 0

    @property
    def melee(self) -> bool:
        """True for weapons that strike only within their reach."""
        return self.range_class is RangeClass.MELEE


class StatusKind(str, Enum):
    """Statuses a character can carry from one turn to the next (F18, F15)."""

    PRONE = "prone"
    UNCONSCIOUS = "unconscious"
    DISARMED = "disarmed"
    BURNING = "burning"
    BLEEDING = "bleeding"
    IMPALED = "impaled"
    BARBED = "barbed"
    TRANSFIXED = "transfixed"
    FROZEN = "frozen"
    STABILIZED = "stabilized"
    POISONED = "poisoned"
    DISEASED = "diseased"
    DISMEMBERED = "dismembered"
    VAPORIZED = "vaporized"
    CORRODED = "corroded"
    ALERTED = "alerted"
    #: a multi-turn cast under way: `item` the spell, `elapsed` the turns done (F24 Amb-5)
    CONCENTRATING = "concentrating"


@dataclass(slots=True)
class Status:
    """One status in force. Optional fields carry what the status needs to run its course.

    Common in a turn's changes, so not frozen (`results`): never changed once made."""

    kind: StatusKind
    #: the item concerned: the impaling weapon, the dropped weapon, the dismembered part
    item: str | None = None
    #: who caused it (for Grasp, a held Transfix, notifications)
    source: str | None = None
    #: turns left (Knockout duration in turns, poison ticks, nerve-poison duration)
    turns: int | None = None
    #: turns elapsed since it began (Freeze exposure, F18.15)
    elapsed: int = 0
    #: per-turn penalty to all actions (nerve poison) or AP loss
    penalty: int = 0
    ap_loss: int = 0
    #: heat involved (Freeze sheath difficulty 5), or held weapon (Transfix immobile)
    flag: bool = False
    #: the level index to restore when binding a Bleeding wound (F18.2)
    restore_to: int | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Spell:
    """A learned spell (F26): by its general difficulty without range, or by its effects."""

    name: str
    difficulty: int | None = None
    effects: dict[str, Any] | None = None
    special: Special | None = None


@dataclass(slots=True)
class Character:
    """One character, or one group of identical nuisances or minions, at the start of a turn.

    Copied with its changes by the thousand in a turn, so not frozen (`results`): never changed
    once made (`dataclasses.replace` makes the changed copy)."""

    name: str
    tier: Tier = Tier.PC
    #: creatures in a nuisance or minion group (F20, F21)
    count: Annotated[int, Ge(0)] = 1
    #: base AP; None means the tier's default (F3)
    base_ap: int | None = None
    #: SP left now in each owned Trait
    traits: dict[AnyTrait, int] = field(default_factory=dict)
    #: each owned Trait's maximum SP (restoring, F27); missing entries mean "as now"
    trait_max: dict[AnyTrait, int] = field(default_factory=dict)
    floating: int = 0
    floating_max: int | None = None
    #: skill ratings by canonical skill name
    skills: dict[str, int] = field(default_factory=dict)
    weapons: tuple[Weapon, ...] = ()
    wielding: str | None = None
    armor: ArmorType = ArmorType.NONE
    armor_bonus: int = 0
    armor_magical: bool = False
    shield: ArmorType = ArmorType.NONE
    shield_bonus: int = 0
    #: index on the character's health track (F11); with pips, derived from `pips`
    health: int = 0
    #: pips filled (pips option, F11)
    pips: int = 0
    #: the track index and pips before the provisional hits of `TurnState.pending` that target this
    #: character; None when `health`/`pips` do not include those hits yet (case files). A resolution
    #: shows its new hits in `health` (provisional) and records here where it started from, so the
    #: next resolution finalises the hits from the right place (F7 step 2, F13).
    settled_health: int | None = None
    settled_pips: int | None = None
    #: a nuisance or minion group's count before the eliminations of `TurnState.pending`, which
    #: `count` already shows (only with `fodder_can_reduce`, F13 Amb-8); None as for the above
    settled_count: int | None = None
    position: int = 0
    statuses: tuple[Status, ...] = ()
    #: moved down the track in the previous resolution: loses 1 AP this turn (F10)
    shock: bool = False
    #: turns already spent at a final Dying, and full turns of attention received (F15)
    dying_turns: int = 0
    attended_turns: int = 0
    #: plaser battery (F19); None where untracked
    ammo: int | None = None
    #: sniper steadying (F19 Amb-6): full turns spent steadying on `steady_target`
    steadied_turns: int = 0
    steady_target: str | None = None
    spells: tuple[Spell, ...] = ()
    #: CC banked (F1 Amb-1, F28)
    unspent_cc: int = 0
    #: legendary items the character owns: item name -> CC spent on it (F22, at most 3 each)
    legendary: dict[str, int] = field(default_factory=dict)
    #: seconds spent at the current level without new damage, and whether this level episode had
    #: its one Healing check and whether it halved the time (F14)
    heal_elapsed: int = 0
    heal_checked: bool = False
    heal_halved: bool = False

    # ---- derived values -------------------------------------------------------------------
    @property
    def ap_base(self) -> int:
        """Base AP: the sheet's, else the tier's (F3)."""
        return self.base_ap if self.base_ap is not None else TIERS[self.tier].base_ap

    @property
    def track_kind(self) -> TrackKind:
        """Which health track the character uses (F11)."""
        return _TRACK_OF_TIER[self.tier]

    @property
    def is_fodder(self) -> bool:
        """Nuisances and minions: removed by elimination, not damage (F3 Amb-2)."""
        return self.tier in _FODDER_TIERS

    def owns(self, trait: Trait | CustomTrait | None) -> bool:
        """Whether the character owns `trait` (owning does not need SP left)."""
        return trait is not None and trait in self.traits

    def pool(self, key: str) -> int:
        """SP left in the pool named by its canonical key (a Trait value or `floating`)."""
        if key == FLOATING:
            return self.floating
        trait = TRAIT_BY_VALUE.get(key)
        if trait is None:
            return self.traits.get(CustomTrait(key), 0)
        return self.traits.get(trait, 0)

    def custom_pool(self, name: str) -> str | None:
        """The pool key of the game's own Trait called `name` that the character owns (its name
        as the GM wrote it), or None: a post's SP from a Trait the rulebook does not list."""
        key = name.strip().casefold()
        for trait in self.traits:
            if type(trait) is CustomTrait and trait.name.casefold() == key:
                return trait.name
        return None

    def has_status(self, kind: StatusKind) -> bool:
        """Whether a status of that kind is in force."""
        for status in self.statuses:  # a plain loop: called thousands of times a turn
            if status.kind is kind:
                return True
        return False

    def weapon(self, name: str | None = None) -> Weapon | None:
        """The carried weapon called `name` (case-insensitive), else the one in hand."""
        wanted = name if name is not None else self.wielding
        if wanted is None:
            return self.weapons[0] if self.weapons else None
        key = wanted.casefold()
        for weapon in self.weapons:
            if weapon.name.casefold() == key:
                return weapon
        return None

    def trait_maximum(self, trait: Trait | CustomTrait) -> int:
        """The Trait's maximum SP (for restoring)."""
        return self.trait_max.get(trait, self.traits.get(trait, 0))

    @property
    def floating_maximum(self) -> int:
        """The floating pool's maximum (for restoring)."""
        return self.floating_max if self.floating_max is not None else self.floating


def fist() -> Weapon:
    """Everyone's default weapon (F19: "Everyone's default weapon")."""
    weapon = Weapon.named("Fist")
    assert weapon is not None
    return weapon
