"""RULINGS X9: rerolls over time, with lost 1s."""

from __future__ import annotations

import pytest
from xp_helpers import npc, pc, used_up

from fappo_bot.rules_xp.errors import MissingInput
from fappo_bot.rules_xp.rerolls import RerollEnd, reroll_over_time

pytestmark = pytest.mark.unit


def test_x9_thief_at_leisure_succeeds_after_two_units():
    """[X:L365] "re-roll only those dice that were not successes, with the exception that any 1s
    rolled are permanently lost." RULINGS X9 example: 5d vs P = 3, success after 2 minutes."""
    thief = pc("Thief", 5, [5, 6, 2, 1, 3, 4, 6, 2, 5])
    result = reroll_over_time(thief, need=4, time_unit=60, max_units=5)
    assert (result.end, result.units, result.elapsed) == (RerollEnd.SUCCESS, 2, 120)
    assert (result.roller.successes, result.roller.remaining, result.roller.lost) == (4, 1, 1)
    assert used_up(thief)


def test_x9_running_dry():
    """[X:L365] "they will run out of dice due to 1s or just not having enough for the task";
    max possible 2 + 1 = 3 < 4 ignores heroic bonus dice."""
    result = reroll_over_time(pc("Thief", 4, [5, 6, 2, 1, 3]), need=4, time_unit=60,
                              max_units=5)
    assert (result.end, result.units, result.roller.remaining) == (RerollEnd.OUT_OF_DICE, 1, 1)


def test_x9_out_of_time():
    """"the character will run out of time": max_units spent without enough successes."""
    result = reroll_over_time(npc("Guard", 3, [5, 2, 3, 2, 3]), need=3, time_unit=10,
                              max_units=2)
    assert (result.end, result.units, result.elapsed, result.roller.successes) == (
        RerollEnd.OUT_OF_TIME, 2, 20, 1)


def test_x9_weak_keeps_unmatched_sixes():
    """X9 Amb-3: at 6x2 unmatched 6s are kept and count toward later sets."""
    normal = reroll_over_time(npc("Ant", 3, [6, 2, 3]), need=1, time_unit=1, max_units=3)
    assert (normal.end, normal.units) == (RerollEnd.SUCCESS, 1)
    # unit 1: one 6 (no set yet) is carried and leaves the pool; unit 2: a 6 completes the set
    weak = reroll_over_time(npc("Ant", 3, [6, 2, 3, 6, 4], sl=-2), need=1, time_unit=1,
                            max_units=3)
    assert (weak.end, weak.units, weak.roller.successes, weak.roller.remaining) == (
        RerollEnd.SUCCESS, 2, 1, 1)


def test_x9_contested_both_sides_reroll():
    """[X:L369] "Where the roll is Contested then the opposing side also gets to reroll everytime
    as well"; the roller wins at the first unit where it leads."""
    me = pc("Aster", 3, [5, 2, 2, 5, 3])
    them = npc("Warden", 2, [5, 3, 2])
    result = reroll_over_time(me, time_unit=60, max_units=4, opponent=them)
    assert result.end is RerollEnd.SUCCESS and result.units == 2
    assert result.opponent is not None and result.opponent.successes == 1
    assert used_up(me, them)


def test_x9_the_time_unit_and_the_units_are_gm_inputs():
    """X9 Amb-6 and R1: never guessed."""
    with pytest.raises(MissingInput, match="max_units"):
        reroll_over_time(pc("A", 3, []), time_unit=60, max_units=None)


def test_x9_above_dominant_takes_no_dice():
    """X3 Amb-1 in a unit: every die left succeeds at once."""
    result = reroll_over_time(pc("A", 3, [], sl=4), need=3, time_unit=1, max_units=2)
    assert (result.end, result.roller.successes, result.roller.remaining) == (
        RerollEnd.SUCCESS, 3, 0)
