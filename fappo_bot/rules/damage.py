"""Damage by success level, Specials on a Great Success, corrosion (RULINGS F12, F18.1, F18.5).

[F:L197] "Usually any failure is a miss, a Bare Success does half damage (rounded down), a Solid
Success does full damage and a Great Success adds a Special status effect depending on the weapon"
[F:L235] "Heavy Armor has the special effect that its wearer is unaffected by Bare Success attacks"
[F:L247] "The Extra Damage Special is always invoked on a Great Success, whether the wielder
desires it or not."
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from fappo_bot.rules.character import Character, Weapon
from fappo_bot.rules.config import RulesConfig, SpecialsPerGreat
from fappo_bot.rules.data import ArmorType, Special, Trait, special_by_name
from fappo_bot.rules.levels import SuccessLevel
from fappo_bot.rules.names import fold
from fappo_bot.rules.orders import Action, ActionKind


class WeaponProfile(NamedTuple):
    """What a weapon does in one attacker's hands this turn: D, ED and the Specials on offer."""

    damage: int
    extra_damage: int
    specials: tuple[Special, ...]


def weapon_profile(weapon: Weapon, wielder: Character, *, steadied: bool = False) -> WeaponProfile:
    """D (legendary points included, corrosion off, min 0), ED and Specials (F12, F19).

    A lightsword gives its ED and Specials only to an Uncanny wielder (F19 Amb-2); a sniper rifle
    has ED 4 once steadied (F19 Amb-6).
    """
    d = weapon.damage - weapon.corroded  # `Weapon.effective_damage`
    if d < 0:
        d = 0
    ed = weapon.extra_damage
    specials = weapon.specials
    if steadied and weapon.steadied_extra_damage is not None:
        ed = weapon.steadied_extra_damage
    if weapon.uncanny_only_specials and not wielder.owns(Trait.UNCANNY):
        ed, specials = 0, ()
    # `WeaponProfile(d, ed, specials)` without the named tuple's Python-level `__new__`: a
    # profile is made for every attacker and weapon of a turn
    return _new_tuple(WeaponProfile, (d, ed, specials))


_new_tuple = tuple.__new__


def heavy_armored(character: Character) -> bool:
    """Wears armor whose base type is Heavy (F17 Amb-8, F22 Amb-4: legendary points do not count)."""
    return character.armor is ArmorType.HEAVY


def damage_for_level(
    level: SuccessLevel, damage: int, extra_damage: int, *, heavy_target: bool = False
) -> int:
    """Levels of damage an attack deals (F12 Rule).

    AF and F miss; BS deals floor(D/2) but nothing to a Heavy-armored target (Amb-5); SS deals D;
    GS deals D + ED.
    """
    if level is SuccessLevel.BARE:
        return 0 if heavy_target else damage // 2
    if level is SuccessLevel.SOLID:
        return damage
    if level is SuccessLevel.GREAT:
        return damage + extra_damage
    return 0


def great_specials(
    offered: tuple[Special, ...],
    declared: str | None,
    invoked: str | None,
    config: RulesConfig,
) -> tuple[Special, ...]:
    """The Special(s) a Great Success applies besides Extra Damage (F12 Amb-1, Amb-2).

    One Special: the one declared in the post if the weapon offers it, else the one the GM invokes,
    else none. With `specials_per_great = all`, every Special the weapon offers.
    """
    if config.specials_per_great is SpecialsPerGreat.ALL:
        return tuple(s for s in offered if s is not Special.EXTRA_DAMAGE)
    for name in (declared, invoked):
        if name is None:
            continue
        special = special_by_name(name)
        if special is not None and special in offered and special is not Special.EXTRA_DAMAGE:
            return (special,)
    return ()


def great_success_specials(action: Action, offered: tuple[Special, ...], defender: Character,
                           config: RulesConfig) -> tuple[Special, ...]:
    """The Specials a Great Success of `action` applies to `defender` (F12, F25, F18.10).

    A spell's one bought Special applies undeclared; several bought, the caster declares one
    (F25, Amendments 2026-12-01). A Disarm against a defender fighting with a Fist and aimed at no
    item has nothing to disarm (F18.10, Amendments 2026-12-01).
    """
    declared = action.special
    if declared is None and action.kind is ActionKind.CAST and len(offered) == 1:
        declared = offered[0].value
    specials = great_specials(offered, declared, action.invoke, config)
    if Special.DISARM in specials and action.item is None and fights_with_fists(defender):
        specials = tuple(s for s in specials if s is not Special.DISARM)
    return specials


def fights_with_fists(defender: Character) -> bool:
    """Whether the defender fights with a Fist (or nothing in hand)."""
    weapon = defender.weapon()
    return weapon is None or fold(weapon.name) == "fist"


def corrode(character: Character) -> Character:
    """Corrosion (F18.5): armor one step down unless magical; ready non-magical weapons D - 1.

    [F:L251] "the victim's Armor rating is reduced by one step unless the Armor is legendary or
    otherwise somehow magical. Any exposed non-magical weapons are reduced one health level in
    damage". Stowed weapons are safe (Amb-1); shields are untouched (Amb-2); it stacks (Amb-3).
    """
    armor = character.armor
    if not character.armor_magical and armor is not ArmorType.NONE:
        armor = ArmorType(int(armor) - 1)
    ready = character.weapon()
    weapons = tuple(
        replace(w, corroded=w.corroded + 1)
        if ready is not None and w.name == ready.name and not w.magical
        else w
        for w in character.weapons
    )
    return replace(character, armor=armor, weapons=weapons)
