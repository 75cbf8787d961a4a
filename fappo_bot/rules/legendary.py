"""Legendary items and binding (RULINGS F22).

[F:L352] "Each point spent will increase either a weapon's accuracy (i.e. the character's skill)
or damage, or a set of armor or shield's protection." [F:L352] "A character can spend up to three
character creation points on any single legendary item." An item is data: its upgrades (1 CC each),
its owner and the characters it is bound to. Functions apply it to weapons, armor and shields and
move it between hands; nothing here stores anything.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from pydantic import ConfigDict

from fappo_bot.rules.character import Character, Weapon
from fappo_bot.rules.data import (
    CustomTrait,
    Special,
    Trait,
    special_by_name,
    trait_by_name,
    weapon_by_name,
)
from fappo_bot.rules.results import Problem, RulesError

MAX_POINTS_PER_ITEM = 3
"""[F:L352] "up to three character creation points on any single legendary item"."""

TRAIT_SP_FLOOR = 3
"""A Trait never drops below the 3 SP it comes with [F:L42] when a point is sacrificed."""


class Upgrade(StrEnum):
    """One CC's worth of legendary power (F22 Rule)."""

    ACCURACY = "accuracy"
    DAMAGE = "damage"
    ARMOR = "armor"
    SHIELD = "shield"
    SPECIAL = "special"
    MINOR = "minor"
    EXTRA_DAMAGE = "extra_damage"
    INAPPROPRIATE = "inappropriate"


_ALIASES: dict[str, Upgrade] = {
    "ed": Upgrade.EXTRA_DAMAGE,
    "extra damage": Upgrade.EXTRA_DAMAGE,
    "protection": Upgrade.ARMOR,
    "armour": Upgrade.ARMOR,
    "shield capacity": Upgrade.SHIELD,
    "capacity": Upgrade.SHIELD,
    "minor effect": Upgrade.MINOR,
    "extra special": Upgrade.SPECIAL,
}

WEAPON_UPGRADES = frozenset({Upgrade.ACCURACY, Upgrade.DAMAGE, Upgrade.SPECIAL,
                             Upgrade.EXTRA_DAMAGE})


def upgrade_by_name(name: str) -> Upgrade | None:
    """The upgrade called `name` (case-insensitive; `ED`, `protection`... accepted), or None."""
    key = name.strip().casefold().replace("-", " ")
    for upgrade in Upgrade:
        if upgrade.value.replace("_", " ") == key:
            return upgrade
    return _ALIASES.get(key)


@dataclass(frozen=True, slots=True, kw_only=True)
class LegendaryUpgrade:
    """One upgrade as written: `accuracy`, `special: Fire`, `minor: burns without oil` (the
    written form is read by the input schema, `fappo_bot.sheets.convert`)."""

    kind: str
    #: the Special of a `special` upgrade; the GM's text of a `minor` effect
    detail: str | None = None

    @property
    def upgrade(self) -> Upgrade | None:
        """The upgrade, or None when the name is unknown. A Special's own name (`Fire`) is an
        extra-Special upgrade."""
        found = upgrade_by_name(self.kind)
        if found is None and special_by_name(self.kind) is not None:
            return Upgrade.SPECIAL
        return found

    @property
    def special(self) -> Special | None:
        """The Special of an extra-Special upgrade, when named (`special: Fire` or `Fire`)."""
        if self.upgrade is not Upgrade.SPECIAL:
            return None
        return special_by_name(self.detail) if self.detail else special_by_name(self.kind)


@dataclass(frozen=True, slots=True, kw_only=True)
class LegendaryItem:
    """A legendary item (F22): points spent, upgrades, owner and bindings."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    item: str
    #: CC spent; when omitted, one per upgrade
    points: int | None = None
    upgrades: tuple[LegendaryUpgrade, ...] = ()
    owner: str | None = None
    #: characters (other than the owner) who sacrificed a CC to bind it (F22 Amb-6)
    bound_to: tuple[str, ...] = ()
    holder: str | None = None

    @property
    def cost(self) -> int:
        """CC spent on the item: its points, else one per upgrade (F22 Rule)."""
        return self.points if self.points is not None else len(self.upgrades)

    def count(self, upgrade: Upgrade) -> int:
        """How many upgrades of that kind the item has."""
        return sum(1 for u in self.upgrades if u.upgrade is upgrade)


def check_item(item: LegendaryItem, field: str = "legendary") -> list[Problem]:
    """Every problem of one legendary item (F22): the 1-3 CC cap, unknown upgrades or Specials."""
    problems: list[Problem] = []
    if not 1 <= item.cost <= MAX_POINTS_PER_ITEM:
        problems.append(Problem(
            code="legendary-cap",
            message=f"Legendary item '{item.item}' has {item.cost} CC; a single legendary item "
                    f"takes 1 to {MAX_POINTS_PER_ITEM} CC [F:L352] (the \"inappropriate\" "
                    "surcharge counts toward the 3).",
            field=field,
        ))
    if item.points is not None and len(item.upgrades) > item.points:
        # fewer upgrades than points is fine: the rest are powers the GM has yet to write down
        problems.append(Problem(
            code="legendary-mismatch",
            message=f"Legendary item '{item.item}' lists {len(item.upgrades)} "
                    f"{'upgrade' if len(item.upgrades) == 1 else 'upgrades'} for "
                    f"{item.points} CC; each upgrade costs 1 CC.",
            field=field,
        ))
    for i, up in enumerate(item.upgrades):
        where = f"{field}.upgrades[{i}]"
        if up.upgrade is None:
            problems.append(Problem(
                code="unknown-name",
                message=f"'{up.kind}' is not a legendary upgrade; choose from "
                        f"{', '.join(u.value for u in Upgrade)}.",
                field=where,
            ))
        elif up.upgrade is Upgrade.SPECIAL and up.detail and up.special is None:
            # a bare `special` is a GM-approved Special still to be named; a wrong name is not
            problems.append(Problem(
                code="unknown-name",
                message=f"The extra Special of '{item.item}' must name a Special (for example "
                        f"'special: Fire'), not {up.detail!r}.",
                field=where,
            ))
    return problems


def _require_valid(item: LegendaryItem) -> None:
    problems = check_item(item)
    if problems:
        raise RulesError(problems[0].code, problems[0].message, problems[0].field)


def powers_active(item: LegendaryItem, holder: str) -> bool:
    """Whether `holder` gets the item's powers: its owner, or someone who bound it (F22).

    [F:L358] "Characters can use someone else's legendary item, but the item must be \"bound\"
    before any special powers are available."
    """
    key = holder.casefold()
    if item.owner is None or item.owner.casefold() == key:
        return True
    return any(b.casefold() == key for b in item.bound_to)


def apply_to_weapon(weapon: Weapon, item: LegendaryItem) -> Weapon:
    """The weapon with the item's upgrades (F22): +accuracy, +damage, +ED, extra Specials.

    Legendary weapons are immune to Corrosion (F18.5), so the result is `magical`.
    """
    _require_valid(item)
    extra = tuple(dict.fromkeys(
        s for u in item.upgrades if (s := u.special) is not None and s not in weapon.specials
    ))
    return replace(weapon, accuracy=weapon.accuracy + item.count(Upgrade.ACCURACY), damage=weapon.damage + item.count(Upgrade.DAMAGE), extra_damage=weapon.extra_damage + item.count(Upgrade.EXTRA_DAMAGE), specials=weapon.specials + extra, magical=True)


def armor_bonus(item: LegendaryItem) -> int:
    """Armor rating added by the item (F22; Amb-4: Heavy properties stay with the base type)."""
    return item.count(Upgrade.ARMOR)


def shield_bonus(item: LegendaryItem) -> int:
    """Shield capacity added: one more attack covered per step (F22 Amb-1)."""
    return item.count(Upgrade.SHIELD)


def apply_legendary(character: Character, item: LegendaryItem) -> Character:
    """The character carrying the item, its powers applied if active for it (F22).

    Weapon upgrades go to the carried weapon of that name (a table weapon is added if not
    carried); armor and shield upgrades raise `armor_bonus` / `shield_bonus`. The CC spent is
    recorded in `character.legendary` only for the owner.
    """
    _require_valid(item)
    if item.owner is None or item.owner.casefold() == character.name.casefold():
        character = replace(character, legendary={**character.legendary, item.item: item.cost})
    if not powers_active(item, character.name):
        return character
    weapons = character.weapons
    if any(u.upgrade in WEAPON_UPGRADES for u in item.upgrades):
        weapons = _upgraded_weapons(character.weapons, item)
    armor = armor_bonus(item)
    return replace(character, weapons=weapons,
                   armor_bonus=character.armor_bonus + armor,
                   armor_magical=character.armor_magical or armor > 0,
                   shield_bonus=character.shield_bonus + shield_bonus(item))


def _upgraded_weapons(carried: tuple[Weapon, ...], item: LegendaryItem) -> tuple[Weapon, ...]:
    """The carried weapons with the item's weapon upgrades on the one it names (a table weapon
    added when not carried)."""
    weapons = list(carried)
    index = next((i for i, w in enumerate(weapons)
                  if w.name.casefold() == item.item.casefold()), None)
    if index is None:
        base = Weapon.named(item.item)
        if base is None:
            raise RulesError(
                "unknown-name",
                f"'{item.item}' has weapon upgrades but is no weapon the character carries "
                "or the weapon table knows.",
                "legendary",
            )
        weapons.append(base)
        index = len(weapons) - 1
    weapons[index] = apply_to_weapon(weapons[index], item)
    return tuple(weapons)


def base_weapon(name: str) -> Weapon | None:
    """The item's base stats, which is all a non-owner without a binding gets (F22)."""
    row = weapon_by_name(name)
    return Weapon.from_table(row) if row else None


@dataclass(frozen=True, slots=True, kw_only=True)
class OwnerNotice:
    """[F:L358] "The original owner will know immediately if his item is bound to another, but
    will otherwise have no idea who currently has it or where it is." No identity, no place."""

    owner: str | None
    item: str
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BindOutcome:
    """The item after binding, the holder after its sacrifice, and the owner's notice."""

    item: LegendaryItem
    holder: Character
    notice: OwnerNotice
    #: what the holder gave up, for the GM
    sacrificed: str


def bind(
    item: LegendaryItem,
    holder: Character,
    *,
    skill: str | None = None,
    trait: str | None = None,
    floating: bool = False,
) -> BindOutcome:
    """Bind someone else's legendary item: the holder sacrifices one CC (F22, Amb-5).

    [F:L358] "This binding requires the character to sacrifice one (and only one) character
    creation point, often by permanently reducing a skill." By default a banked CC is spent;
    otherwise one skill point, one Trait SP maximum (never below 3) or one floating SP maximum.
    """
    name = holder.name
    if item.owner is None or item.owner.casefold() == name.casefold():
        raise RulesError("bind-refused", f"{name} owns '{item.item}' and needs no binding.")
    if any(b.casefold() == name.casefold() for b in item.bound_to):
        raise RulesError("bind-refused", f"'{item.item}' is already bound to {name}.")
    chosen = sum(1 for c in (skill is not None, trait is not None, floating) if c)
    if chosen > 1:
        raise RulesError("bind-refused",
                         "A binding costs one (and only one) creation point: sacrifice one thing.")
    sacrificed, updated = _sacrifice(holder, skill=skill, trait=trait, floating=floating)
    new_item = replace(item, bound_to=item.bound_to + (name,), holder=name)
    notice = OwnerNotice(
        owner=item.owner, item=item.item,
        message=f"Your legendary item '{item.item}' has been bound to another.",
    )
    return BindOutcome(item=new_item, holder=updated, notice=notice, sacrificed=sacrificed)


def _sacrifice(
    holder: Character, *, skill: str | None, trait: str | None, floating: bool
) -> tuple[str, Character]:
    if skill is not None:
        key = next((s for s in holder.skills if s.casefold() == skill.strip().casefold()), None)
        if key is None or holder.skills[key] < 1:
            raise RulesError("bind-refused",
                             f"{holder.name} has no point of '{skill}' to sacrifice.", "skill")
        return f"1 point of {key}", replace(holder, skills={**holder.skills, key: holder.skills[key] - 1})
    if trait is not None:
        custom = holder.custom_pool(trait)
        owned: Trait | CustomTrait | None = (CustomTrait(custom) if custom is not None
                                             else trait_by_name(trait))
        if owned is None or owned not in holder.traits:
            raise RulesError("bind-refused", f"{holder.name} does not own the Trait '{trait}'.",
                             "trait")
        return _lower_trait(holder, owned)
    if floating:
        if holder.floating_maximum < 1:
            raise RulesError("bind-refused", f"{holder.name} has no floating SP to sacrifice.",
                             "floating")
        new_max = holder.floating_maximum - 1
        return "1 floating SP maximum", replace(holder, floating_max=new_max, floating=min(holder.floating, new_max))
    if holder.unspent_cc < 1:
        raise RulesError(
            "bind-refused",
            f"{holder.name} has no banked CC; sacrifice a skill point, a Trait SP or a floating "
            "SP instead.", "unspent_cc")
    return "1 banked CC", replace(holder, unspent_cc=holder.unspent_cc - 1)


def _lower_trait(holder: Character, trait: Trait | CustomTrait) -> tuple[str, Character]:
    maximum = holder.trait_maximum(trait)
    if maximum <= TRAIT_SP_FLOOR:
        raise RulesError(
            "bind-refused",
            f"{trait.value} is at {maximum} SP; a Trait never goes below the 3 it comes with.",
            "trait")
    new_max = maximum - 1
    return f"1 {trait.value} SP maximum", replace(holder, trait_max={**holder.trait_max, trait: new_max}, traits={**holder.traits, trait: min(holder.traits[trait], new_max)})


def change_hands(item: LegendaryItem, new_holder: str) -> LegendaryItem:
    """The item taken into someone's possession (a GM event, F22).

    [F:L358] "The original owner can reclaim a bound item simply by taking it into his
    possession. This will also break the previous character's binding." Any other change of
    hands keeps the bindings (Amb-6): a binder who gets it back from a third party needs no new
    sacrifice, but after the owner's reclaim it must sacrifice again.
    """
    if item.owner is not None and item.owner.casefold() == new_holder.casefold():
        return replace(item, holder=new_holder, bound_to=())
    return replace(item, holder=new_holder)


def give_up(character: Character, item: LegendaryItem) -> Character:
    """The character without the item in hand (F22, a change of hands): the weapon of its name
    is no longer carried, and the armor and shield steps it gave (if its powers were active for
    the character) are gone. What the owner paid stays on record (`legendary`): ownership does
    not change hands."""
    _require_valid(item)
    weapons = character.weapons
    if weapon_by_name(item.item) is not None or any(
            w.name.casefold() == item.item.casefold() for w in weapons):
        weapons = tuple(w for w in weapons if w.name.casefold() != item.item.casefold())
    wielding = character.wielding
    if wielding is not None and wielding.casefold() == item.item.casefold():
        wielding = weapons[0].name if weapons else None
    if not powers_active(item, character.name):
        return replace(character, weapons=weapons, wielding=wielding)
    return replace(character, weapons=weapons, wielding=wielding,
                   armor_bonus=max(0, character.armor_bonus - armor_bonus(item)),
                   shield_bonus=max(0, character.shield_bonus - shield_bonus(item)))


def take_up(character: Character, item: LegendaryItem) -> Character:
    """The character with the item in hand (F22): its powers if it owns the item or bound it
    ([F:L358]), else only the base weapon of the weapon table ("the item must be 'bound' before
    any special powers are available")."""
    if powers_active(item, character.name):
        return apply_legendary(character, item)
    base = base_weapon(item.item)
    if base is None or any(w.name.casefold() == base.name.casefold() for w in character.weapons):
        return character
    return replace(character, weapons=(*character.weapons, base))
