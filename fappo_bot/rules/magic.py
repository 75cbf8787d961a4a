"""General and Specific Magic: the effects table and the difficulties it gives (RULINGS F24-F26).

[F:L362] "Start with a base difficulty of 3 and add/subtract on the effects table". The table is
data (`EFFECTS`, one row per key of spec/cases.md, with the seed sentence and its modifier); the
functions below add it up, apply range, halve it for learned spells and price them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fappo_bot.rules.character import Character, Spell
from fappo_bot.rules.config import MagicMode
from fappo_bot.rules.data import TURN_SECONDS, Trait
from fappo_bot.rules.results import RulesError

BASE_DIFFICULTY = 3
"""[F:L362] "Start with a base difficulty of 3"."""

_FLAG = "flag"
_COUNT = "count"
_WEIGHT = "weight"
_LOAD = "load"


def _flag(key: str, value: Any) -> bool:
    """A yes/no row: `true`/`false` (or 1/0)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise RulesError(
        "bad-effect",
        f"Spell effect '{key}' is a yes/no effect and applies at most once: write "
        f"'{key}: true' (got {value!r}).",
        key,
    )


def _number(key: str, value: Any, *, integer: bool = True) -> float:
    """A non-negative count (integer) or amount (pounds, miles, years)."""
    number: float | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = float(value)
    elif isinstance(value, float) and not integer:
        number = value
    if number is None or number < 0:
        what = "a whole number, 0 or more" if integer else "a number, 0 or more"
        raise RulesError("bad-effect", f"Spell effect '{key}' needs {what} (got {value!r}).", key)
    return number


def _steps(amount: float, free: float, per: float) -> int:
    """Increments above a base amount, partial increments rounded UP (F24 Amb-1)."""
    return math.ceil(max(0.0, amount - free) / per)


def _load(key: str, value: Any, extra: tuple[str, ...] = ()) -> tuple[float, float]:
    """A `{living: lbs, unliving: lbs}` load (teleport, invisibility); `extra` keys allowed."""
    if not isinstance(value, Mapping):
        raise RulesError(
            "bad-effect",
            f"Spell effect '{key}' takes the weights moved as '{{living: lbs, unliving: lbs}}' "
            f"(got {value!r}).",
            key,
        )
    known = ("living", "unliving", *extra)
    unknown = [str(k) for k in value if str(k).casefold() not in known]
    if unknown:
        raise RulesError(
            "bad-effect",
            f"Spell effect '{key}' knows only {', '.join(repr(k) for k in known)}, not "
            f"{', '.join(repr(u) for u in unknown)}.",
            key,
        )
    lower = {str(k).casefold(): v for k, v in value.items()}
    living = _number(f"{key}.living", lower.get("living", 0), integer=False)
    unliving = _number(f"{key}.unliving", lower.get("unliving", 0), integer=False)
    return living, unliving


def _specials(key: str, value: Any) -> float:
    """Bought Specials: a count, or a list of Special names (their number counts)."""
    if isinstance(value, list | tuple):
        return float(len(value))
    return _number(key, value)


def _weighted(base: int, free: float, per: float) -> Callable[[str, Any], int]:
    """Rows priced `base + 1 per extra `per` lbs above `free` lbs`; 0 lbs means the row is unused."""

    def modifier(key: str, value: Any) -> int:
        weight = _number(key, value, integer=False)
        return 0 if weight == 0 else base + _steps(weight, free, per)

    return modifier


def _per_unit(rate: int) -> Callable[[str, Any], int]:
    return lambda key, value: rate * int(_number(key, value))


def _flat(amount: int) -> Callable[[str, Any], int]:
    return lambda key, value: amount if _flag(key, value) else 0


def _locus_speed(key: str, value: Any) -> int:
    speed = int(_number(key, value))
    if speed > 10:
        raise RulesError(
            "bad-effect", "A locus moves at most 10 Ranges per turn [F:L394]; 'locus_speed' "
            f"must be 0 to 10 (got {speed}).", key,
        )
    return speed


def _locus_teleport(key: str, value: Any) -> int:
    return math.ceil(_number(key, value, integer=False))


def _locus_time(key: str, value: Any) -> int:
    years = math.ceil(_number(key, value, integer=False))
    return 0 if years == 0 else 3 + 2 * (years - 1)


def _teleport_material(key: str, value: Any) -> int:
    living, unliving = _load(key, value, extra=("miles",))
    if living == 0 and unliving == 0:
        return 0
    # F24 Amb-3: each base capacity separately (50 lbs unliving, 20 lbs living), excess summed,
    # charged "+1 per additional 20 lbs of either type".
    excess = max(0.0, unliving - 50) + max(0.0, living - 20)
    # F24 Amb-4: beyond 1 mile (a GM allowance), the locus-teleport rate: +1 per extra mile.
    lower = {str(k).casefold(): v for k, v in value.items()}
    miles = _number(f"{key}.miles", lower.get("miles", 1), integer=False)
    return 3 + math.ceil(excess / 20) + max(0, math.ceil(miles) - 1)


def _invisibility(key: str, value: Any) -> int:
    living, unliving = _load(key, value)
    if living == 0 and unliving == 0:
        return 0
    excess = max(0.0, living - 50) + max(0.0, unliving - 200)
    return 3 + math.ceil(excess / 50)


def _specials_mod(key: str, value: Any) -> int:
    return 2 * int(_specials(key, value))


@dataclass(frozen=True)
class EffectRow:
    """One row of the effects table [F:L364-420]: its key, the seed's words and its price."""

    key: str
    seed: str
    modifier: Callable[[str, Any], int]
    negative: bool = False


EFFECTS: tuple[EffectRow, ...] = (
    EffectRow("caster_immune", "+2: The caster is immune to the effect of an area effect spell",
              _flat(2)),
    EffectRow("damage", "+1: Per Health Level of damage the effect does on a Solid Success",
              _per_unit(1)),
    EffectRow("heal", "+2: Per Health Level the spell heals a character", _per_unit(2)),
    EffectRow("specials", "+2: Per Special on a Great Success", _specials_mod),
    EffectRow("radius", "+2: Per Range radius of an area effect", _per_unit(2)),
    EffectRow("accuracy", "+1: Per extra point of accuracy", _per_unit(1)),
    EffectRow("shape_unliving",
              "+1: Changes the shape of 50 lbs of unliving material (+1 per extra 50 lbs)",
              _weighted(1, 50, 50)),
    EffectRow("shape_living", "... or 10 lbs of living material (+1 per extra 10 lbs)",
              _weighted(1, 10, 10)),
    EffectRow("mind_insert", "+3: Inserts something (a message, thought, impulse, emotion, etc.) "
              "into the mind of a living being", _flat(3)),
    EffectRow("animate", "+1: Independently animates 50 lbs of unliving material for one minute "
              "(+1 per extra 50 lbs)", _weighted(1, 50, 50)),
    EffectRow("create_unliving", "+2: Creates 50 lbs of unliving material (+1 per extra 50 lbs)",
              _weighted(2, 50, 50)),
    EffectRow("create_living",
              "+2: Creates a living being weighing less than 10 lbs (+1 per extra 20 lbs)",
              _weighted(2, 10, 20)),
    EffectRow("touch", "-1: Requires the caster to touch the target", _flat(-1), negative=True),
    EffectRow("traceable", "-1: Is easily traced to the caster by any observer", _flat(-1),
              negative=True),
    EffectRow("locus", "+1: Creates an invisible and intangible \"locus\" upon which other "
              "magical effects can be layered, with a maximum lifespan of 1 minute", _flat(1)),
    EffectRow("locus_speed", "+1: Gives a locus the ability to move 1 Range per turn (+1 per "
              "additional Range speed, up to 10 Ranges/turn)", _locus_speed),
    EffectRow("locus_teleport",
              "+1: Teleports a locus up to 1 mile instantly (+1 per additional mile)",
              _locus_teleport),
    EffectRow("locus_time", "+3: Transfers a locus up to one year into the past or future "
              "(+2 per additional year)", _locus_time),
    EffectRow("delay", "+1: Time delay before the spell takes effect, up to a full minute",
              _flat(1)),
    EffectRow("trigger_wait", "+2: Spell \"waits\" ten minutes until triggered by a specific "
              "nearby action", _flat(2)),
    EffectRow("project_senses", "+2: Project one physical sense or mundane ability (like speech) "
              "into an object or locus (+2 per additional sense)", _per_unit(2)),
    EffectRow("teleport_material", "+3: Teleports 50 lbs of unliving material or 20 lbs of living "
              "material up to 1 mile instantly (+1 per additional 20 lbs of either type of "
              "material)", _teleport_material),
    EffectRow("invisibility", "+3: Causes up to 50 lbs of living or 200 lbs of unliving material "
              "to become invisible (+1 per additional 50 lbs)", _invisibility),
    EffectRow("duration", "+1: Doubles any spell duration (+1 = x2, +2 = x4, +3 = x8, +4 = x16, "
              "etc.)", _per_unit(1)),
    EffectRow("loud", "-1: Loud and flashy spell effects", _flat(-1), negative=True),
    EffectRow("conc_2turns", "-1: Takes two full turns of uninterrupted concentration to cast",
              _flat(-1), negative=True),
    EffectRow("conc_minute", "-2: Takes a full minute of uninterrupted concentration to cast",
              _flat(-2), negative=True),
    EffectRow("conc_hour", "-3: Takes a full hour of uninterrupted concentration to cast",
              _flat(-3), negative=True),
    EffectRow("conc_day", "-4: Takes a day or more of uninterrupted concentration to cast",
              _flat(-4), negative=True),
)
EFFECTS_BY_KEY: dict[str, EffectRow] = {row.key: row for row in EFFECTS}

#: Base duration of a sustained effect: 1 minute = 6 turns (F24 Amb-6), doubled per `duration`.
BASE_DURATION_TURNS = 60 // TURN_SECONDS

#: The concentration rows, with the casting time in turns (F24 Amb-5: a minute = 6 turns).
CONCENTRATION_TURNS: dict[str, int] = {
    "conc_2turns": 2,
    "conc_minute": 60 // TURN_SECONDS,
    "conc_hour": 3600 // TURN_SECONDS,
    "conc_day": 86400 // TURN_SECONDS,
}


def _normalized(effects: Mapping[str, Any]) -> dict[str, Any]:
    """The effects keyed by table key; an unknown key is refused with the list of known ones."""
    out: dict[str, Any] = {}
    for raw_key, value in effects.items():
        key = str(raw_key).strip().casefold()
        if key not in EFFECTS_BY_KEY:
            hint = (
                " Range is not an effect: give the Ranges to the target separately."
                if key in ("range", "ranges")
                else ""
            )
            raise RulesError(
                "unknown-name",
                f"'{raw_key}' is not a spell effect.{hint} Known effects: "
                f"{', '.join(EFFECTS_BY_KEY)}.",
                str(raw_key),
            )
        out[key] = value
    chosen = [k for k in CONCENTRATION_TURNS if k in out and _flag(k, out[k])]
    if len(chosen) > 1:
        raise RulesError(
            "concentration-conflict",
            f"A spell takes one concentration time, not several: pick one of "
            f"{', '.join(chosen)} (F24 Amb-5).",
            chosen[1],
        )
    return out


def effect_modifiers(effects: Mapping[str, Any]) -> dict[str, int]:
    """Each effect's modifier from the table (F24 Rule); raises RulesError on a bad effect."""
    norm = _normalized(effects)
    return {key: EFFECTS_BY_KEY[key].modifier(key, value) for key, value in norm.items()}


def general_difficulty(effects: Mapping[str, Any]) -> int:
    """D_general = 3 + the modifiers of the effects, range excluded (F24).

    Weights round up (Amb-1), each negative row applies at most once (Amb-8) and the
    concentration rows are mutually exclusive (Amb-5). No floor here: the floor of 1 applies to
    the difficulty actually cast (Amb-7).
    """
    return BASE_DIFFICULTY + sum(effect_modifiers(effects).values())


def _floor(value: int, min_difficulty: int | None) -> int:
    return value if min_difficulty is None else max(min_difficulty, value)


def _check_ranges(ranges: int) -> None:
    if ranges < 0:
        raise RulesError("bad-effect", f"Ranges to the effect cannot be negative (got {ranges}).",
                         "ranges")


def cast_difficulty(
    d_general: int,
    ranges: int,
    min_difficulty: int | None = 1,
    *,
    accuracy: int = 0,
    flooded: bool = False,
) -> int:
    """D_cast = max(1, D_general + 1 per Range) for General Magic (F24, Amb-7).

    `accuracy` is ad-hoc accuracy added at cast time, 1:1 (F25); `flooded` is the +2 for a
    message to a mind "flooded with emotion or sensory overload" [F:L424].
    """
    _check_ranges(ranges)
    return _floor(d_general + ranges + accuracy + (2 if flooded else 0), min_difficulty)


def learned_difficulty(d_general: int) -> int:
    """A learned spell's base difficulty: floor(D_nr / 2) (F26, [F:L444] "round down")."""
    return d_general // 2


def learned_cast_difficulty(
    d_general: int,
    ranges: int,
    min_difficulty: int | None = 1,
    *,
    accuracy: int = 0,
    flooded: bool = False,
) -> int:
    """TN_cast of a learned spell: max(1, floor(D_nr / 2) + 1 per Range) (F26): the General Magic
    casting difficulty of the halved base."""
    return cast_difficulty(learned_difficulty(d_general), ranges, min_difficulty,
                           accuracy=accuracy, flooded=flooded)


def spell_cost(learned: int) -> int:
    """CC to learn a spell: ceil(learned / 4), never below 0 (F26 Amb-1, [F:L446] "round up")."""
    return max(0, math.ceil(learned / 4))


def spell_general_difficulty(spell: Spell) -> int:
    """A spell's D_nr: computed from its effects when given, else its stated difficulty (F26)."""
    if spell.effects is not None:
        return general_difficulty(spell.effects)
    if spell.difficulty is not None:
        return int(spell.difficulty)
    raise RulesError("bad-effect", f"Spell '{spell.name}' needs its difficulty or its effects.",
                     spell.name)


def learned_spell_cost(spell: Spell) -> int:
    """CC to learn this spell: ceil(floor(D_nr / 2) / 4) (F26)."""
    return spell_cost(learned_difficulty(spell_general_difficulty(spell)))


@dataclass(frozen=True)
class SpellProfile:
    """What the resolver needs to know about a spell's payload (F24, F25)."""

    difficulty: int
    #: SS damage of the attack stage (F25, F12); 0 for no damage
    damage: int = 0
    #: Specials bought, added on a Great Success of the attack stage
    specials: int = 0
    #: accuracy bought in the difficulty (F25: added to the attack total)
    accuracy: int = 0
    heal: int = 0
    mind: bool = False
    radius: int = 0
    caster_immune: bool = False
    touch: bool = False
    #: turns of uninterrupted concentration to cast (0: an ordinary action) (F24 Amb-5)
    concentration_turns: int = 0
    #: the duration doublings bought (x 2^k, F24 Amb-6)
    duration_doublings: int = 0
    #: a spell known only by its difficulty has no attack stage (spec/cases.md)
    known_effects: bool = True

    @property
    def attacks(self) -> bool:
        """Whether the spell has an attack stage: damage, Specials or mind magic (F25)."""
        return self.known_effects and (self.damage > 0 or self.specials > 0 or self.mind)

    @property
    def area(self) -> bool:
        """An area effect (radius bought)."""
        return self.radius > 0

    @property
    def duration_factor(self) -> int:
        """The multiplier of the base duration: 2^k [F:L410]."""
        return int(2**self.duration_doublings)

    @property
    def duration_turns(self) -> int:
        """Turns a sustained effect lasts: 1 minute x 2^k (F24 Amb-6); instantaneous payloads
        (damage, healing, teleport) ignore it."""
        return BASE_DURATION_TURNS * self.duration_factor


def spell_profile(effects: Mapping[str, Any]) -> SpellProfile:
    """The payload of a General Magic effect list (F24, F25); raises RulesError on a bad effect."""
    norm = _normalized(effects)
    difficulty = general_difficulty(norm)
    conc = next((t for k, t in CONCENTRATION_TURNS.items() if k in norm and _flag(k, norm[k])), 0)

    def count(key: str) -> int:
        return int(_number(key, norm[key])) if key in norm else 0

    return SpellProfile(
        difficulty=difficulty,
        damage=count("damage"),
        specials=int(_specials("specials", norm["specials"])) if "specials" in norm else 0,
        accuracy=count("accuracy"),
        heal=count("heal"),
        mind="mind_insert" in norm and _flag("mind_insert", norm["mind_insert"]),
        radius=count("radius"),
        caster_immune="caster_immune" in norm and _flag("caster_immune", norm["caster_immune"]),
        touch="touch" in norm and _flag("touch", norm["touch"]),
        concentration_turns=conc,
        duration_doublings=count("duration"),
    )


#: Mood difficulties of mind magic [F:L422] (a GM input; these are the seed's anchors).
MOOD_LOGICAL = 5
MOOD_INCONSISTENT = 10
MOOD_WILDLY_INCONSISTENT = 15
MOOD_WARY_TRAITS = frozenset({Trait.VIGILANT, Trait.SAGACIOUS})


def suggested_mood(base: int, target: Character) -> int:
    """A suggestion for the GM's mood difficulty M (F25 Amb-4): +2 when the target owns Vigilant
    or Sagacious ("even higher for Vigilant or Sagacious foes" [F:L422]); never automatic."""
    return base + (2 if any(target.owns(t) for t in MOOD_WARY_TRAITS) else 0)


def profile_of(spell: Spell) -> SpellProfile:
    """The profile of a learned spell; one given only by difficulty has no attack stage."""
    if spell.effects is not None:
        return spell_profile(spell.effects)
    return SpellProfile(difficulty=spell_general_difficulty(spell), known_effects=False)


def magic_mode_refusal(mode: MagicMode, learned: bool) -> tuple[str, str] | None:
    """F26 Amb-3: "Can a caster who has learned a spell still use General Magic? Config
    `magic_mode` in {general, specific, both}". A cast of the kind the game leaves out is refused:
    (message, hint), or None when the game allows it. `learned`: the cast names a learned spell
    (else it gives General Magic effects inline)."""
    if mode is MagicMode.SPECIFIC and not learned:
        return ("This game uses Specific Magic only (magic_mode, F26 Amb-3): a cast names a "
                "learned spell, not General Magic effects.",
                "Cast one of your learned spells [F:L444].")
    if mode is MagicMode.GENERAL and learned:
        return ("This game uses General Magic only (magic_mode, F26 Amb-3): spells are not "
                "learned, so a cast gives its effects.",
                "Give the spell's effects inline, cast at its General Magic difficulty "
                "[F:L362].")
    return None
