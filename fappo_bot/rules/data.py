"""The rulebook's data tables, in one place (RULINGS F2, F3, F8, F11, F14, F19).

Everything here is data read from the seed text: Traits with their alternate names, skills with
their Suggested Trait and flags, the weapon table (with the derived Longsword, C-05), the health
tracks, heal times and the AP costs of common actions. Rules modules look things up here and
never repeat a number of the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema


class Trait(str, Enum):
    """The ten Traits of section II, by their default (fantasy) names."""

    BRAWNY = "Brawny"
    VIGILANT = "Vigilant"
    TIRELESS = "Tireless"
    NIMBLE = "Nimble"
    CLEVER = "Clever"
    SAGACIOUS = "Sagacious"
    ALLURING = "Alluring"
    HIGHBORN = "Highborn"
    FANTASTICAL = "Fantastical"
    UNCANNY = "Uncanny"


#: "Alternate names" of each Trait [F:L46-64]; display aliases of one canonical Trait (F2 Amb-4).
TRAIT_ALIASES: dict[Trait, tuple[str, ...]] = {
    Trait.BRAWNY: ("Strong", "Burly"),
    Trait.VIGILANT: ("Alert",),
    Trait.TIRELESS: ("Energetic",),
    Trait.NIMBLE: ("Agile",),
    Trait.CLEVER: ("Dexterous", "Adroit"),
    Trait.SAGACIOUS: ("Intelligent", "Smart"),
    Trait.ALLURING: ("Attractive", "Charismatic"),
    Trait.HIGHBORN: ("Aristocratic", "Worldly"),
    Trait.FANTASTICAL: ("Inhuman", "Alien"),
    Trait.UNCANNY: (),
}

#: The Trait whose default name is a canonical SP pool key (`names.pool_key`).
TRAIT_BY_VALUE: dict[str, Trait] = {trait.value: trait for trait in Trait}

#: Traits whose skills are forbidden to characters without them [F:L158].
RESTRICTING_TRAITS: frozenset[Trait] = frozenset({Trait.UNCANNY, Trait.FANTASTICAL})


class CustomTrait:
    """A Trait a game's GM introduced ("others may be introduced that follow the same general
    pattern" [F:L40]): known by its name alone, like a built-in Trait by its value.

    What else the GM said of it (alternate names, the skills it suggests) is the game's trait
    catalogue (`rules/traits.py`); a character owns the Trait by its name, so two values of the
    same name (compared case-insensitively) are the same Trait."""

    __slots__ = ("_key", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self._key = name.casefold()

    @property
    def value(self) -> str:
        """The Trait's name, as `Trait.value` is a built-in Trait's (its SP pool key)."""
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CustomTrait) and other._key == self._key

    def __hash__(self) -> int:
        return hash(("custom-trait", self._key))

    def __repr__(self) -> str:
        return f"CustomTrait({self.name!r})"


def trait_key(name: str) -> Trait | CustomTrait:
    """The Trait a stored pool key names: a built-in Trait by its default name, else the game's
    own Trait of that name (a game's Trait never shares a built-in name, `rules/traits.py`)."""
    return TRAIT_BY_VALUE.get(name) or CustomTrait(name)


def _trait_text(trait: Trait | CustomTrait) -> str:
    return trait.value


class _AnyTraitSchema:
    """How pydantic reads and writes a Trait a character owns: the enum's own (compiled)
    schema first, then a game's own Trait from its name (or as the value it already is),
    written as its name. Read with every character from storage, so no Python call for the
    rulebook's Traits."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler
                                     ) -> core_schema.CoreSchema:
        named = core_schema.no_info_after_validator_function(
            CustomTrait, core_schema.str_schema(min_length=1, strip_whitespace=True))
        return core_schema.union_schema(
            [handler.generate_schema(Trait), core_schema.is_instance_schema(CustomTrait), named],
            mode="left_to_right",
            serialization=core_schema.plain_serializer_function_ser_schema(
                _trait_text, return_schema=core_schema.str_schema()))


#: A Trait as characters own it: built-in or the game's own, read and written as its name.
AnyTrait = Annotated[Trait | CustomTrait, _AnyTraitSchema]


def trait_by_name(name: str) -> Trait | None:
    """The Trait called `name` (case-insensitive, alternate names accepted), or None."""
    key = name.strip().casefold()
    for trait in Trait:
        if trait.value.casefold() == key:
            return trait
        if any(alias.casefold() == key for alias in TRAIT_ALIASES[trait]):
            return trait
    return None


@dataclass(frozen=True)
class SkillDef:
    """A skill of section V: its Suggested Trait and the flags the rules need (F2, F8 Amb-3)."""

    name: str
    #: a rulebook Trait, or for a skill a game's own Trait suggests, that Trait
    suggested: Trait | CustomTrait | None
    attack: bool = False
    concentration: bool = False

    @property
    def restricted_by(self) -> Trait | None:
        """The Trait a character must own to buy or use this skill [F:L158]."""
        suggested = self.suggested
        return suggested if type(suggested) is Trait and suggested in RESTRICTING_TRAITS else None


_T = Trait
SKILLS: tuple[SkillDef, ...] = (
    SkillDef("Swordfighting", _T.NIMBLE, attack=True),
    SkillDef("Knife Fighting", _T.CLEVER, attack=True),
    SkillDef("Firearms", _T.CLEVER, attack=True),
    SkillDef("Artillery", _T.VIGILANT, attack=True),
    SkillDef("Fisticuffs", _T.BRAWNY, attack=True),
    SkillDef("Wrestling", _T.TIRELESS, attack=True),
    SkillDef("Concentration", _T.TIRELESS),
    SkillDef("Lifting", _T.BRAWNY),
    SkillDef("Tracking", _T.VIGILANT, concentration=True),
    SkillDef("Searching", _T.VIGILANT),
    SkillDef("Climbing", _T.TIRELESS),
    SkillDef("Stealth", _T.NIMBLE),
    SkillDef("Acrobatics", _T.NIMBLE),
    SkillDef("Riding", _T.HIGHBORN),
    SkillDef("Archery", _T.HIGHBORN, attack=True),
    SkillDef("Throwing", _T.CLEVER, attack=True),
    SkillDef("Pickpocket", _T.CLEVER, concentration=True),
    SkillDef("Ship Piloting", _T.SAGACIOUS, concentration=True),
    SkillDef("Healing", _T.SAGACIOUS, concentration=True),
    SkillDef("Mechanics", _T.SAGACIOUS, concentration=True),
    SkillDef("Persuasion", _T.ALLURING),
    SkillDef("Oratory", _T.ALLURING),
    SkillDef("Spellcasting", _T.UNCANNY),
    SkillDef("Magical Weaponry", _T.UNCANNY, attack=True),
    SkillDef("Racial Abilities", _T.FANTASTICAL),
    SkillDef("Whip", _T.CLEVER, attack=True),
)
SKILLS_BY_KEY: dict[str, SkillDef] = {s.name.casefold(): s for s in SKILLS}


class RangeClass(str, Enum):
    """Weapon range classes of section X, plus melee, the whip's reach and Ultra (C-15)."""

    MELEE = "melee"
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    EXTREME = "extreme"
    ULTRA = "ultra"


class Special(str, Enum):
    """The sixteen Specials of section XIII (C-04)."""

    EXTRA_DAMAGE = "Extra Damage"
    BLEEDING = "Bleeding"
    KNOCKOUT = "Knockout"
    FIRE = "Fire"
    CORROSION = "Corrosion"
    POISON = "Poison"
    DISEASE = "Disease"
    DISMEMBERMENT = "Dismemberment"
    KNOCKDOWN = "Knockdown"
    DISARM = "Disarm"
    GRASP = "Grasp"
    IMPALE = "Impale"
    BARBED = "Barbed"
    TRANSFIX = "Transfix"
    FREEZE = "Freeze"
    VAPORIZE = "Vaporize"


def special_by_name(name: str) -> Special | None:
    """The Special called `name` (case-insensitive), or None."""
    return _SPECIALS_BY_KEY.get(name.strip().casefold())


_SPECIALS_BY_KEY = {special.value.casefold(): special for special in Special}


@dataclass(frozen=True)
class WeaponDef:
    """One row of the weapon table (F19). `damage` is D, `extra_damage` the ED value.

    `specials` never lists Extra Damage: ED is carried by `extra_damage` and is always invoked on a
    Great Success (F18.1); `specials` are the ones a Great Success may add (one of them, F12 Amb-1).
    """

    name: str
    damage: int
    range_class: RangeClass = RangeClass.MELEE
    ranged: bool = False
    specials: tuple[Special, ...] = ()
    extra_damage: int = 0
    #: None where the table says "GM" (F19 Amb-1): the attacker's best attack skill is used
    skill: str | None = None
    reach: int = 0
    radius: int = 0
    accuracy: int = 0
    aliases: tuple[str, ...] = field(default=())
    area: bool = False
    #: plaser setting (ammo cost per shot, F19 Amb-4), 0 when the weapon uses no battery
    ammo_cost: int = 0
    #: lightsword: Specials and deflection only for Uncanny wielders (F19 Amb-2)
    uncanny_only_specials: bool = False
    self_hit_on_abject: bool = False
    #: sniper rifle: range class and ED once steadied for 2 full turns (F16 Amb-4, F19 Amb-6)
    steadied_range: RangeClass | None = None
    steadied_extra_damage: int | None = None
    single_use: bool = False
    legendary: bool = False


_S = Special
_R = RangeClass
WEAPONS: tuple[WeaponDef, ...] = (
    WeaponDef("Lightsword", 3, specials=(_S.DISMEMBERMENT,), extra_damage=2, skill="Swordfighting",
              uncanny_only_specials=True, self_hit_on_abject=True),
    WeaponDef("Whip", 1, specials=(_S.GRASP, _S.KNOCKDOWN), skill="Whip", reach=1),
    WeaponDef("Club", 2, specials=(_S.KNOCKDOWN,), extra_damage=1, skill="Fisticuffs"),
    WeaponDef("Fist", 1, specials=(_S.KNOCKOUT,), skill="Fisticuffs", aliases=("Fists", "Unarmed")),
    WeaponDef("Plaser", 2, _R.MEDIUM, True, (_S.KNOCKOUT,), skill="Firearms", ammo_cost=1,
              aliases=("Plaser 1", "Plaser, setting 1", "Plaser setting 1")),
    WeaponDef("Plaser 2", 1, _R.MEDIUM, True, (_S.KNOCKOUT,), skill="Firearms", ammo_cost=2,
              radius=2, area=True, aliases=("Plaser, setting 2", "Plaser setting 2")),
    WeaponDef("Plaser 3", 3, _R.MEDIUM, True, (), 2, skill="Firearms", ammo_cost=3,
              aliases=("Plaser, setting 3", "Plaser setting 3")),
    WeaponDef("Plaser 4", 4, _R.MEDIUM, True, (_S.VAPORIZE,), skill="Firearms", ammo_cost=4,
              aliases=("Plaser, setting 4", "Plaser setting 4")),
    WeaponDef("Short sword", 2, extra_damage=1, skill="Swordfighting", aliases=("Shortsword",)),
    WeaponDef("Dagger", 1, specials=(_S.BLEEDING,), extra_damage=1, skill="Knife Fighting"),
    WeaponDef("Broadsword", 3, specials=(_S.BLEEDING,), extra_damage=1, skill="Swordfighting"),
    WeaponDef("Longsword", 3, specials=(_S.BLEEDING,), skill="Swordfighting"),
    WeaponDef("Main Gauche", 2, specials=(_S.DISARM,), skill="Knife Fighting",
              aliases=("Sai", "Main Gauche or Sai")),
    WeaponDef("Battle Axe", 3, extra_damage=2, aliases=("Battleaxe", "Axe")),
    WeaponDef("Spear", 2, specials=(_S.IMPALE,), extra_damage=2),
    WeaponDef("Thrown Spear", 2, _R.SHORT, True, (_S.IMPALE,), 2, skill="Throwing",
              aliases=("Spear (thrown)",)),
    WeaponDef("Polearm", 2, specials=(_S.TRANSFIX,), extra_damage=2),
    WeaponDef("Sap", 1, specials=(_S.KNOCKOUT,), skill="Fisticuffs"),
    WeaponDef("Mace", 2, specials=(_S.KNOCKDOWN,), extra_damage=1, skill="Fisticuffs"),
    WeaponDef("Torch", 1, specials=(_S.FIRE,)),
    WeaponDef("Horse Bow", 2, _R.MEDIUM, True, (_S.BARBED,), skill="Archery", aliases=("Horsebow",)),
    WeaponDef("Long Bow", 3, _R.EXTREME, True, (_S.BARBED,), skill="Archery", aliases=("Longbow",)),
    WeaponDef("Crossbow", 2, _R.LONG, True, (_S.IMPALE,), 1, skill="Archery"),
    WeaponDef("Pistol", 2, _R.MEDIUM, True, (_S.BLEEDING,), 1, skill="Firearms"),
    WeaponDef("Pistol, Action Adventure", 1, _R.MEDIUM, True, (_S.KNOCKOUT,), 2, skill="Firearms",
              aliases=("Action Adventure Pistol",)),
    WeaponDef("Pistol, Crime Drama", 3, _R.SHORT, True, (), 2, skill="Firearms",
              aliases=("Crime Drama Pistol",)),
    WeaponDef("Pistol, Cowboy", 2, _R.MEDIUM, True, (_S.BLEEDING, _S.DISARM), 1, skill="Firearms",
              aliases=("Cowboy Pistol",)),
    WeaponDef("Rifle", 3, _R.EXTREME, True, (_S.BLEEDING,), 1, skill="Firearms"),
    WeaponDef("Rifle, Sniper", 3, _R.EXTREME, True, (_S.BLEEDING,), 1, skill="Firearms",
              aliases=("Sniper Rifle", "Sniper"), steadied_range=_R.ULTRA, steadied_extra_damage=4),
    WeaponDef("Shotgun", 2, _R.SHORT, True, (_S.KNOCKDOWN, _S.BLEEDING), 2, skill="Firearms"),
    WeaponDef("Grenade", 4, _R.SHORT, True, (_S.KNOCKDOWN, _S.BLEEDING), 2, skill="Throwing",
              radius=2, area=True, single_use=True),
    WeaponDef("Stun Grenade", 1, _R.SHORT, True, (_S.KNOCKOUT,), skill="Throwing", radius=2,
              area=True, single_use=True),
)


#: weapons that may also be thrown, and the row they fly as (F19 amendment: "a Spear may be
#: thrown at Short range with Throwing")
THROWN_FORMS: dict[str, str] = {"spear": "Thrown Spear"}
THROWING = "Throwing"


def weapon_by_name(name: str) -> WeaponDef | None:
    """The table weapon called `name` (case-insensitive, aliases accepted), or None."""
    key = name.strip().casefold()
    for weapon in WEAPONS:
        if weapon.name.casefold() == key or any(a.casefold() == key for a in weapon.aliases):
            return weapon
    return None


class ArmorType(int, Enum):
    """Armor and shield ratings of section XII: Light (1), Medium (2), Heavy (3)."""

    NONE = 0
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3


def armor_by_name(name: str) -> ArmorType | None:
    """`none|light|medium|heavy` (case-insensitive) as an ArmorType, or None."""
    key = name.strip().casefold()
    for armor in ArmorType:
        if armor.name.casefold() == key:
            return armor
    return None


#: Shield projectile caps [F:L241]: Light useless, Medium one ranged attack, Heavy unrestricted.
SHIELD_RANGED_CAP: dict[ArmorType, int | None] = {
    ArmorType.NONE: 0,
    ArmorType.LIGHT: 0,
    ArmorType.MEDIUM: 1,
    ArmorType.HEAVY: None,
}

#: Skills whose Suggested Trait makes Heavy armor cost them 1 [F:L235].
HEAVY_ARMOR_PENALIZED: frozenset[Trait] = frozenset({Trait.NIMBLE, Trait.CLEVER})


class Tier(str, Enum):
    """Character tiers (F3)."""

    PC = "pc"
    NUISANCE = "nuisance"
    MINION = "minion"
    LIEUTENANT = "lieutenant"
    VETERAN = "veteran"
    MASTER = "master"


@dataclass(frozen=True)
class TierDef:
    """One row of the F3 tier table. `None` in a cap means unlimited."""

    tier: Tier
    base_ap: int
    budget_low: int
    budget_high: int | None
    sp_cap: int | None
    skill_cap: int
    floating_cap: int = 5
    buys_ap: bool = False
    fodder: bool = False


TIERS: dict[Tier, TierDef] = {
    Tier.PC: TierDef(Tier.PC, 3, 30, 30, 5, 5, buys_ap=True),
    Tier.NUISANCE: TierDef(Tier.NUISANCE, 1, 3, 6, 5, 5, fodder=True),
    Tier.MINION: TierDef(Tier.MINION, 2, 10, 20, 5, 5, fodder=True),
    Tier.LIEUTENANT: TierDef(Tier.LIEUTENANT, 3, 25, 35, 5, 5),
    Tier.VETERAN: TierDef(Tier.VETERAN, 4, 40, 50, 7, 6),
    Tier.MASTER: TierDef(Tier.MASTER, 6, 60, None, None, 8, buys_ap=True),
}


@dataclass(frozen=True)
class HealthLevelDef:
    """A named health level: its AP penalty (F10) and heal time and difficulty (F14)."""

    name: str
    ap_penalty: int = 0
    heal_seconds: int | None = None
    heal_difficulty: int | None = None
    unconscious: bool = False
    dead: bool = False


TURN_SECONDS = 10
#: a plaser's full battery, in "ammo" points (F19: "A plaser has a battery with 'ammo' 10")
PLASER_BATTERY = 10
_MIN = 60
_HOUR = 3600
_DAY = 24 * _HOUR
LEVELS: dict[str, HealthLevelDef] = {
    "Healthy": HealthLevelDef("Healthy"),
    "Unaffected": HealthLevelDef("Unaffected", heal_seconds=TURN_SECONDS),
    "Staggered": HealthLevelDef("Staggered", heal_seconds=TURN_SECONDS),
    "Battered": HealthLevelDef("Battered", heal_seconds=10 * _MIN, heal_difficulty=3),
    "Wounded": HealthLevelDef("Wounded", 1, 24 * _HOUR, 4),
    "Incapacitated": HealthLevelDef("Incapacitated", 2, 14 * _DAY, 6),
    "Dying": HealthLevelDef("Dying", 0, 30 * _DAY, 8, unconscious=True),
    "Dead": HealthLevelDef("Dead", dead=True),
}


class TrackKind(str, Enum):
    """The health tracks of F11."""

    STANDARD = "standard"
    LIEUTENANT = "lieutenant"
    MASTER = "master"


TRACKS: dict[TrackKind, tuple[str, ...]] = {
    TrackKind.STANDARD: (
        "Healthy", "Staggered", "Battered", "Wounded", "Incapacitated", "Dying", "Dead",
    ),
    TrackKind.LIEUTENANT: ("Healthy", "Wounded", "Incapacitated", "Dead"),
    TrackKind.MASTER: (
        "Healthy", "Unaffected", "Staggered", "Battered", "Battered", "Wounded", "Wounded",
        "Wounded", "Incapacitated", "Dying", "Dead",
    ),
}

#: Pips option (F11 Amb-1): the first pip count of each standard level; Dead at 16.
PIP_THRESHOLDS: tuple[int, ...] = (0, 1, 2, 4, 7, 11, 16)


#: AP costs of common actions [F:L78-82] and of Special-derived actions (F8 table).
AP_COSTS: dict[str, int] = {
    "ready": 1,
    "stow": 1,
    "drop": 0,
    "switch": 2,
    "pickup": 1,
    "stand": 2,
    "remove_impale": 1,
    "remove_barbed": 2,
    "ripout": 1,
    "remove_transfix": 3,
}
