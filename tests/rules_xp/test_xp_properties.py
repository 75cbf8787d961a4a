"""Hypothesis properties of the Xp resolver (STYLE.md 9): whatever the dice, contests, rerolls,
group rolls and plots keep their invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules_xp.config import Who, XpConfig
from fappo_bot.rules_xp.contest import contested
from fappo_bot.rules_xp.dice import DiceStream
from fappo_bot.rules_xp.group import Member, collateral
from fappo_bot.rules_xp.rerolls import RerollEnd, reroll_over_time
from fappo_bot.rules_xp.rollers import Roller

pytestmark = pytest.mark.unit

FACES = st.lists(st.integers(1, 6), min_size=200, max_size=200)
LEVELS = st.integers(-4, 4)


def _roller(name: str, pool: int, sl: int, faces: list[int], who: Who = Who.NPC) -> Roller:
    return Roller(name, DiceStream(faces, name), pool, sl, who, who is Who.PC)


@given(st.integers(0, 8), LEVELS, FACES, st.integers(0, 8), LEVELS, FACES)
def test_a_contest_has_one_winner_with_the_larger_total(pa, sa, fa, pb, sb, fb):
    """X7: the winner's total is never below the loser's, net is their difference, and a tie is
    only ever awarded (net 0) after the tie-break."""
    result = contested(_roller("A", pa, sa, fa, Who.PC), _roller("B", pb, sb, fb),
                       config=XpConfig(tiebreak_max_iterations=5))
    a, b = result.sides
    win, lose = (a, b) if result.winner == "A" else (b, a)
    assert win.total >= lose.total and result.net == win.total - lose.total
    assert (result.net == 0) == (result.decided_by == "player")
    assert result.tiebreaks <= 5 and all(len(s.rerolls) == result.tiebreaks for s in (a, b))


@given(st.integers(0, 10), LEVELS, st.integers(1, 8), st.integers(1, 6), FACES, st.booleans())
def test_rerolls_never_gain_dice(pool, sl, need, units, faces, heroic):
    """X9: dice only leave the pool (successes kept, 1s lost); the attempt ends for one of the
    three reasons within the units allowed."""
    roller = Roller("A", DiceStream(faces), pool, sl, Who.PC, heroic)
    result = reroll_over_time(roller, need=need, time_unit=60, max_units=units)
    side = result.roller
    assert 0 <= side.remaining <= max(pool, 0) and side.lost <= max(pool, 0)
    assert 1 <= result.units <= units and result.elapsed == 60 * result.units
    assert result.success == (result.end is RerollEnd.SUCCESS) == (side.successes >= need)
    pools = [u.pool for u in side.rolls]
    assert pools == sorted(pools, reverse=True)


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 2), st.integers(0, 1)),
                min_size=1, max_size=6), FACES)
def test_a_collateral_chain_adds_one_die_per_success_until_it_breaks(members, faces):
    """X11: each success adds +1d to everyone after it; after a failure without a relaunch the
    rest fail unrolled; Luck never goes negative."""
    order = [Member(_roller(f"M{i}", pool, 0, faces[i * 30:(i + 1) * 30], Who.PC), luck=luck,
                    relaunches=relaunch)
             for i, (pool, luck, relaunch) in enumerate(members)]
    results = collateral(order)
    bonus, broken = 0, False
    for member, result in zip(order, results, strict=True):
        assert 0 <= result.luck <= member.luck
        if broken and not result.relaunched:
            assert not result.rolls
            continue
        if result.relaunched:
            bonus = 0 if broken or len(result.rolls) > 1 else bonus
            broken = False
        assert result.chain_bonus == bonus
        if result.roll.success:
            bonus += 1
        else:
            broken = True
