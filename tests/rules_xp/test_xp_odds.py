"""Exact odds of an Xp roll (RULINGS X0, X3, X4, X5) against brute-force enumeration of every
outcome, rolled through the engine's own `roll`."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, FloorMode, XpConfig
from fappo_bot.rules_xp.dice import DiceStream
from fappo_bot.rules_xp.odds import odds
from fappo_bot.rules_xp.roll import roll

pytestmark = pytest.mark.unit


def brute(pool: int, sl: int, heroic: bool, config: XpConfig = DEFAULT_CONFIG) -> tuple[Counter, int]:
    """(s, o) -> weight over 36^pool (heroic) or 6^pool, every base and bonus outcome rolled."""
    tally: Counter = Counter()
    for base in product(range(1, 7), repeat=pool):
        sixes = base.count(6) if heroic else 0
        for bonus in product(range(1, 7), repeat=sixes):
            record = roll(pool, sl, heroic=heroic, dice=DiceStream(base + bonus), config=config)
            tally[(record.s, record.o)] += 6 ** (pool - sixes) if heroic else 1
    return tally, (36 if heroic else 6) ** pool


@pytest.mark.parametrize("heroic", [False, True])
@pytest.mark.parametrize("sl", [-3, -2, -1, 0, 1, 2, 3])
@pytest.mark.parametrize("pool", [1, 2, 3, 4])
def test_exact_joint_distribution_matches_enumeration(pool, sl, heroic):
    """Every (successes, 1s) weight equals the count of enumerated outcomes."""
    tally, denominator = brute(pool, sl, heroic)
    exact = odds(pool, sl, heroic=heroic)
    computed = {(s, o): w * denominator // exact.denominator
                for o, row in enumerate(exact.joint) for s, w in enumerate(row) if w}
    assert computed == dict(tally)
    fumble = sum(w for (s, o), w in tally.items() if o > s)
    assert exact.fumble == Fraction(fumble, denominator)
    assert sum(exact.successes) == 1 and exact.success + exact.failure + exact.fumble == 1


@pytest.mark.parametrize("need", [1, 2, 3])
def test_success_probability_with_need(need):
    """P(success) = P(not a fumble and s >= need), by enumeration."""
    tally, denominator = brute(3, 1, True)
    want = sum(w for (s, o), w in tally.items() if o <= s and s >= need)
    assert odds(3, 1, heroic=True, need=need).success == Fraction(want, denominator)


def test_the_rulings_probability_context():
    """RULINGS X5: "a non-Heroic 4d reaches 4 successes with probability 1/81 ≈ 1.2%; a Heroic 4d
    ≈ 6.2%; a Heroic 6d ≈ 20.2%"."""
    assert odds(4, 0, heroic=False, need=4).success == Fraction(1, 81)
    assert round(float(odds(4, 0, heroic=True, need=4).success), 3) == 0.062
    assert round(float(odds(6, 0, heroic=True, need=4).success), 3) == 0.202


def test_no_roll_cases():
    """Pool <= 0 never succeeds; above Dominant every die succeeds; auto_fail below the floor."""
    assert odds(0, 0, heroic=True).failure == 1
    above = odds(5, 4, heroic=True, need=5)
    assert above.success == 1 and above.successes[5] == 1
    assert odds(3, -4, heroic=True,
                config=XpConfig(sl_floor_mode=FloorMode.AUTO_FAIL)).failure == 1


def test_extrapolated_floor_matches_enumeration():
    """`extrapolate`: 6x4 at -4."""
    config = XpConfig(sl_floor_mode=FloorMode.EXTRAPOLATE)
    tally, denominator = brute(4, -4, True, config)
    exact = odds(4, -4, heroic=True, config=config)
    assert exact.successes[1] == Fraction(sum(w for (s, _), w in tally.items() if s == 1),
                                          denominator)


def test_net_and_exposures_of_a_thirty_die_pool_sum_to_one():
    """The big pools stay exact: every distribution sums to exactly 1."""
    big = odds(30, -3, heroic=True)
    assert sum(big.net) == 1 and sum(big.exposures) == 1 and sum(big.successes) == 1
    assert 0 < big.exposed < 1
