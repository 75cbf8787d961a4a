"""Character traits and the Superiority Level they make (RULINGS X3, X15) and ranks (X16); X17's
time tags carry no mechanics, so nothing here models them. The missing parts of the seed (the Luck economy, the SIZE scale, the Combat and
Magic rules that deplete ranks) are GM inputs here, or refused (X18)."""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.rules_xp.errors import OutOfRange, XpError

# ---- X3 and X15: the sources of a Superiority Level --------------------------------------------


@dataclass(frozen=True, slots=True)
class SlSources:
    """What moves a roller's SL from Normal (X3): Advantages (only one applies at a time),
    Impediments (each -1), active Passions (each +1, Luck paid), SL granted by an opponent's Flaw
    (each +1) and the GM's adjustment (events, exposures, Cut!, equipment)."""

    advantages: int = 0
    impediments: int = 0
    passions: int = 0
    flaws: int = 0
    adjust: int = 0

    def __post_init__(self) -> None:
        for name in ("advantages", "impediments", "passions", "flaws"):
            if getattr(self, name) < 0:
                raise OutOfRange(f"{name} counts sources of SL and cannot be negative")

    @property
    def sl(self) -> int:
        """X3: "Advantages generally provide a permanent increase in the Superiority Level that
        you use, but only one may apply at any time" [X:L111]; Impediments stack (Amb-3)."""
        return (min(1, self.advantages) - self.impediments + self.passions + self.flaws
                + self.adjust)


# ---- X15: Passions, Flaws, Luck, Advantages ----------------------------------------------------

PASSION_WORDS = (2, 6)
"""X15: "These are word descriptors, from 2 to 6 words in length" [X:L107]."""
STARTING_PASSIONS = STARTING_FLAWS = 2
MAX_ADVANTAGES = 3


def check_descriptor(text: str) -> str:
    """A Passion or Flaw of 2 to 6 words, or a refusal saying how many it has."""
    words = len(text.split())
    low, high = PASSION_WORDS
    if not low <= words <= high:
        raise XpError(f"a Passion or Flaw is {low} to {high} words; {text!r} has {words}",
                      code="out-of-range")
    return " ".join(text.split())


def starting_advantages(impediments: int) -> int:
    """X15: "Players begin with one Advantage, plus one extra for each Impediment they take, upto
    a maximum of 3." (Amb-5: more Impediments grant no more.)"""
    if impediments < 0:
        raise OutOfRange("a number of Impediments cannot be negative")
    return min(MAX_ADVANTAGES, 1 + impediments)


@dataclass(frozen=True, slots=True)
class LuckChange:
    """What invoking a Passion or a Flaw does: the Luck after, and the SL it gives (to the
    invoker for a Passion, to an opponent for a Flaw), while the GM keeps it relevant."""

    luck: int
    sl_to_self: int
    sl_to_opponent: int


def invoke_passion(luck: int) -> LuckChange:
    """X15: "a Luck point must be discarded, the character then gains a degree of Superiority
    (SL - see below) as long as the situation remains relevant." The GM confirms the match."""
    if luck < 1:
        raise XpError("invoking a Passion costs 1 Luck, and there is none left",
                      code="luck-insufficient")
    return LuckChange(luck - 1, 1, 0)


def invoke_flaw(luck: int) -> LuckChange:
    """X15: "if used a Luck point is gained at the expense of giving an opponent a SL"."""
    if luck < 0:
        raise OutOfRange("Luck cannot be negative")
    return LuckChange(luck + 1, 0, 1)


# ---- X16: ranks --------------------------------------------------------------------------------

RANK_BASE = 4
"""X16: "A normal Hero will generally be Rank 4" (Amb-2: the same base for all three)."""
RANK_MIN, RANK_MAX = 1, 9
DEPLETED_FLOOR = -3
"""CX-03: "The Ranks go from +9 to -3": a current value may fall to -3."""


@dataclass(frozen=True, slots=True)
class Ranks:
    """The maxima of the Physical, Mental and the two Magical ranks, each 1..9 (X16)."""

    physical: int
    mental: int
    elemental: int
    spiritual: int


def _clamp(value: int) -> int:
    return max(RANK_MIN, min(RANK_MAX, value))


def ranks(*, body: int, mind: int, soul: int, size: int, physical_adj: int = 0,
          mental_adj: int = 0, magical_adj: int = 0) -> Ranks:
    """X16: Physical = 4 + SIZE + BODY, Mental = 4 + MIND, elemental = spiritual = 4 + SOUL, each
    with the GM's trait adjustment and held within 1..9. SIZE is the GM's level for the creature
    (the scale itself is missing, X18); 0 for a human."""
    return Ranks(_clamp(RANK_BASE + size + body + physical_adj),
                 _clamp(RANK_BASE + mind + mental_adj),
                 _clamp(RANK_BASE + soul + magical_adj), _clamp(RANK_BASE + soul + magical_adj))


def deplete(current: int, by: int) -> int:
    """A rank's current value after losing `by` points, never below -3. How much a blow or a
    spell takes is in the missing Combat and Magic rules (X18): the GM gives `by`."""
    if by < 0:
        raise OutOfRange("depletion is a number of points lost, never negative")
    return max(DEPLETED_FLOOR, current - by)

