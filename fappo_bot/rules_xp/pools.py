"""Dice pools (RULINGS X1, X2, X6, X8): how many dice a test rolls.

    skill           4 + rank (or an NPC's rating) + characteristic level + mods + rows
    similar/related the same for the substitute skill, then -1d / -2d            (X8)
    characteristic  1 + level + mods + rows (a default without the skill, if the GM permits)
    raw             4 + level + mods + rows (a characteristic test)               (X1)
    rows            difficulty + time + tools + illumination + the GM's adjustment  (X6)

The pool is reported unclamped: a pool <= 0 can be declared and fails without dice (X2 Amb-4).
Missing tools (X6 Amb-3) or a forbidden default (X8) cannot be rolled at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fappo_bot.rules_xp.errors import OutOfRange, XpError
from fappo_bot.rules_xp.tables import LEVEL_MAX, LEVEL_MIN, Characteristic, Relevance

BASE_POOL = 4
"""X2: "Everyone who gains an appropriate Skill will have a base dice pool of 4 dice." [X:L151]"""
CHARACTERISTIC_DEFAULT_BASE = 1
"""X8: "Defaulting to a characteristic ... will be with 1d, plus any levels." [X:L357]"""


class PoolTest(str, Enum):
    """The kind of test a pool is for (X1, X2, X8)."""

    SKILL = "skill"
    RAW = "raw"
    SIMILAR = "similar"
    RELATED = "related"
    CHARACTERISTIC = "characteristic"

    @property
    def is_default(self) -> bool:
        """Whether the roller lacks the proper skill (and so its Xposure, X10 Amb-2)."""
        return self in {PoolTest.SIMILAR, PoolTest.RELATED, PoolTest.CHARACTERISTIC}


#: X8: "Defaulting to a similar Skills will be at -1d penalty. / ... related Skills ... -2d."
DEFAULT_PENALTY = {PoolTest.SIMILAR: -1, PoolTest.RELATED: -2}


@dataclass(frozen=True, slots=True)
class PoolSpec:
    """What a pool is made of. `rank` (a PC's skill rank) and `rating` (an NPC's, X2 Amb-2) are
    dice; `tools` None means the tools are missing; `illumination` is in levels of penalty;
    `start` replaces base, rank, level and mods ("He has 6d of Stealth")."""

    test: PoolTest = PoolTest.SKILL
    characteristic: Characteristic | None = None
    level: int = 0
    rank: int | None = None
    rating: int | None = None
    start: int | None = None
    mods: int = 0
    difficulty: int = 0
    time: int = 0
    tools: int | None = 0
    illumination: int = 0
    relevance: Relevance = Relevance.FULL
    senses: int = 0
    adjust: int = 0
    permitted: bool = True


@dataclass(frozen=True, slots=True)
class PoolParts:
    """The breakdown of a pool, term by term."""

    base: int
    rank: int
    level: int
    mods: int
    default: int
    difficulty: int
    time: int
    tools: int
    illumination: int
    adjust: int

    @property
    def total(self) -> int:
        """The sum of the terms."""
        return (self.base + self.rank + self.level + self.mods + self.default + self.difficulty
                + self.time + self.tools + self.illumination + self.adjust)


@dataclass(frozen=True, slots=True)
class Pool:
    """A computed pool: `pool` is None when it cannot be rolled (`why` says so)."""

    pool: int | None
    can_roll: bool
    auto_fail: bool
    parts: PoolParts
    why: str | None = None


def illumination_dice(level: int, senses: int = 0, relevance: Relevance = Relevance.FULL) -> int:
    """X6 Amb-4: senses cancel whole levels, then `reduced` halves the penalty toward zero (Poor
    -2 becomes -1, Dim -1 becomes 0) and `none` removes it."""
    if not 0 <= level <= 4:
        raise OutOfRange(f"illumination level {level} is outside 0 (good) to 4 (dark)")
    if senses < 0:
        raise OutOfRange("senses cancel a number of levels, never fewer than 0")
    penalty = max(0, level - senses)
    if relevance is Relevance.NONE:
        return 0
    if relevance is Relevance.REDUCED:
        penalty //= 2
    return -penalty


def compute_pool(spec: PoolSpec) -> Pool:
    """The pool of a test (see the module doc)."""
    if spec.rank is not None and spec.rating is not None:
        raise XpError("give a rank (a player's skill) or a rating (an NPC's), not both")
    if spec.test in {PoolTest.RAW, PoolTest.CHARACTERISTIC} and (spec.rank is not None
                                                        or spec.rating is not None):
        raise XpError(f"a {spec.test.value} test has no skill, so no rank or rating")
    if not LEVEL_MIN <= spec.level <= LEVEL_MAX:
        raise OutOfRange(f"a characteristic level runs from {LEVEL_MIN} to +{LEVEL_MAX}, "
                         f"not {spec.level}")
    if spec.start is not None:
        base, rank, level, mods = spec.start, 0, 0, 0
    else:
        base = CHARACTERISTIC_DEFAULT_BASE if spec.test is PoolTest.CHARACTERISTIC else BASE_POOL
        rank = spec.rank if spec.rank is not None else (spec.rating or 0)
        level, mods = spec.level, spec.mods
    parts = PoolParts(
        base=base, rank=rank, level=level, mods=mods, default=DEFAULT_PENALTY.get(spec.test, 0),
        difficulty=spec.difficulty, time=spec.time, tools=spec.tools or 0,
        illumination=illumination_dice(spec.illumination, spec.senses, spec.relevance),
        adjust=spec.adjust,
    )
    if spec.tools is None:
        return Pool(None, False, False, parts,
                    "the task needs tools and there are none (X6 Amb-3): it cannot be attempted")
    if spec.test is PoolTest.CHARACTERISTIC and not spec.permitted:
        return Pool(None, False, False, parts,
                    "the GM does not allow a characteristic default here (X8): no roll")
    total = parts.total
    return Pool(total, True, total <= 0, parts)
