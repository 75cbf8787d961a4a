"""Success levels, the chart and SP shifts (RULINGS F0, F4).

[F:L88-92] "-3 or worse Abject Failure / -2 or -1 Failure / +-0 Bare Success / +1 or +2 Solid
Success / +3 or better Great Success".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache


class SuccessLevel(IntEnum):
    """The five rows of the chart, ordered (F0 notation: AF=0 .. GS=4)."""

    ABJECT = 0
    FAILURE = 1
    BARE = 2
    SOLID = 3
    GREAT = 4

    @property
    def label(self) -> str:
        """The case-file name of the level (`abject`, `failure`, `bare`, `solid`, `great`)."""
        return self.name.lower()

    @property
    def title(self) -> str:
        """The rulebook's name of the level, for people."""
        return _TITLES[self]

    @property
    def succeeded(self) -> bool:
        """Bare Success or better."""
        return self >= SuccessLevel.BARE


_TITLES = {
    SuccessLevel.ABJECT: "Abject Failure",
    SuccessLevel.FAILURE: "Failure",
    SuccessLevel.BARE: "Bare Success",
    SuccessLevel.SOLID: "Solid Success",
    SuccessLevel.GREAT: "Great Success",
}

#: Margin at or below which an actor with the Suggested Trait still fails abjectly (F4 Amb-4).
PROTECTED_ABJECT_MARGIN = -5


def chart(margin: int, protected: bool = False) -> SuccessLevel:
    """The level the chart gives for a raw margin (F0 CHART).

    With Abject-Failure protection (the actor owns the skill's Suggested Trait) an Abject Failure
    needs a margin of -5 or worse [F:L156].
    """
    if margin >= 3:
        return SuccessLevel.GREAT
    if margin >= 1:
        return SuccessLevel.SOLID
    if margin == 0:
        return SuccessLevel.BARE
    if margin >= (-4 if protected else -2):
        return SuccessLevel.FAILURE
    return SuccessLevel.ABJECT


def band(level: SuccessLevel, protected: bool = False) -> tuple[int | None, int | None]:
    """The margins consistent with `level` (F0 BAND); None stands for an open end."""
    if level is SuccessLevel.ABJECT:
        return (None, -5 if protected else -3)
    if level is SuccessLevel.FAILURE:
        return (-4 if protected else -2, -1)
    if level is SuccessLevel.BARE:
        return (0, 0)
    if level is SuccessLevel.SOLID:
        return (1, 2)
    return (3, None)


def effective_margin(margin: int, level: SuccessLevel, protected: bool = False) -> int:
    """`em`: the raw margin clamped into the band of the final level (F0, F4 Amb-9)."""
    low, high = band(level, protected)
    if low is not None and margin < low:
        return low
    if high is not None and margin > high:
        return high
    return margin


def sp_levels(spend: dict[str, int], suggested: str | None) -> int:
    """Levels bought by the SP declared on one action (F4).

    Each SP moves one level [F:L94]; SP from the Suggested Trait "act as though one extra Success
    Point is spent" [F:L156], once per action (Amb-1) if at least one SP comes from it (Amb-2);
    floating SP never count as the Suggested Trait (Amb-3).
    """
    total = sum(n for n in spend.values() if n > 0)
    if total and suggested is not None and spend.get(suggested, 0) > 0:
        total += 1
    return total


@dataclass(frozen=True)
class Outcome:
    """A resolved check: the raw margin, the final level and the effective margin."""

    margin: int
    level: SuccessLevel
    em: int
    protected: bool


def resolve_check(
    total: int,
    difficulty: int,
    *,
    protected: bool = False,
    shift_up: int = 0,
    shift_down: int = 0,
) -> Outcome:
    """Grade one action (F4 Rule).

    Protection applies first (Amb-5), the attacker's SP shift is capped at Great (Amb-6, Amb-7),
    then the defender's pledges lower the level, never below Failure for a protected actor unless
    the margin is -5 or worse (Amb-8).
    """
    # the floors without `max` calls (a slow builtin)
    return graded(total - difficulty, protected, shift_up if shift_up > 0 else 0,
                  shift_down if shift_down > 0 else 0)


_BY_RANK = tuple(SuccessLevel)


@lru_cache(maxsize=4096)
def graded(margin: int, protected: bool, shift_up: int, shift_down: int) -> Outcome:
    """`resolve_check` by margin, the shifts already floored at 0; an `Outcome` is immutable,
    so one value serves every check with the same margin, protection and shifts (a turn grades
    thousands of them)."""
    level0 = chart(margin, protected)
    level1 = min(int(SuccessLevel.GREAT), int(level0) + shift_up)
    floor = (
        SuccessLevel.FAILURE
        if protected and margin > PROTECTED_ABJECT_MARGIN
        else SuccessLevel.ABJECT
    )
    level = _BY_RANK[max(int(floor), level1 - shift_down)]
    return Outcome(margin, level, effective_margin(margin, level, protected), protected)
