"""The four resolution types of RULINGS X7: General, Passive, Active and Contested.

The seed promises five and lists four (CX-02); the fifth is refused as not specified (X18).
"""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, Who, XpConfig
from fappo_bot.rules_xp.errors import MissingInput, UnknownName, XpError, not_specified
from fappo_bot.rules_xp.roll import RollRecord, sixes_per_success, threshold
from fappo_bot.rules_xp.rollers import Roller, check_need, roll_for
from fappo_bot.rules_xp.tables import key

RESOLUTION_TYPES = ("contested", "general", "passive", "active")


def resolution_type(name: str) -> str:
    """One of the four types by name; `fifth` is the missing one (CX-02, X18)."""
    wanted = key(name)
    if wanted in RESOLUTION_TYPES:
        return wanted
    if wanted in {"fifth", "5", "5th"}:
        raise not_specified("fifth resolution type")
    raise XpError(f"unknown resolution type {name!r} ({', '.join(RESOLUTION_TYPES)})")


def general(roller: Roller, need: int = 1, config: XpConfig = DEFAULT_CONFIG) -> RollRecord:
    """X7 General: "it simply requires the successful use of your skill (one success). Extra
    successes may allow extra bonus effects." The record's `special` holds the extra successes."""
    return roll_for(roller, check_need(need), config=config)


@dataclass(frozen=True, slots=True)
class PassiveResult:
    """X7 Passive: the stored successes P (0 on a fumble, Amb-5) and what beats them (P + 1)."""

    roll: RollRecord
    stored: int

    @property
    def to_beat(self) -> int:
        """"The number of successes is deducted from any future attempts" [X:L265]: P + 1."""
        return self.stored + 1


def passive(roller: Roller, config: XpConfig = DEFAULT_CONFIG) -> PassiveResult:
    """X7 Passive: the GM's secret roll whose successes a later Active roll must beat."""
    record = roll_for(roller, config=config)
    return PassiveResult(record, 0 if record.fumble else record.s)


@dataclass(frozen=True, slots=True)
class ActiveResult:
    """X7 Active against a stored P: a success needs s >= P + 1; net = s - P (even on a fumble)."""

    roll: RollRecord
    stored: int

    @property
    def net(self) -> int:
        """s - P, the literal X7 rule."""
        return self.roll.s - self.stored


def active(roller: Roller, stored: int, config: XpConfig = DEFAULT_CONFIG) -> ActiveResult:
    """X7 Active: "Skill is used to determine if the user can overcome some other users past
    (passive) skill use." The locksmith's P = 3 needs 4 successes [X:L267]."""
    if stored < 0:
        raise XpError("stored successes cannot be negative", code="out-of-range")
    return ActiveResult(roll_for(roller, stored + 1, config=config), stored)


@dataclass(frozen=True, slots=True)
class ContestSide:
    """One side of a contest: its first roll, what counts of it (0 on a fumble, Amb-3), its total
    after tie-breaks and the dice of each tie-break iteration."""

    name: str
    who: Who
    roll: RollRecord
    counted: int
    total: int
    rerolls: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class ContestResult:
    """X7 Contested: the winner, the net (winner's total - loser's; 0 for an awarded tie), the
    tie-break iterations rolled and how it was decided (`successes`, `tiebreak`, `player`,
    `choice`)."""

    winner: str
    net: int
    tiebreaks: int
    decided_by: str
    sides: tuple[ContestSide, ContestSide]


class _TieBreaker:
    """One side's state through the tie-break: the dice it still rolls and, at 6xk, the unmatched
    6s it carries."""

    def __init__(self, roller: Roller, record: RollRecord) -> None:
        self.roller = roller
        self.first = record
        self.total = 0 if record.fumble else record.s
        self.rerolls: list[tuple[int, ...]] = []
        self.face = threshold(record.sl)
        self.k = sixes_per_success(record.sl)
        self.carry = 0
        self.left = 0
        if record.rolled:
            self._after(record.faces, first=True)

    def _after(self, faces: tuple[int, ...], first: bool = False) -> int:
        """Count a roll's faces: successes gained, dice left to roll again."""
        if self.face:
            gained = sum(1 for f in faces if f >= self.face)
            self.left = len(faces) - gained
            return gained
        sixes = faces.count(6)
        self.left = len(faces) - sixes
        gained = (self.carry + sixes) // self.k
        self.carry = (self.carry + sixes) % self.k
        return 0 if first else gained

    def roll_again(self) -> None:
        """Roll the non-success dice again: no heroic dice, no fumble test (X7 Amb-2, X5 Amb-6)."""
        faces = self.roller.dice.take(self.left) if self.left else ()
        self.rerolls.append(faces)
        self.total += self._after(faces)


def contested(a: Roller, b: Roller, tie_winner: str | None = None,
              config: XpConfig = DEFAULT_CONFIG) -> ContestResult:
    """X7 Contested: "the one who rolls the most successes wins. If they have the same number of
    successes then roll the unsuccessful rolls again until one person has a majority. If they end
    up with exactly the same number then a player always wins, which player is upto them."
    [X:L251-253]. Still tied: a lone player wins; otherwise `tie_winner` (the players' or the GM's
    choice, R1) decides, and without it the contest is refused (`missing-input`)."""
    sides = (_TieBreaker(a, roll_for(a, config=config)), _TieBreaker(b, roll_for(b, config=config)))
    first = tuple(s.total for s in sides)
    tiebreaks = 0
    while (sides[0].total == sides[1].total and tiebreaks < config.tiebreak_max_iterations
           and (sides[0].left or sides[1].left)):
        for side in sides:
            side.roll_again()
        tiebreaks += 1
    totals = (sides[0].total, sides[1].total)
    if totals[0] != totals[1]:
        win = 0 if totals[0] > totals[1] else 1
        decided = "successes" if tiebreaks == 0 else "tiebreak"
        net = abs(totals[0] - totals[1])
    else:
        win, net = _award_tie(a, b, tie_winner), 0
        decided = "player" if (a.who is Who.PC) != (b.who is Who.PC) else "choice"
    out = tuple(
        ContestSide(s.roller.name, s.roller.who, s.first, counted, s.total, tuple(s.rerolls))
        for s, counted in zip(sides, first, strict=True)
    )
    return ContestResult(out[win].name, net, tiebreaks, decided, (out[0], out[1]))


def _award_tie(a: Roller, b: Roller, tie_winner: str | None) -> int:
    if (a.who is Who.PC) != (b.who is Who.PC):
        return 0 if a.who is Who.PC else 1
    if tie_winner is None:
        whose = "the players'" if a.who is Who.PC else "the GM's"
        raise MissingInput(
            f"{a.name} and {b.name} are still tied after the tie-break: the winner is "
            f"{whose} choice (tie_winner)"
        )
    for index, roller in enumerate((a, b)):
        if key(roller.name) == key(tie_winner):
            return index
    raise UnknownName(f"tie_winner {tie_winner!r} is not a side of this contest")
