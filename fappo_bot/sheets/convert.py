"""Case-file values to rules values: names, SP maps, orders, pending hits and options
(spec/cases.md); characters are in `characters.py`.

Every conversion raises `CaseError` with a message a case author can act on: the field at fault,
what was written, what is accepted. Names match case-insensitively and accept the seed's alternate
Trait names (RULINGS F2 Amb-4); they come out in their canonical form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from fappo_bot.rules import (
    FLOATING,
    SKILLS_BY_KEY,
    Action,
    ArmorType,
    LegendaryItem,
    LegendaryUpgrade,
    Order,
    PendingHit,
    Pledge,
    Reduction,
    RulesConfig,
    Sheet,
    Special,
    Tier,
    Trait,
    armor_by_name,
    special_by_name,
    trait_by_name,
)

M = TypeVar("M")


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
        # a model names an unknown field `extra_forbidden`, a dataclass `unexpected_keyword_argument`
        if err["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
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


def pool_key_or_name(name: Any) -> str:
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
        canonical = pool_key_or_name(key)
        out[canonical] = out.get(canonical, 0) + as_int(amount, f"{where}.{key}")
    return out


def enum_value(enum: Any, value: Any, where: str) -> Any:
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
    return build_model(Action, data, where)


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
    """The case's `options` (R2 flags and `collaborate`) over the ruling defaults.

    R2's own spellings are accepted besides the RulesConfig fields: `health_model_by_tier`
    ({tier: standard|pips}), `dismember_tiers` ({moderate: n, major: n} or [minor, moderate,
    major]), `healing_spell_layering: allowed | cooldown(SECONDS)`, `min_spell_difficulty: none`,
    `fodder_elimination_by_any_attacker: pcs_only`; enum values match case-insensitively.
    """
    data = dict(options)
    if "health_model_by_tier" in data:
        models = as_mapping(data.pop("health_model_by_tier"), "options.health_model_by_tier")
        data["pips_tiers"] = tuple(
            str(enum_value(Tier, tier, "options.health_model_by_tier").value)
            for tier, model in models.items() if str(model).strip().casefold() == "pips"
        )
    if "dismember_tiers" in data:
        tiers = data.pop("dismember_tiers")
        if isinstance(tiers, Mapping):
            for key in ("moderate", "major"):
                if key in tiers:
                    data[f"dismember_{key}_from"] = as_int(tiers[key], f"options.dismember_tiers.{key}")
        else:
            values = [as_int(v, "options.dismember_tiers") for v in as_list(tiers, "options.dismember_tiers")]
            if len(values) != 3:
                raise CaseError("options.dismember_tiers: give [minor, moderate, major] thresholds")
            data["dismember_moderate_from"], data["dismember_major_from"] = values[1], values[2]
    layering = data.get("healing_spell_layering")
    if isinstance(layering, str):
        text = layering.strip().casefold()
        if text == "allowed":
            data["healing_spell_layering"] = True
        elif text.startswith("cooldown"):
            digits = "".join(ch for ch in text if ch.isdigit())
            data["healing_spell_layering"] = False
            if digits:
                data["healing_spell_cooldown_seconds"] = int(digits)
    if isinstance(data.get("min_spell_difficulty"), str) and \
            data["min_spell_difficulty"].strip().casefold() in {"none", "null"}:
        data["min_spell_difficulty"] = None
    any_attacker = data.get("fodder_elimination_by_any_attacker")
    if isinstance(any_attacker, str):
        data["fodder_elimination_by_any_attacker"] = any_attacker.strip().casefold() not in {
            "pcs_only", "pcs only", "pc_only", "pcs", "false", "no"}
    for key, value in list(data.items()):
        if isinstance(value, str):
            data[key] = value.strip().casefold()
    return build_model(RulesConfig, data, "options")


# ---- sheets -------------------------------------------------------------------------------------
def upgrade_data(value: Any) -> Any:
    """A legendary upgrade as written, `kind` or `kind: detail`, as its fields (F22)."""
    if isinstance(value, str):
        kind, _, detail = value.partition(":")
        return {"kind": kind.strip(), "detail": detail.strip() or None}
    return value


def package_data(value: Any) -> Any:
    """A package with its abilities written as a list of names or `{name: rating}` (F23) in the
    rules' shape: a list of abilities."""
    if isinstance(value, dict) and "abilities" in value:
        raw = value["abilities"]
        if isinstance(raw, dict):
            return {**value, "abilities": [{"name": k, "rating": v} for k, v in raw.items()]}
        if isinstance(raw, list | tuple):
            return {**value, "abilities": [{"name": a} if isinstance(a, str) else a
                                           for a in raw]}
    return value


def legendary_data(value: Any) -> Any:
    """A legendary item with its upgrades in their written form read (`upgrade_data`)."""
    if isinstance(value, dict) and isinstance(value.get("upgrades"), list | tuple):
        return {**value, "upgrades": [upgrade_data(u) for u in value["upgrades"]]}
    return value


def sheet_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """A sheet as a user writes it (F1) with its shorthands in the rules' shape: the tier in any
    case, legendary upgrades as text, package abilities as names or `{name: rating}`. Anything
    else is left for the schema to refuse with its field."""
    out = dict(data)
    tier = out.get("tier")
    if isinstance(tier, str):
        out["tier"] = tier.strip().casefold()
    if isinstance(out.get("legendary"), list | tuple):
        out["legendary"] = [legendary_data(item) for item in out["legendary"]]
    if isinstance(out.get("packages"), list | tuple):
        out["packages"] = [package_data(package) for package in out["packages"]]
    return out


def sheet_from_data(data: Mapping[str, Any], where: str = "sheet") -> Sheet:
    """A rules `Sheet` from a sheet as written (`sheet_data`); CaseError naming the field."""
    return build_model(Sheet, sheet_data(data), where)


def legendary_item(item: str, *upgrades: str, **fields: object) -> LegendaryItem:
    """A legendary item from its written upgrades: `legendary_item("Longsword", "accuracy",
    "special: Fire", owner="Kael")`."""
    return build_model(LegendaryItem, {"item": item, "upgrades": [upgrade_data(u) for u in upgrades],
                                       **fields}, "legendary")


def upgrade(text: str) -> LegendaryUpgrade:
    """One legendary upgrade from its written form, `kind` or `kind: detail`."""
    return build_model(LegendaryUpgrade, upgrade_data(text), "upgrade")


#: the input schema of each value a case file builds (`build_model`)
_ADAPTERS: dict[object, TypeAdapter[Any]] = {}


def build_model(model: type[M], data: dict[str, Any], where: str) -> M:
    """A value of `model` (a pydantic model or a rules dataclass) validated from `data`."""
    try:
        adapter = _ADAPTERS.get(model)
        if adapter is None:
            adapter = _ADAPTERS[model] = TypeAdapter(model)
        made: M = adapter.validate_python(data)
        return made
    except ValidationError as exc:
        raise CaseError(f"{where}: {describe_validation(exc)}") from exc

