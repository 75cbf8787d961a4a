"""The bounds of every number a sheet or a GM command accepts (a group of 10^18
creatures never resolved, a million took 14 s; a deadline a billion days away was a traceback).

Each bound is far above anything the rules or a game need, and low enough that the work it
allows stays small; a number beyond it is refused with a message that gives the bound. The
table of bounds is in docs/bounds.md (tests/service/test_bounds.py keeps it true).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Any

from fappo_bot.service.errors import InvalidInput

MAX_COUNT = 1_000
"""Creatures in one nuisance or minion group (F20, F21)."""

MAX_AP = 20
"""A sheet's base AP (F3, F8: 3 to 5 in play; extra AP costs 8 CC each)."""

MAX_POSITION = 10_000
"""A character's position, either way from 0 (F16), on a sheet or as a GM's end position."""

MAX_DIFFICULTY = 100
"""A difficulty the GM gives in the review (F4: 2 easy to 8+ hard)."""

MAX_SHEET_NUMBER = 1_000_000
"""Any other number on a sheet (ratings, floating SP, budget, legendary points, spell effects),
either way from 0, and any SP the GM or a player allocates at a rest (F27) or a Healing check's
total (F14)."""

MAX_DEADLINE = timedelta(days=366)
"""How far ahead a deadline may be set or pushed (F30)."""


def check_number(value: int, what: str, low: int, high: int) -> int:
    """`value`, or a refusal naming `what` and the bounds."""
    if not low <= value <= high:
        raise InvalidInput(f"{what} must be from {low:,} to {high:,}, not {value:,}.")
    return value


def sheet_problems(data: Mapping[str, Any]) -> list[str]:
    """Every number of a sheet as written that is out of its bound, each with its bound."""
    problems: list[str] = []
    for where, number in _numbers(data, ()):
        low, high = -MAX_SHEET_NUMBER, MAX_SHEET_NUMBER
        if where == ("count",):
            low, high = 0, MAX_COUNT
        elif where == ("ap",):
            low, high = 0, MAX_AP
        elif where == ("position",):
            low, high = -MAX_POSITION, MAX_POSITION
        if not (math.isfinite(number) and low <= number <= high):
            shown = f"{number:,}" if math.isfinite(number) else str(number)
            problems.append(f"{'.'.join(where)}: must be from {low:,} to {high:,}, not {shown}.")
    return problems


def _numbers(value: Any, where: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], float]]:
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield where, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _numbers(item, (*where, str(key)))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _numbers(item, (*where, str(index)))


def check_deadline(after: timedelta, what: str = "A deadline") -> timedelta:
    """`after`, or a refusal when it is beyond `MAX_DEADLINE`."""
    if after > MAX_DEADLINE:
        raise InvalidInput(f"{what} can be at most {MAX_DEADLINE.days} days ahead.")
    return after
