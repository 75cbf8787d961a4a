"""Dice are injected (STYLE.md 8, RULINGS 0.3): the rules ask a `Dice` for faces and never call a
random number generator of their own.

`DiceStream` replays given faces (cases, logged rolls); `RandomDice` draws from a `random.Random`
the caller seeded; `RecordingDice` keeps every face another `Dice` gave, so a roll can be stored
and replayed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from fappo_bot.rules_xp.errors import DiceError

if TYPE_CHECKING:  # the generator is always the caller's; this module never draws on its own
    import random


class Dice(Protocol):
    """A source of d6 faces, consumed in the order of RULINGS 0.3."""

    def take(self, n: int) -> tuple[int, ...]:
        """The next `n` faces (each 1..6)."""
        ...


class DiceStream:
    """Faces given in advance, taken left to right. Running short raises `dice-short`;
    `check_used()` raises `dice-unused` when faces are left over."""

    __slots__ = ("_faces", "_next", "owner")

    def __init__(self, faces: Iterable[int], owner: str | None = None) -> None:
        values = tuple(faces)
        for face in values:
            if type(face) is not int or not 1 <= face <= 6:
                raise DiceError(f"a die shows {face!r}: faces are whole numbers from 1 to 6",
                                name=owner)
        self._faces = values
        self._next = 0
        self.owner = owner

    def take(self, n: int) -> tuple[int, ...]:
        """The next `n` faces; `dice-short` if fewer are left."""
        end = self._next + n
        if end > len(self._faces):
            who = f"{self.owner}'s" if self.owner else "the"
            raise DiceError(
                f"{who} dice ran short: the roll needs {end} dice and {len(self._faces)} are given",
                code="dice-short", name=self.owner,
            )
        out = self._faces[self._next:end]
        self._next = end
        return out

    @property
    def left(self) -> int:
        """Faces not taken yet."""
        return len(self._faces) - self._next

    def check_used(self) -> None:
        """Every face was taken; otherwise `dice-unused`."""
        if self.left:
            who = f"{self.owner}'s" if self.owner else "the"
            raise DiceError(
                f"{self.left} of {who} dice were not used: the rolls took {self._next} "
                f"of {len(self._faces)}",
                code="dice-unused", name=self.owner,
            )


class RandomDice:
    """Faces from an injected `random.Random` (seed it per game; never the module's global)."""

    __slots__ = ("_randbelow",)

    def __init__(self, rng: random.Random) -> None:
        self._randbelow = rng.randrange

    def take(self, n: int) -> tuple[int, ...]:
        """`n` fresh faces."""
        draw = self._randbelow
        return tuple([draw(1, 7) for _ in range(n)])


class RecordingDice:
    """Wraps a `Dice` and keeps every face it gave, in order (the audit record of a roll)."""

    __slots__ = ("_dice", "faces")

    def __init__(self, dice: Dice) -> None:
        self._dice = dice
        self.faces: list[int] = []

    def take(self, n: int) -> tuple[int, ...]:
        """The wrapped dice's faces, recorded."""
        out = self._dice.take(n)
        self.faces.extend(out)
        return out
