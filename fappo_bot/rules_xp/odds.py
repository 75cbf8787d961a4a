"""Exact odds of an Xp roll (RULINGS X0, X3, X4, X5): never sampled.

Each base die is independent, and with heroic dice a natural 6 brings one bonus die of its own,
so a base die's contribution (successes or 6s marked by x, 1s by y) has a generating polynomial

    f(x, y) = A + B x + E x^2 + y (C + D x)

with integer weights over 6 (plain) or 36 (heroic: a 6 is x times the bonus die's polynomial).
The pool's joint distribution of (successes, 1s) is f^n, expanded by the binomial theorem in y:
row o = C(n, o) (C + D x)^o P(x)^(n - o) with P = A + B x + E x^2, all in exact integers over 6^n
or 36^n. At 6xk, x counts 6s and s = floor(#6 / k).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import comb

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, XpConfig
from fappo_bot.rules_xp.roll import effective_sl, sixes_per_success, threshold
from fappo_bot.rules_xp.rollers import check_need
from fappo_bot.rules_xp.tables import DOMINANT


def _die_weights(sl: int, heroic: bool) -> tuple[int, int, int, int, int, int]:
    """(A, B, E, C, D, denominator) of one base die at a rolled level."""
    face = threshold(sl)
    if face:  # successes on face..6; 1 is never a success (face >= 2)
        others, hits = face - 2, 7 - face
    else:  # 6xk: x marks a 6; faces 2..5 do nothing
        others, hits = 4, 1
    if not heroic:
        return others, hits, 0, 1, 0, 6
    # a 6 is x times a bonus die (y + hits x + others); the other faces are weighted by 6
    return 6 * others, 6 * (hits - 1) + others, hits, 6, 1, 36


def _joint(n: int, sl: int, heroic: bool) -> tuple[list[list[int]], int]:
    """rows[o][s] weights of the pool's (1s, successes) over the denominator.

    The polynomials in x are multiplied as big integers (Kronecker substitution: coefficient i
    sits in the i-th slot of `width` bytes, wide enough for the largest possible weight, the
    denominator itself), so the convolutions run in the interpreter's C multiplication. At 6xk
    the row is first multiplied by 1 + x + ... + x^(k-1), so that slot k*s + k - 1 holds the
    weight of s successes (6s from k*s to k*s + k - 1) and only those slots are read."""
    a, b, e, c, d, denominator = _die_weights(sl, heroic)
    k = sixes_per_success(sl)
    total = denominator ** n
    width = (total.bit_length() + 8) // 8
    shift = 8 * width
    p = a + (b << shift) + (e << (2 * shift))
    q = c + (d << shift)
    fold = sum(1 << (shift * i) for i in range(k))
    first, step = width * (k - 1), width * k
    p_powers = [1]
    for _ in range(n):
        p_powers.append(p_powers[-1] * p)
    rows = []
    q_power = fold
    for o in range(n + 1):
        packed = comb(n, o) * q_power * p_powers[n - o]
        q_power *= q
        raw = packed.to_bytes((packed.bit_length() + 7) // 8 + step, "little")
        rows.append([int.from_bytes(raw[i:i + width], "little")
                     for i in range(first, len(raw) - width + 1, step)])
    return rows, total


@dataclass(frozen=True, slots=True)
class _Tally:
    """One pass over the joint distribution: the weights each figure needs."""

    fumble: int
    success: int
    exposed: int
    successes: tuple[int, ...]
    net: tuple[int, ...]
    exposures: tuple[int, ...]


def _tally(joint: tuple[tuple[int, ...], ...], need: int) -> _Tally:
    size = max(max(len(r) for r in joint), len(joint))
    by_s, net, exposures = [0] * size, [0] * size, [0] * size
    fumble = success = exposed = 0
    for o, row in enumerate(joint):
        for s, w in enumerate(row):
            if not w:
                continue
            by_s[s] += w
            if o > s:
                fumble += w
                net[0] += w
                exposures[0] += w
                continue
            net[s] += w
            exposures[o] += w
            if o:
                exposed += w
            if s >= need:
                success += w

    def trim(weights: list[int]) -> tuple[int, ...]:
        while len(weights) > 1 and weights[-1] == 0:
            weights.pop()
        return tuple(weights)

    return _Tally(fumble, success, exposed, trim(by_s), trim(net), trim(exposures))


@dataclass(frozen=True)
class Odds:
    """The exact distribution of one roll: `joint[o][s]` counts outcomes with s successes and o
    natural 1s (bonus dice included), over `denominator` equally likely outcomes."""

    pool: int
    sl: int | None
    heroic: bool
    need: int
    joint: tuple[tuple[int, ...], ...]
    denominator: int

    @cached_property
    def _tally(self) -> _Tally:
        return _tally(self.joint, self.need)

    def _p(self, weight: int) -> Fraction:
        return Fraction(weight, self.denominator)

    @property
    def fumble(self) -> Fraction:
        """P(more 1s than successes), X4."""
        return self._p(self._tally.fumble)

    @property
    def success(self) -> Fraction:
        """P(not a fumble and s >= need)."""
        return self._p(self._tally.success)

    @property
    def failure(self) -> Fraction:
        """P(neither a fumble nor a success): too few successes, or no roll."""
        return self._p(self.denominator - self._tally.success - self._tally.fumble)

    @property
    def exposed(self) -> Fraction:
        """P(at least one exposure): some 1s, but not more than the successes."""
        return self._p(self._tally.exposed)

    @property
    def successes(self) -> tuple[Fraction, ...]:
        """P(s = i) for i = 0, 1, ... (1s never cancel successes, X4 Amb-1)."""
        return tuple(self._p(w) for w in self._tally.successes)

    @property
    def net(self) -> tuple[Fraction, ...]:
        """P(net = i), where net is the successes that count: s, or 0 on a fumble (as a contest
        counts them, X7 Amb-3)."""
        return tuple(self._p(w) for w in self._tally.net)

    @property
    def exposures(self) -> tuple[Fraction, ...]:
        """P(exposures = i): the 1s of a roll that is not a fumble."""
        return tuple(self._p(w) for w in self._tally.exposures)

    @property
    def mean_successes(self) -> Fraction:
        """The expected number of successes."""
        return self._p(sum(i * w for i, w in enumerate(self._tally.successes)))


def odds(pool: int, sl: int = 0, *, heroic: bool, need: int = 1,
         config: XpConfig = DEFAULT_CONFIG) -> Odds:
    """The exact odds of `roll(pool, sl, heroic=heroic, need=need)`. A pool <= 0 or a level below
    the floor (auto_fail) never succeeds; above Dominant every die succeeds (X3 Amb-1)."""
    check_need(need)
    level = effective_sl(sl, config)
    if pool <= 0 or level is None:
        return Odds(pool, level, heroic, need, ((1,),), 1)
    if level > DOMINANT:
        return Odds(pool, level, heroic, need, (tuple([0] * pool + [1]),), 1)
    rows, denominator = _joint(pool, level, heroic)
    return Odds(pool, level, heroic, need, tuple(tuple(r) for r in rows), denominator)
