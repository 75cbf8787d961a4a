"""Xp case fields to rules values (`../shared/spec/cases-xp.md`): rollers, pools, superiority
levels, options. Every problem raises an `XpError` whose code the case can expect: `bad-case` for
a malformed field, `unknown-name`, `out-of-range`, `bad-dice`, `not-specified`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fappo_bot.rules_xp.config import FloorMode, RelaunchBonus, Who, XpConfig
from fappo_bot.rules_xp.dice import DiceStream
from fappo_bot.rules_xp.errors import OutOfRange, UnknownName, XpError
from fappo_bot.rules_xp.pools import Pool, PoolParts, PoolSpec, PoolTest, compute_pool
from fappo_bot.rules_xp.rollers import Roller
from fappo_bot.rules_xp.tables import (
    DIFFICULTY,
    ILLUMINATION,
    RATING,
    SKILL_RANK,
    TIME,
    TOOLS,
    Relevance,
    Row,
    characteristic,
    key,
    level_of,
    sl_named,
)
from fappo_bot.rules_xp.traits import SlSources
from fappo_bot.words import noun

ROLLER_KEYS = frozenset({"name", "who", "heroic", "pool", "sl", "dice", "need", "xposure", "luck",
                         "relaunch"})


def bad(message: str) -> XpError:
    """A malformed case (`bad-case`)."""
    return XpError(message)


def mapping(value: Any, where: str) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise bad(f"{where}: expected a mapping, got {value!r}")
    return value


def listing(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise bad(f"{where}: expected a list, got {value!r}")
    return list(value)


def integer(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value.strip())
        raise bad(f"{where}: expected a whole number, got {value!r}")
    return value


def flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise bad(f"{where}: expected true or false, got {value!r}")
    return value


def text(value: Any, where: str) -> str:
    if value is None or isinstance(value, bool | Mapping | list):
        raise bad(f"{where}: expected a name, got {value!r}")
    return str(value).strip()


def known_fields_only(raw: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    """Refuse fields the format does not know (a typo would otherwise pass silently)."""
    unknown = sorted(set(map(str, raw)) - allowed)
    if unknown:
        raise bad(f"{where}: unknown {noun(len(unknown), 'field')} {', '.join(unknown)}")


# ---- options -----------------------------------------------------------------------------------
OPTION_KEYS = frozenset({"xp_sl_floor_mode", "xp_tiebreak_max_iterations",
                         "xp_collateral_relaunch_bonus", "xp_heroic_default",
                         "xp_ones_cancel_successes"})


def config_from(raw: Any) -> XpConfig:
    """The R2 Xp flags a case's `options` sets (the rest keep their defaults)."""
    options = mapping(raw, "options")
    known_fields_only(options, OPTION_KEYS, "options")
    values: dict[str, Any] = {}
    if "xp_sl_floor_mode" in options:
        values["sl_floor_mode"] = _choice(FloorMode, options["xp_sl_floor_mode"],
                                          "options.xp_sl_floor_mode")
    if "xp_tiebreak_max_iterations" in options:
        values["tiebreak_max_iterations"] = integer(options["xp_tiebreak_max_iterations"],
                                                    "options.xp_tiebreak_max_iterations")
    if "xp_collateral_relaunch_bonus" in options:
        values["collateral_relaunch_bonus"] = _choice(
            RelaunchBonus, options["xp_collateral_relaunch_bonus"],
            "options.xp_collateral_relaunch_bonus")
    if "xp_heroic_default" in options:
        values["heroic_pc"], values["heroic_npc"] = _heroic_default(options["xp_heroic_default"])
    if "xp_ones_cancel_successes" in options:
        values["ones_cancel_successes"] = flag(options["xp_ones_cancel_successes"],
                                               "options.xp_ones_cancel_successes")
    return XpConfig(**values)


def _choice(enum: Any, value: Any, where: str) -> Any:
    wanted = key(text(value, where)).replace("-", "_")
    for member in enum:
        if member.value == wanted:
            return member
    raise bad(f"{where}: {value!r} is not one of {', '.join(m.value for m in enum)}")


def _heroic_default(value: Any) -> tuple[bool, bool]:
    """`{pc: true, npc: false}`, one boolean for everyone, or `pcs` / `all` / `none`."""
    where = "options.xp_heroic_default"
    if isinstance(value, bool):
        return value, value
    if isinstance(value, Mapping):
        known_fields_only(value, frozenset({"pc", "npc"}), where)
        return (flag(value.get("pc", True), f"{where}.pc"),
                flag(value.get("npc", False), f"{where}.npc"))
    words = {"pcs": (True, False), "pc": (True, False), "all": (True, True),
             "none": (False, False), "npcs": (False, True), "npc": (False, True)}
    found = words.get(key(text(value, where)))
    if found is None:
        raise bad(f"{where}: give {{pc: true, npc: false}}, true/false, pcs, all or none")
    return found


# ---- superiority levels ------------------------------------------------------------------------
SL_KEYS = frozenset({"advantages", "impediments", "passions", "flaws", "adjust"})


def superiority(value: Any, where: str = "sl") -> int:
    """A level by name, a number, or its sources (X3, X15)."""
    if value is None:
        return 0
    if isinstance(value, Mapping):
        known_fields_only(value, SL_KEYS, where)
        counts = {k: integer(v, f"{where}.{k}") for k, v in value.items()}
        return SlSources(**counts).sl
    if isinstance(value, bool):
        raise bad(f"{where}: expected a superiority level, got {value!r}")
    if isinstance(value, int):
        return value
    word = text(value, where)
    if word.lstrip("+-").isdigit():
        return int(word)
    return sl_named(word)


# ---- pools -------------------------------------------------------------------------------------
POOL_KEYS = frozenset({"test", "characteristic", "level", "rank", "rating", "start", "mods",
                       "difficulty", "time", "tools", "illumination", "relevance", "senses",
                       "adjust", "permitted"})


def _row(table: Row, value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        if not low <= value <= high:
            raise OutOfRange(f"{where}: {value} is outside {low}..{high}")
        return value
    try:
        return table(text(value, where))
    except UnknownName as exc:
        raise UnknownName(f"{where}: {exc}") from None


def _mods(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, Mapping):
        return sum(integer(v, f"pool.mods.{k}") for k, v in value.items())
    if isinstance(value, list | tuple):
        return len(value)
    count = integer(value, "pool.mods")
    if count < 0:
        raise OutOfRange("pool.mods: a count of Mods cannot be negative")
    return count


def pool_spec(raw: Mapping[str, Any]) -> PoolSpec:
    """A pool spec as `cases-xp.md` writes it."""
    known_fields_only(raw, POOL_KEYS, "pool")
    test_word = key(text(raw.get("test", "skill"), "pool.test"))
    try:
        test = PoolTest(test_word)
    except ValueError:
        raise bad(f"pool.test: {raw.get('test')!r} is not one of "
                  f"{', '.join(t.value for t in PoolTest)}") from None
    char = characteristic(text(raw["characteristic"], "pool.characteristic")) \
        if raw.get("characteristic") is not None else None
    level = 0
    if raw.get("level") is not None:
        value = raw["level"]
        if isinstance(value, int) and not isinstance(value, bool):
            level = value
        else:
            found, level = level_of(text(value, "pool.level"), char)
            char = char or found
    rank = _row(SKILL_RANK, raw["rank"], "pool.rank", 0, 2) if raw.get("rank") is not None \
        else None
    rating = _row(RATING, raw["rating"], "pool.rating", -2, 2) \
        if raw.get("rating") is not None else None
    tools_value = raw.get("tools")
    tools: int | None = 0
    if tools_value is not None:
        tools = None if key(text(tools_value, "pool.tools")) == "missing" \
            else _row(TOOLS, tools_value, "pool.tools", -2, 1)
    relevance_word = key(text(raw.get("relevance", "full"), "pool.relevance"))
    try:
        relevance = Relevance(relevance_word)
    except ValueError:
        raise bad(f"pool.relevance: {raw.get('relevance')!r} is not full, reduced or none") \
            from None
    return PoolSpec(
        test=test, characteristic=char, level=level, rank=rank, rating=rating,
        start=integer(raw["start"], "pool.start") if raw.get("start") is not None else None,
        mods=_mods(raw.get("mods")),
        difficulty=_row(DIFFICULTY, raw.get("difficulty", "routine"), "pool.difficulty", -4, 1),
        time=_row(TIME, raw.get("time", "none"), "pool.time", -4, 2),
        tools=tools,
        illumination=_row(ILLUMINATION, raw.get("illumination", "good"), "pool.illumination",
                          0, 4),
        relevance=relevance,
        senses=integer(raw.get("senses", 0), "pool.senses"),
        adjust=integer(raw.get("adjust", 0), "pool.adjust"),
        permitted=flag(raw.get("permitted", True), "pool.permitted"),
    )


@dataclass(frozen=True)
class PoolInput:
    """A roller's pool as given: the computed pool and, for a spec, its test."""

    pool: Pool
    test: PoolTest | None


def pool_input(value: Any) -> PoolInput:
    """An integer (the final pool) or a pool spec."""
    if isinstance(value, Mapping):
        spec = pool_spec(value)
        return PoolInput(compute_pool(spec), spec.test)
    if value is None:
        raise bad("a roller needs a `pool` (a number of dice or a pool spec)")
    number = integer(value, "pool")
    parts = PoolParts(number, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return PoolInput(Pool(number, True, number <= 0, parts), None)


# ---- rollers -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollerInput:
    """A roller read from a case, with its dice stream and the fields around it."""

    roller: Roller
    stream: DiceStream
    pool: PoolInput
    need: int | None
    luck: int
    relaunches: int


def roller(raw: Mapping[str, Any], config: XpConfig, where: str, *, default_who: Who = Who.PC,
           needs_name: bool = False, extra_keys: frozenset[str] = frozenset()) -> RollerInput:
    """One roller (`name, who, heroic, pool, sl, dice`, and where they apply `need, xposure,
    luck, relaunch`)."""
    known_fields_only(raw, ROLLER_KEYS | extra_keys, where)
    name = raw.get("name")
    if name is None or str(name).strip() == "":
        if needs_name:
            raise bad(f"{where}: a roller here needs a `name`")
        name = where
    name = text(name, f"{where}.name")
    who_word = key(text(raw.get("who", default_who.value), f"{where}.who"))
    try:
        who = Who(who_word)
    except ValueError:
        raise bad(f"{where}.who: {raw.get('who')!r} is not pc or npc") from None
    heroic = flag(raw["heroic"], f"{where}.heroic") if raw.get("heroic") is not None \
        else config.heroic_default(who)
    pool = pool_input(raw.get("pool"))
    try:
        stream = DiceStream([_die(d, f"{where}.dice") for d in listing(raw.get("dice"),
                                                                      f"{where}.dice")], name)
    except XpError as exc:
        exc.name = name
        raise
    test = pool.test
    xposure = flag(raw.get("xposure", True), f"{where}.xposure") and not (
        test is not None and test.is_default)
    need = integer(raw["need"], f"{where}.need") if raw.get("need") is not None else None
    luck = integer(raw.get("luck", 0), f"{where}.luck")
    relaunch = raw.get("relaunch", False)
    relaunches = (1 if relaunch else 0) if isinstance(relaunch, bool) \
        else integer(relaunch, f"{where}.relaunch")
    if luck < 0 or relaunches < 0:
        raise OutOfRange(f"{where}: luck and relaunch cannot be negative")
    return RollerInput(
        Roller(name, stream, pool.pool.pool, superiority(raw.get("sl"), f"{where}.sl"), who,
               heroic, xposure),
        stream, pool, need, luck, relaunches,
    )


def _die(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise XpError(f"{where}: a die shows {value!r}; faces are whole numbers from 1 to 6",
                      code="bad-dice")
    return value


def names_unique(rollers: Sequence[RollerInput], where: str) -> None:
    seen: set[str] = set()
    for entry in rollers:
        name = key(entry.roller.name)
        if name in seen:
            raise bad(f"{where}: the name {entry.roller.name!r} is used twice")
        seen.add(name)
