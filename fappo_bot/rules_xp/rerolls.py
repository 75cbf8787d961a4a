"""Rerolls over time (RULINGS X9).

"The player then gets to roll all their dice after the first time unit expires. If they do not
achieve sufficient successes from that roll they may invest another time unit in the task and
re-roll only those dice that were not successes, with the exception that any 1s rolled are
permanently lost." [X:L365]

Each unit is a fresh roll with its own heroic bonus dice, which count for that unit only (Amb-2);
base successes leave the pool, base 1s are lost, no fumble test is made (Amb-1); at 6xk every
unmatched 6 is carried to complete later sets (Amb-3). `max_possible` ignores bonus dice, as the
X9 worked example requires.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, XpConfig
from fappo_bot.rules_xp.errors import MissingInput, OutOfRange
from fappo_bot.rules_xp.roll import effective_sl, sixes_per_success, threshold
from fappo_bot.rules_xp.rollers import Roller, check_need
from fappo_bot.rules_xp.tables import DOMINANT


class RerollEnd(str, Enum):
    """How an attempt over time ends: "the contest will be won, the character will run out of
    time, or they will run out of dice"."""

    SUCCESS = "success"
    OUT_OF_DICE = "out-of-dice"
    OUT_OF_TIME = "out-of-time"


@dataclass(frozen=True, slots=True)
class UnitRoll:
    """One time unit's roll: the dice rolled, the successes it added (carried 6s included), its
    1s, the base 1s lost and the 6s carried after it."""

    pool: int
    base: tuple[int, ...]
    bonus: tuple[int, ...]
    s: int
    o: int
    lost: int
    carried: int


class _Attempt:
    """One side's running state: S successes so far, R dice still to roll, 1s lost, 6s carried."""

    def __init__(self, roller: Roller, config: XpConfig) -> None:
        self.roller = roller
        self.level = effective_sl(roller.sl, config)
        self.face = threshold(self.level) if self.level is not None else 0
        self.k = sixes_per_success(self.level) if self.level is not None else 1
        self.remaining = roller.pool or 0
        self.successes = 0
        self.lost = 0
        self.carried = 0
        self.rolls: list[UnitRoll] = []

    def unit(self) -> None:
        """Spend one time unit rolling what is left."""
        pool = self.remaining
        if pool <= 0 or self.level is None:
            self.rolls.append(UnitRoll(max(pool, 0), (), (), 0, 0, 0, self.carried))
            return
        if self.level > DOMINANT:  # no dice: every die left is a success (X3 Amb-1)
            self.successes += pool
            self.remaining = 0
            self.rolls.append(UnitRoll(pool, (), (), pool, 0, 0, self.carried))
            return
        dice = self.roller.dice
        base = dice.take(pool)
        bonus = dice.take(base.count(6)) if self.roller.heroic and 6 in base else ()
        faces = base + bonus
        ones = base.count(1)
        if self.face:
            gained = sum(1 for f in faces if f >= self.face)
            kept = sum(1 for f in base if f >= self.face)
        else:
            sixes = self.carried + faces.count(6)
            gained, self.carried = divmod(sixes, self.k)
            kept = base.count(6)
        self.successes += gained
        self.remaining = pool - kept - ones
        self.lost += ones
        self.rolls.append(UnitRoll(pool, base, bonus, gained, faces.count(1), ones, self.carried))

    @property
    def max_possible(self) -> int:
        """The most successes still reachable if every die left succeeded (bonus dice ignored)."""
        if self.level is None:
            return self.successes
        if self.face or self.level > DOMINANT:
            return self.successes + max(self.remaining, 0)
        return self.successes + (self.carried + max(self.remaining, 0)) // self.k


@dataclass(frozen=True, slots=True)
class RerollSide:
    """A side's totals at the end: successes S, dice remaining R, 1s lost, 6s carried, and every
    unit's roll."""

    successes: int
    remaining: int
    lost: int
    carried: int
    rolls: tuple[UnitRoll, ...]


@dataclass(frozen=True, slots=True)
class RerollResult:
    """X9's outcome: how it ended, after how many units and seconds, and each side's totals."""

    success: bool
    end: RerollEnd
    units: int
    elapsed: int
    need: int
    roller: RerollSide
    opponent: RerollSide | None


def _side(attempt: _Attempt) -> RerollSide:
    return RerollSide(attempt.successes, max(attempt.remaining, 0), attempt.lost,
                      attempt.carried, tuple(attempt.rolls))


def reroll_over_time(roller: Roller, *, need: int = 1, time_unit: int | None,
                     max_units: int | None, opponent: Roller | None = None,
                     config: XpConfig = DEFAULT_CONFIG) -> RerollResult:
    """The X9 loop. Against a stored Passive P, `need` is P + 1. With an `opponent` (a Contested
    reroll) both sides roll every unit and the roller wins at the first unit where it leads; a tie
    at the end of time is a failure. The time unit and the units the time allows are GM inputs
    (R1, X9 Amb-6): without them the attempt is refused."""
    if time_unit is None or max_units is None:
        missing = " and ".join(n for n, v in (("time_unit", time_unit), ("max_units", max_units))
                               if v is None)
        raise MissingInput(f"rerolls over time need the GM's {missing} (RULINGS X9)")
    if time_unit <= 0 or max_units < 1:
        raise OutOfRange("the time unit must be positive and at least one unit allowed")
    check_need(need)
    me = _Attempt(roller, config)
    them = _Attempt(opponent, config) if opponent is not None else None
    end = RerollEnd.OUT_OF_TIME
    units = 0
    while units < max_units:
        units += 1
        me.unit()
        if them is not None:
            them.unit()
        bar = them.successes + 1 if them is not None else need
        if me.successes >= bar:
            end = RerollEnd.SUCCESS
            break
        if me.remaining <= 0 or me.max_possible < bar:
            end = RerollEnd.OUT_OF_DICE
            break
    return RerollResult(end is RerollEnd.SUCCESS, end, units, units * time_unit, need, _side(me),
                        _side(them) if them is not None else None)
