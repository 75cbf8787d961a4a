"""Case-file values to rules values (spec/cases.md "characters", "pending", "orders", "options").

Every conversion raises `CaseError` with a message a case author can act on: the field at fault,
what was written, what is accepted. Names match case-insensitively and accept the seed's alternate
Trait names (RULINGS F2 Amb-4); they come out in their canonical form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from fappo_bot.rules.character import FLOATING, Character, Spell, Status, StatusKind, Weapon
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import (
    PIP_THRESHOLDS,
    SKILLS_BY_KEY,
    TRACKS,
    ArmorType,
    RangeClass,
    Special,
    Tier,
    TrackKind,
    Trait,
    armor_by_name,
    special_by_name,
    trait_by_name,
    weapon_by_name,
)
from fappo_bot.rules.orders import Action, Order, PendingHit, Pledge, Reduction

M = TypeVar("M", bound=BaseModel)


class CaseError(ValueError):
    """The case itself is malformed (`bad-case`); `code` is `unknown-name` for an unknown name."""

    def __init__(self, message: str, code: str = "bad-case") -> None:
        super().__init__(message)
        self.code = code


def describe_validation(exc: ValidationError) -> str:
    """A pydantic error as one readable line per problem: `field.path: message`."""
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(value)"
        if err["type"] == "extra_forbidden":
            parts.append(f"unknown field {where}")
        else:
            parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def as_mapping(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise CaseError(f"{where}: expected a mapping, got {value!r}")
    return value


def as_list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise CaseError(f"{where}: expected a list, got {value!r}")
    return value


def as_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(f"{where}: expected a whole number, got {value!r}")
    return value


# ---- names -------------------------------------------------------------------------------------
def trait_named(name: Any, where: str) -> Trait:
    """A Trait by its name or an alternate name (F2); unknown -> CaseError(unknown-name)."""
    trait = trait_by_name(str(name))
    if trait is None:
        known = ", ".join(t.value for t in Trait)
        raise CaseError(f"{where}: no Trait called {name!r} (Traits: {known})", "unknown-name")
    return trait


def skill_named(name: Any, where: str) -> str:
    """The canonical name of a rulebook skill (F2); unknown -> CaseError(unknown-name)."""
    skill = SKILLS_BY_KEY.get(str(name).strip().casefold())
    if skill is None:
        raise CaseError(f"{where}: no skill called {name!r} in the rulebook's list", "unknown-name")
    return skill.name


def pool_key(name: Any) -> str:
    """The canonical SP pool key for a Trait name or `floating`; other names are kept as written
    (so that validation reports them as `unknown-name`)."""
    text = str(name).strip()
    if text.casefold() == FLOATING:
        return FLOATING
    trait = trait_by_name(text)
    return trait.value if trait is not None else text


def sp_map(value: Any, where: str) -> dict[str, int]:
    """An SP map `{Trait: n, floating: n}` with canonical keys."""
    out: dict[str, int] = {}
    for key, amount in as_mapping(value, where).items():
        canonical = pool_key(key)
        out[canonical] = out.get(canonical, 0) + as_int(amount, f"{where}.{key}")
    return out


def _enum_value(enum: Any, value: Any, where: str) -> Any:
    key = str(value).strip().casefold()
    for member in enum:
        if str(member.value).casefold() == key or member.name.casefold() == key:
            return member
    accepted = ", ".join(str(m.value) for m in enum)
    raise CaseError(f"{where}: {value!r} is not one of {accepted}")


def armor_named(value: Any, where: str) -> ArmorType:
    """`none|light|medium|heavy` (F17)."""
    armor = armor_by_name(str(value)) if value is not None else ArmorType.NONE
    if armor is None:
        raise CaseError(f"{where}: {value!r} is not one of none, light, medium, heavy")
    return armor


def special_named(value: Any, where: str) -> Special:
    """A Special by name (F18)."""
    special = special_by_name(str(value))
    if special is None:
        raise CaseError(f"{where}: no Special called {value!r}", "unknown-name")
    return special


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


def pip_level(pips: int) -> int:
    """The standard-track index for `pips` filled (F11 Amb-1: the lowest level with a pip)."""
    index = 0
    for i, threshold in enumerate(PIP_THRESHOLDS):
        if pips >= threshold:
            index = i
    return index


# ---- weapons, spells, statuses -----------------------------------------------------------------
_WEAPON_KEYS = {
    "name", "damage", "range", "specials", "skill", "accuracy", "extra_damage", "reach",
    "radius", "area", "ammo_cost", "magical", "legendary", "corroded", "scope", "ranged",
    "single_use",
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
        raise CaseError(f"{where}: unknown weapon field(s) {', '.join(sorted(unknown))}")
    if "name" not in entry:
        raise CaseError(f"{where}: a weapon entry needs a name")
    fields: dict[str, Any] = {}
    if "range" in entry:
        fields["range_class"] = _enum_value(RangeClass, entry["range"], f"{where}.range")
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
    row = weapon_by_name(str(entry["name"]))
    try:
        if row is not None:
            return Weapon.from_table(row, name=str(entry["name"]), **fields)
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
        raise CaseError(f"{where}: unknown spell field(s) {', '.join(sorted(unknown))}")
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


def status_from_case(value: Any, where: str) -> Status:
    """A status name (`prone`), or an entry {kind, item, source, turns, ...} (F18)."""
    if isinstance(value, Mapping):
        data = dict(value)
        data["kind"] = _enum_value(StatusKind, data.get("kind"), f"{where}.kind")
        try:
            return Status(**data)
        except ValidationError as exc:
            raise CaseError(f"{where}: {describe_validation(exc)}") from exc
    return Status(kind=_enum_value(StatusKind, value, where))


# ---- characters --------------------------------------------------------------------------------
_SPEC_KEYS = {
    "name", "tier", "count", "ap", "traits", "max", "floating", "skills", "weapons", "wielding",
    "armor", "armor_bonus", "shield", "health", "damage", "position", "status", "shock",
    "dying_turns", "attended_turns", "ammo", "steadied_turns", "spells",
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
        raise CaseError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
    values: dict[str, Any] = {"name": str(name).strip()}
    tier = _enum_value(Tier, entry.get("tier", "pc"), f"{where}.tier")
    values["tier"] = tier
    for key, field in (("count", "count"), ("ap", "base_ap"), ("floating", "floating"),
                       ("armor_bonus", "armor_bonus"), ("position", "position"),
                       ("dying_turns", "dying_turns"), ("attended_turns", "attended_turns"),
                       ("steadied_turns", "steadied_turns")):
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
    values["armor"] = armor_named(entry.get("armor"), f"{where}.armor")
    values["shield"] = armor_named(entry.get("shield"), f"{where}.shield")
    track = Character(name="_", tier=tier).track_kind
    if entry.get("damage") is not None:
        pips = as_int(entry["damage"], f"{where}.damage")
        if not 0 <= pips <= PIP_THRESHOLDS[-1]:
            raise CaseError(f"{where}.damage: pips run from 0 to {PIP_THRESHOLDS[-1]}")
        values["pips"] = pips
        values["health"] = pip_level(pips)
    elif entry.get("health") is not None:
        values["health"] = health_index(entry["health"], track, f"{where}.health")
        if track is TrackKind.STANDARD:
            values["pips"] = PIP_THRESHOLDS[values["health"]]
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


# ---- orders, pending hits, options -------------------------------------------------------------
_SP_FIELDS = ("sp", "cast_sp", "attack_sp")


def action_from_case(value: Any, where: str) -> Action:
    """One structured action (spec/cases.md action table; `if`/`triggered` and GM inputs)."""
    data = dict(as_mapping(value, where))
    for key in _SP_FIELDS:
        if key in data:
            data[key] = sp_map(data[key], f"{where}.{key}")
    if "if" in data and data["if"] is not None:
        data["if"] = str(data["if"])
    for key in ("targets", "also"):
        if isinstance(data.get(key), str):
            data[key] = [data[key]]
    if isinstance(data.get("kind"), str):
        data["kind"] = data["kind"].strip().casefold()
    try:
        return Action(**data)
    except ValidationError as exc:
        raise CaseError(f"{where}: {describe_validation(exc)}") from exc


def order_from_case(value: Mapping[str, Any], where: str) -> Order:
    """A structured order entry (not a `post`)."""
    data = dict(value)
    actions = [
        action_from_case(a, f"{where}.actions[{i}]")
        for i, a in enumerate(as_list(data.pop("actions", None), f"{where}.actions"))
    ]
    guard = []
    for i, g in enumerate(as_list(data.pop("guard", None), f"{where}.guard")):
        g = dict(as_mapping(g, f"{where}.guard[{i}]"))
        g["sp"] = sp_map(g.get("sp"), f"{where}.guard[{i}].sp")
        if "against" in g:
            g["against"] = str(g["against"])
        guard.append(build_model(Pledge, g, f"{where}.guard[{i}]"))
    reduce = []
    for i, r in enumerate(as_list(data.pop("reduce", None), f"{where}.reduce")):
        r = dict(as_mapping(r, f"{where}.reduce[{i}]"))
        r["sp"] = sp_map(r.get("sp"), f"{where}.reduce[{i}].sp")
        if "hit" in r:
            r["hit"] = str(r["hit"])
        reduce.append(build_model(Reduction, r, f"{where}.reduce[{i}]"))
    data.update(actions=tuple(actions), guard=tuple(guard), reduce=tuple(reduce))
    if "actor" in data:
        data["actor"] = str(data["actor"])
    return build_model(Order, data, where)


def pending_from_case(value: Any, where: str) -> PendingHit:
    """A provisional hit of the previous resolution (F13)."""
    data = dict(as_mapping(value, where))
    for key in ("id", "target", "attacker", "weapon"):
        if data.get(key) is not None:
            data[key] = str(data[key])
    return build_model(PendingHit, data, where)


def config_from_options(options: Mapping[str, Any]) -> RulesConfig:
    """The case's `options` (R2 flags and `collaborate`) over the ruling defaults."""
    return build_model(RulesConfig, dict(options), "options")


def build_model(model: type[M], data: dict[str, Any], where: str) -> M:
    try:
        return model(**data)
    except ValidationError as exc:
        raise CaseError(f"{where}: {describe_validation(exc)}") from exc
