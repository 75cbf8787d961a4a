"""The core roll of Xp (RULINGS X0), with Superiority Levels (X3), 1s (X4) and heroic dice (X5).

`roll(pool, sl, heroic=..., dice=...)` takes the base pool left to right, then one heroic bonus
die per natural 6 of the base (bonus dice never add more), and counts successes: faces at or above
the level's target, or `floor(#6 / k)` at 6xk. 1s never cancel successes (X4 Amb-1): more 1s than
successes is a fumble, otherwise the 1s are exposures. It returns a `RollRecord` (data only).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, FloorMode, XpConfig
from fappo_bot.rules_xp.dice import Dice
from fappo_bot.rules_xp.tables import DOMINANT, HOPELESS


class RollOutcome(str, Enum):
    """X4: a fumble (o > s), a success (not a fumble and s >= need), or a failure (the rest)."""

    SUCCESS = "success"
    FAILURE = "failure"
    FUMBLE = "fumble"


class Mode(str, Enum):
    """How a roll came out: rolled, or one of the ways a roll takes no dice."""

    ROLL = "roll"
    NO_DICE = "no-dice"                # pool <= 0 (X2 Amb-4)
    ABOVE_DOMINANT = "above-dominant"  # SL >= +4 (X3 Amb-1)
    BELOW_FLOOR = "below-floor"        # below Hopeless with xp_sl_floor_mode auto_fail
    CONCEDED = "conceded"              # X13
    CHAIN_BROKEN = "chain-broken"      # a collateral member after a break (X11)
    CANNOT_ROLL = "cannot-roll"        # no tools, a default the GM forbids (X6 Amb-3, X8)


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One roll, every field of `cases-xp.md`'s roll record. `sl` is the effective level (after
    the floor); `target` its label (`5-6`, `6`, `6x2`, `auto`, `none`)."""

    pool: int
    sl: int
    target: str
    need: int
    rolled: bool
    mode: Mode
    base: tuple[int, ...]
    bonus: tuple[int, ...]
    s: int
    o: int
    fumble: bool
    exposures: int
    outcome: RollOutcome
    special: int

    @property
    def success(self) -> bool:
        """`success(r, need)` of X0: not a fumble and enough successes."""
        return self.outcome is RollOutcome.SUCCESS

    @property
    def faces(self) -> tuple[int, ...]:
        """Base and bonus dice together, as consumed."""
        return self.base + self.bonus


def threshold(sl: int) -> int:
    """The face a die needs at a level from Poor (6) to Dominant (2-6); 0 at 6xk (X3)."""
    return 5 - sl if -1 <= sl <= DOMINANT else 0


def sixes_per_success(sl: int) -> int:
    """k of 6xk: 2 at Weak, 3 at Hopeless, 4 at -4 with `extrapolate`...; 1 from Poor up."""
    return -sl if sl <= -2 else 1


def effective_sl(sl: int, config: XpConfig = DEFAULT_CONFIG) -> int | None:
    """The level a roll uses after the floor (X3 Amb-2): clamped to Hopeless by default, kept with
    `extrapolate`, or None (no roll, a failure) with `auto_fail`."""
    if sl >= HOPELESS or config.sl_floor_mode is FloorMode.EXTRAPOLATE:
        return sl
    if config.sl_floor_mode is FloorMode.CLAMP:
        return HOPELESS
    return None


def target_label(sl: int | None) -> str:
    """`2-6` ... `6`, `6x2`, `6x3` (`6x4`... extrapolated), `auto` above Dominant, `none` below
    the floor."""
    if sl is None:
        return "none"
    if sl > DOMINANT:
        return "auto"
    if sl >= -1:
        face = threshold(sl)
        return "6" if face == 6 else f"{face}-6"
    return f"6x{-sl}"


def count_successes(faces: tuple[int, ...], sl: int) -> int:
    """Successes of one roll's faces at a rolled level (bonus dice included)."""
    face = threshold(sl)
    if face:
        return sum(1 for f in faces if f >= face)
    return faces.count(6) // -sl


def unrolled(pool: int, sl: int, target: str, need: int, mode: Mode, s: int = 0) -> RollRecord:
    """A roll that takes no dice: no 1s, so never a fumble; a success only if `s >= need`."""
    outcome = RollOutcome.SUCCESS if s >= need and s > 0 else RollOutcome.FAILURE
    special = s - need if outcome is RollOutcome.SUCCESS else 0
    return RollRecord(pool, sl, target, need, False, mode, (), (), s, 0, False, 0, outcome,
                      special)


def roll(pool: int, sl: int = 0, *, heroic: bool, dice: Dice, need: int = 1,
         config: XpConfig = DEFAULT_CONFIG) -> RollRecord:
    """ROLL of RULINGS X0. The pool is checked first (<= 0: no dice, a failure, X2 Amb-4), then
    the floor (X3 Amb-2), then above Dominant (no dice, every die a success, X3 Amb-1)."""
    level = effective_sl(sl, config)
    if pool <= 0:
        shown = sl if level is None else level
        return unrolled(pool, shown, target_label(level), need, Mode.NO_DICE)
    if level is None:
        return unrolled(pool, sl, "none", need, Mode.BELOW_FLOOR)
    if level > DOMINANT:
        return unrolled(pool, level, "auto", need, Mode.ABOVE_DOMINANT, s=pool)
    base = dice.take(pool)
    bonus = dice.take(base.count(6)) if heroic and 6 in base else ()
    faces = base + bonus if bonus else base
    s = count_successes(faces, level)
    o = faces.count(1)
    fumble = o > s
    outcome = (RollOutcome.FUMBLE if fumble
               else RollOutcome.SUCCESS if s >= need else RollOutcome.FAILURE)
    return RollRecord(
        pool, level, target_label(level), need, True, Mode.ROLL, base, bonus, s, o, fumble,
        0 if fumble else o, outcome, s - need if outcome is RollOutcome.SUCCESS else 0,
    )
