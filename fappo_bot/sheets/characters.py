"""Case-file characters to rules `Character` values (spec/cases.md "characters").

Every field of the characters block: tier, count, AP, Traits (alternate names accepted) and their
maxima, floating SP, skills, weapons (table names or full entries, F19), wielding, armor and
shield (F17), health by level name with a Master's slots (F11) or pips, position, statuses (F18),
shock, Dying counters (F15), ammo, steadying and learned spells (F24, F26).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from fappo_bot.rules import (
    PIP_THRESHOLDS,
    PLASER_BATTERY,
    TRACKS,
    Character,
    RangeClass,
    Special,
    Spell,
    Status,
    StatusKind,
    Tier,
    TrackKind,
    Weapon,
    index_from_pips,
    weapon_by_name,
)
from fappo_bot.sheets.convert import (
    CaseError,
    armor_named,
    as_int,
    as_list,
    as_mapping,
    describe_validation,
    enum_value,
    skill_named,
    special_named,
    trait_named,
)
from fappo_bot.words import noun


# ---- health ------------------------------------------------------------------------------------
def health_index(value: Any, track: TrackKind, where: str) -> int:
    """A level name of the track as its index (F11). A Master's repeated names take a slot number
    ("Battered 2"); a bare repeated name means slot 1."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < len(TRACKS[track]):
            raise CaseError(f"{where}: index {value} is off the {track.value} track")
        return value
    text = " ".join(str(value).split()).casefold()
    slot = 1
    head, _, tail = text.rpartition(" ")
    if head and tail.isdigit():
        text, slot = head, int(tail)
    levels = TRACKS[track]
    indices = [i for i, name in enumerate(levels) if name.casefold() == text]
    if not indices or not 1 <= slot <= len(indices):
        names = ", ".join(dict.fromkeys(levels))
        raise CaseError(
            f"{where}: {value!r} is not a level of the {track.value} track ({names})",
            "unknown-name",
        )
    return indices[slot - 1]


# ---- weapons, spells, statuses -----------------------------------------------------------------
_WEAPON_KEYS = {
    "name", "damage", "range", "specials", "skill", "accuracy", "extra_damage", "reach",
    "radius", "area", "ammo_cost", "magical", "legendary", "corroded", "scope", "ranged",
    "single_use", "profile",
}


def weapon_from_case(value: Any, where: str) -> Weapon:
    """A weapon-table name (F19), or a full entry {name, damage, range, specials, skill,
    accuracy, extra_damage}; an entry named after a table weapon overrides that row."""
    if isinstance(value, str):
        weapon = Weapon.named(value)
        if weapon is None:
            raise CaseError(f"{where}: no weapon called {value!r} in the table", "unknown-name")
        return weapon
    entry = as_mapping(value, where)
    unknown = set(entry) - _WEAPON_KEYS
    if unknown:
        raise CaseError(f"{where}: unknown weapon {noun(len(unknown), 'field')} "
                        f"{', '.join(sorted(unknown))}")
    if "name" not in entry:
        raise CaseError(f"{where}: a weapon entry needs a name")
    fields: dict[str, Any] = {}
    if "range" in entry:
        fields["range_class"] = enum_value(RangeClass, entry["range"], f"{where}.range")
        fields["ranged"] = fields["range_class"] is not RangeClass.MELEE
    if "ranged" in entry:
        fields["ranged"] = bool(entry["ranged"])
    specials: list[Special] = []
    extra = entry.get("extra_damage")
    for i, raw in enumerate(as_list(entry.get("specials"), f"{where}.specials")):
        text = str(raw).strip()
        head, _, tail = text.rpartition(" ")
        number = int(tail) if head and tail.isdigit() else None
        special = special_named(head if number is not None else text, f"{where}.specials[{i}]")
        if special is Special.EXTRA_DAMAGE:  # ED rides in extra_damage (F18.1)
            extra = extra if extra is not None else (number or 1)
        else:
            specials.append(special)
    if "specials" in entry:
        fields["specials"] = tuple(specials)
    if extra is not None:
        fields["extra_damage"] = as_int(extra, f"{where}.extra_damage")
    if "skill" in entry:
        fields["skill"] = skill_named(entry["skill"], f"{where}.skill") if entry["skill"] else None
    for key in ("damage", "accuracy", "reach", "radius", "ammo_cost", "corroded"):
        if key in entry:
            fields[key] = as_int(entry[key], f"{where}.{key}")
    for key in ("area", "scope", "single_use", "magical"):
        if key in entry:
            fields[key] = bool(entry[key])
    if "legendary" in entry:
        fields["magical"] = bool(entry["legendary"])
    if entry.get("profile") is not None:  # a Poison or Disease profile (F18.6 Amb-1)
        fields["profile"] = dict(as_mapping(entry["profile"], f"{where}.profile"))
    row = weapon_by_name(str(entry["name"]))
    try:
        if row is not None:
            return replace(Weapon.from_table(row), name=str(entry["name"]), **fields)
        if "damage" not in fields:
            raise CaseError(f"{where}: {entry['name']!r} is not a table weapon, so give its damage")
        return Weapon(name=str(entry["name"]), **fields)
    except ValidationError as exc:
        raise CaseError(f"{where}: {describe_validation(exc)}") from exc


def spell_from_case(value: Any, where: str) -> Spell:
    """A learned spell: by its general difficulty without range, or by its effects (F24, F26)."""
    entry = as_mapping(value, where)
    unknown = set(entry) - {"name", "difficulty", "effects", "special"}
    if unknown:
        raise CaseError(f"{where}: unknown spell {noun(len(unknown), 'field')} "
                        f"{', '.join(sorted(unknown))}")
    if "name" not in entry:
        raise CaseError(f"{where}: a spell needs a name")
    if entry.get("difficulty") is None and entry.get("effects") is None:
        raise CaseError(f"{where}: give the spell's difficulty or its effects")
    special = entry.get("special")
    return Spell(
        name=str(entry["name"]),
        difficulty=as_int(entry["difficulty"], f"{where}.difficulty")
        if entry.get("difficulty") is not None
        else None,
        effects=dict(as_mapping(entry.get("effects"), f"{where}.effects")) or None,
        special=special_named(special, f"{where}.special") if special else None,
    )


_STATUS_ITEM = re.compile(r"^(?P<kind>\w+)\s*(?::|\(|\s+by\s+)\s*(?P<item>[^()]+?)\s*\)?$", re.I)


def status_from_case(value: Any, where: str) -> Status:
    """A status name (`prone`), a status with the weapon concerned (`impaled: Spear`,
    `impaled (Spear)`, `impaled by Spear`), or an entry {kind, item, source, turns, ...} (F18)."""
    if isinstance(value, str):
        match = _STATUS_ITEM.match(value.strip())
        if match:
            return Status(kind=enum_value(StatusKind, match["kind"], where),
                          item=match["item"].strip())
    if isinstance(value, Mapping):
        data = dict(value)
        data["kind"] = enum_value(StatusKind, data.get("kind"), f"{where}.kind")
        try:
            return Status(**data)
        except ValidationError as exc:
            raise CaseError(f"{where}: {describe_validation(exc)}") from exc
    return Status(kind=enum_value(StatusKind, value, where))


# ---- characters --------------------------------------------------------------------------------
_SPEC_KEYS = {
    "name", "tier", "count", "ap", "traits", "max", "floating", "skills", "weapons", "wielding",
    "armor", "armor_bonus", "shield", "health", "damage", "position", "status", "shock",
    "dying_turns", "attended_turns", "ammo", "steadied_turns", "spells", "elapsed",
}
#: Character fields a case may also set directly (documented extensions of the format).
_PASS_THROUGH = {
    "shield_bonus", "armor_magical", "steady_target", "unspent_cc", "heal_elapsed",
    "heal_checked", "heal_halved", "floating_max",
}


def character_from_case(data: Mapping[str, Any]) -> Character:
    """A case file's character entry as a rules `Character` (spec/cases.md "characters").

    Raises `CaseError` for anything malformed or unknown (code `unknown-name` for a name that is
    not a Trait, skill, weapon, Special or level of this game).
    """
    entry = as_mapping(data, "character")
    name = entry.get("name")
    if not name or not str(name).strip():
        raise CaseError("a character needs a name")
    where = f"character {name}"
    unknown = set(entry) - _SPEC_KEYS - _PASS_THROUGH
    if unknown:
        raise CaseError(f"{where}: unknown {noun(len(unknown), 'field')} "
                        f"{', '.join(sorted(map(str, unknown)))}")
    values: dict[str, Any] = {"name": str(name).strip()}
    tier = enum_value(Tier, entry.get("tier", "pc"), f"{where}.tier")
    values["tier"] = tier
    for key, field in (("count", "count"), ("ap", "base_ap"), ("floating", "floating"),
                       ("armor_bonus", "armor_bonus"), ("position", "position"),
                       ("dying_turns", "dying_turns"), ("attended_turns", "attended_turns"),
                       ("steadied_turns", "steadied_turns"), ("elapsed", "heal_elapsed")):
        if entry.get(key) is not None:
            values[field] = as_int(entry[key], f"{where}.{key}")
    if entry.get("ammo") is not None:
        values["ammo"] = as_int(entry["ammo"], f"{where}.ammo")
    values["traits"] = {
        trait_named(t, f"{where}.traits"): as_int(n, f"{where}.traits.{t}")
        for t, n in as_mapping(entry.get("traits"), f"{where}.traits").items()
    }
    maxima = as_mapping(entry.get("max"), f"{where}.max")
    if set(maxima) - {"traits", "floating"}:
        raise CaseError(f"{where}.max: only `traits` and `floating` may be given")
    values["trait_max"] = {
        trait_named(t, f"{where}.max.traits"): as_int(n, f"{where}.max.traits.{t}")
        for t, n in as_mapping(maxima.get("traits"), f"{where}.max.traits").items()
    }
    if maxima.get("floating") is not None:
        values["floating_max"] = as_int(maxima["floating"], f"{where}.max.floating")
    values["skills"] = {
        skill_named(s, f"{where}.skills"): as_int(n, f"{where}.skills.{s}")
        for s, n in as_mapping(entry.get("skills"), f"{where}.skills").items()
    }
    _arms(entry, where, values)
    values["armor"] = armor_named(entry.get("armor"), f"{where}.armor")
    values["shield"] = armor_named(entry.get("shield"), f"{where}.shield")
    _health(entry, tier, where, values)
    values["statuses"] = tuple(
        status_from_case(s, f"{where}.status[{i}]")
        for i, s in enumerate(as_list(entry.get("status"), f"{where}.status"))
    )
    if entry.get("shock") is not None:
        values["shock"] = bool(entry["shock"])
    values["spells"] = tuple(
        spell_from_case(s, f"{where}.spells[{i}]")
        for i, s in enumerate(as_list(entry.get("spells"), f"{where}.spells"))
    )
    for key in _PASS_THROUGH & set(entry):
        values[key] = entry[key]
    try:
        return Character(**values)
    except ValidationError as exc:
        raise CaseError(f"{where}: {describe_validation(exc)}") from exc


def _arms(entry: Mapping[str, Any], where: str, values: dict[str, Any]) -> None:
    """The weapons of a case file's character, the one wielded (added when it is not among
    them) and a plaser's full battery unless `ammo` says otherwise, into `values`."""
    weapons = [
        weapon_from_case(w, f"{where}.weapons[{i}]")
        for i, w in enumerate(as_list(entry.get("weapons"), f"{where}.weapons"))
    ]
    wielding = entry.get("wielding")
    if wielding is not None and str(wielding).strip().casefold() != "none":
        key = str(wielding).strip().casefold()
        held = next((w for w in weapons if w.name.casefold() == key), None)
        if held is None:
            row = weapon_by_name(str(wielding))
            held = next((w for w in weapons if row and w.name == row.name), None)
            if held is None:
                held = weapon_from_case(str(wielding), f"{where}.wielding")
                weapons.append(held)
        values["wielding"] = held.name
    values["weapons"] = tuple(weapons)
    if "ammo" not in values and any(w.ammo_cost for w in weapons):
        # A plaser comes with its battery full (F19); a sheet gives `ammo` to say otherwise.
        values["ammo"] = PLASER_BATTERY


def _health(entry: Mapping[str, Any], tier: Tier, where: str, values: dict[str, Any]) -> None:
    """A case file's character's health, from its pips of damage or its level, into `values`."""
    track = Character(name="_", tier=tier).track_kind
    if entry.get("damage") is not None:
        pips = as_int(entry["damage"], f"{where}.damage")
        if not 0 <= pips <= PIP_THRESHOLDS[-1]:
            raise CaseError(f"{where}.damage: pips run from 0 to {PIP_THRESHOLDS[-1]}")
        values["pips"] = pips
        values["health"] = index_from_pips(pips)
    elif entry.get("health") is not None:
        values["health"] = health_index(entry["health"], track, f"{where}.health")
        if track is TrackKind.STANDARD:
            values["pips"] = PIP_THRESHOLDS[values["health"]]
