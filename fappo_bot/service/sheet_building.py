"""Building a FAPPO character from its sheet: the sheet as written with its equipment
(`NewCharacter`, priced and checked by the rules, F1, F3, F19), its maxima made explicit
(`full_sheet`), and a GM's new sheet with the current state carried over (`carry_state`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from fappo_bot.rules import (
    BUILT_IN,
    PLASER_BATTERY,
    ArmorType,
    Character,
    RulesError,
    Sheet,
    Special,
    TraitCatalogue,
    Weapon,
    armor_by_name,
    character_from_sheet,
    check_sheet,
)
from fappo_bot.service.bounds import MAX_COUNT, MAX_POSITION, sheet_problems
from fappo_bot.service.errors import InvalidInput
from fappo_bot.sheets.convert import sheet_data

#: what a poison or a disease profile of a weapon entry may say (F18.6, F18.7)
_PROFILE_KEYS = {"poison": frozenset({"kind", "ticks", "penalty", "ap_loss", "duration"}),
                 "disease": frozenset({"onset", "effect", "duration", "cure"})}
_POISON_KINDS = frozenset({"mortal", "nerve", "custom"})


class WeaponEntry(BaseModel):
    """A sheet's weapon with data of its own: a table weapon carrying its Poison or Disease
    profile (F18.6 Amb-1: "the weapon data gives one"), which gives the weapon that Special."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    poison: dict[str, Any] | None = None
    disease: dict[str, Any] | None = None

    def problems(self) -> list[str]:
        """What is wrong with the entry, each in one sentence."""
        found: list[str] = []
        if self.poison is not None and self.disease is not None:
            found.append(f"{self.name}: a weapon carries a poison or a disease, not both.")
        for what in ("poison", "disease"):
            profile = getattr(self, what)
            if profile is None:
                continue
            unknown = sorted(set(profile) - _PROFILE_KEYS[what])
            if unknown:
                found.append(f"{self.name}: a {what} says {', '.join(sorted(_PROFILE_KEYS[what]))}"
                             f", not {', '.join(unknown)} (F18.6, F18.7).")
            numbers = [k for k in ("ticks", "penalty", "ap_loss", "duration") if k in profile]
            if any(not isinstance(profile[k], int) or isinstance(profile[k], bool)
                   or profile[k] < 0 for k in numbers):
                found.append(f"{self.name}: the {what}'s {', '.join(numbers)} are whole "
                             "numbers of 0 or more.")
        kind = str((self.poison or {}).get("kind", "mortal")).casefold()
        if self.poison is not None and kind not in _POISON_KINDS:
            found.append(f"{self.name}: a poison is mortal, nerve or custom, not {kind!r}.")
        return found

    def carried(self) -> Weapon | None:
        """The table weapon with the profile and its Special; None when no table weapon is
        called so."""
        weapon = Weapon.named(self.name)
        if weapon is None:
            return None
        special = Special.POISON if self.poison is not None else Special.DISEASE \
            if self.disease is not None else None
        if special is None:
            return weapon
        specials = weapon.specials if special in weapon.specials else (*weapon.specials, special)
        return replace(weapon, specials=specials, profile=dict(self.poison or self.disease or {}))


def _weapon_name(weapon: str | WeaponEntry) -> str:
    return weapon if isinstance(weapon, str) else weapon.name


class NewCharacter(BaseModel):
    """A character sheet as written (F1) with the character's equipment and place."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    sheet: Sheet = Field(default_factory=Sheet)
    #: weapon-table names, or entries with a profile of their own (`WeaponEntry`)
    weapons: tuple[str | WeaponEntry, ...] = ()
    wielding: str | None = None
    armor: str | None = None
    shield: str | None = None
    #: creatures in a nuisance or minion group (F20, F21)
    count: int = Field(default=1, ge=0, le=MAX_COUNT)
    position: int = Field(default=0, ge=-MAX_POSITION, le=MAX_POSITION)
    #: a plaser's battery (F19): full (10) unless the sheet says; a GM's edit that gives it
    #: recharges the battery, one that does not keeps what is left
    ammo: int | None = Field(default=None, ge=0, le=PLASER_BATTERY)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NewCharacter:
        """From one mapping (a YAML sheet): the sheet's keys and the equipment's together."""
        problems = sheet_problems(data)
        if problems:
            raise InvalidInput("This sheet cannot be read:", tuple(problems))
        sheet_keys = {f.name for f in fields(Sheet)}
        sheet = {k: v for k, v in data.items() if k in sheet_keys}
        rest = {k: v for k, v in data.items() if k not in sheet_keys}
        if isinstance(rest.get("weapons"), list):
            rest["weapons"] = tuple(rest["weapons"])
        try:
            return cls.model_validate({**rest, "sheet": sheet_data(sheet)})
        except ValidationError as exc:
            raise InvalidInput.of("This sheet cannot be read:", exc) from None

    def build(self, traits: TraitCatalogue = BUILT_IN) -> Character | tuple[str, ...]:
        """The rules' Character (pools full), or every problem of the sheet (F1), in a game
        with the Traits of `traits` (F2)."""
        problems: list[str] = []
        check = check_sheet(self.sheet, traits=traits)
        problems.extend(p.message for p in check.errors)
        armor = _armor(self.armor, "armor", problems)
        shield = _armor(self.shield, "shield", problems)
        carried: list[Weapon | str] = []
        for weapon in self.weapons:
            name = _weapon_name(weapon)
            if Weapon.named(name) is None:
                problems.append(f'"{name}" is not a weapon of the weapon table (F19).')
                continue
            if isinstance(weapon, WeaponEntry):
                problems.extend(weapon.problems())
                built = weapon.carried()
                carried.append(built if built is not None else name)
            else:
                carried.append(weapon)
        if problems:
            return tuple(problems)
        try:
            character = character_from_sheet(
                self.name.strip(), self.sheet, weapons=carried,
                wielding=self.wielding or (_weapon_name(self.weapons[0]) if self.weapons
                                           else None),
                armor=armor, shield=shield, traits=traits,
            )
        except RulesError as exc:
            return (str(exc),)
        update: dict[str, Any] = {"count": self.count, "position": self.position}
        if any(w.ammo_cost for w in character.weapons):
            update["ammo"] = PLASER_BATTERY if self.ammo is None else self.ammo
        return replace(character, **update)


def _armor(name: str | None, what: str, problems: list[str]) -> ArmorType:
    if name is None:
        return ArmorType.NONE
    found = armor_by_name(name)
    if found is None:
        problems.append(f'"{name}" is not a kind of {what} (none, light, medium, heavy).')
        return ArmorType.NONE
    return found


#: what a sheet edit keeps of the character's current state (its wounds, place and clocks)
_CARRIED = (
    "health",
    "pips",
    "settled_health",
    "settled_pips",
    "position",
    "statuses",
    "shock",
    "dying_turns",
    "attended_turns",
    "ammo",
    "steadied_turns",
    "steady_target",
    "heal_elapsed",
    "heal_checked",
    "heal_halved",
    "wielding",
    "unspent_cc",
)


def carry_state(current: Character, sheet: Character, *, recharge: bool = False) -> Character:
    """The new sheet with the current state's wounds, position and clocks, and the SP already
    spent still spent (capped by the new maxima). Used by GM edits; with `recharge` (the edit
    gives `ammo`) the sheet's battery replaces what was left (F19)."""
    update: dict[str, Any] = {name: getattr(current, name) for name in _CARRIED}
    if recharge or (current.ammo is None and sheet.ammo is not None):
        update["ammo"] = sheet.ammo
    traits = {}
    for trait, full in sheet.traits.items():
        spent = current.trait_maximum(trait) - current.traits.get(trait, 0)
        traits[trait] = max(0, full - max(0, spent)) if trait in current.traits else full
    update["traits"] = traits
    update["trait_max"] = {t: sheet.trait_maximum(t) for t in sheet.traits}
    floating_spent = max(0, current.floating_maximum - current.floating)
    update["floating"] = max(0, sheet.floating - floating_spent)
    update["floating_max"] = sheet.floating_maximum
    if sheet.weapon(current.wielding) is None:
        update["wielding"] = sheet.wielding
    return replace(sheet, **update)


def full_sheet(sheet: Character) -> Character:
    """The sheet with its maxima made explicit, so restoring SP (F27) knows them."""
    return replace(sheet, trait_max={t: sheet.trait_maximum(t) for t in sheet.traits}, floating_max=sheet.floating_maximum)
