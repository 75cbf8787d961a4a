"""RULINGS X7: the resolution types (General, Passive, Active, Contested with tie-breaks)."""

from __future__ import annotations

import pytest
from xp_helpers import npc, pc, used_up

from fappo_bot.rules_xp.config import XpConfig
from fappo_bot.rules_xp.contest import active, contested, general, passive, resolution_type
from fappo_bot.rules_xp.errors import MissingInput, NotSpecified, UnknownName, XpError
from fappo_bot.rules_xp.roll import RollOutcome

pytestmark = pytest.mark.unit


def test_x7_the_fifth_type_is_missing():
    """[X:L247] "There are five types of skill resolution systems" but four are listed (CX-02)."""
    with pytest.raises(NotSpecified):
        resolution_type("fifth")
    with pytest.raises(XpError):
        resolution_type("sixth")
    assert resolution_type("Contested") == "contested"


def test_x7_general_extra_successes_are_special():
    """[X:L257] "it simply requires the successful use of your skill (one success). Extra
    successes may allow extra bonus effects." """
    record = general(npc("Orc", 6, [5, 2, 3, 6, 1, 4]))
    assert (record.s, record.special, record.exposures) == (2, 1, 1)


def test_x7_locksmith_passive_and_thief_active():
    """[X:L267] "he rolls 5 dice and gets 3 successes. To pick that lock would then require 4
    successes"; [X:L277] the thief at 4d "needs 4 successes"."""
    lock = passive(npc("Locksmith", 5, [5, 6, 3, 5, 2]))
    assert (lock.stored, lock.to_beat) == (3, 4)
    thief = active(pc("Thief", 4, [5, 6, 5, 2, 5]), lock.stored)
    assert thief.roll.need == 4 and thief.roll.outcome is RollOutcome.SUCCESS and thief.net == 1
    short = active(pc("Thief", 4, [5, 5, 2, 2]), 3)
    assert short.roll.outcome is RollOutcome.FAILURE and short.net == -1


def test_x7_a_fumbled_passive_stores_nothing():
    """X7 Amb-5: a fumbled Passive roll stores P = 0 (the creation is flawed)."""
    assert passive(npc("Smith", 3, [1, 1, 5])).stored == 0


def test_x7_contested_most_successes_wins():
    """[X:L251] "the one who rolls the most successes wins"; the net is the difference (Amb-4)."""
    a = pc("Aster", 5, [3, 4, 1, 6, 2, 5], sl=2)
    b = npc("Guard", 4, [5, 5, 2, 1])
    result = contested(a, b)
    assert (result.winner, result.net, result.tiebreaks, result.decided_by) == (
        "Aster", 2, 0, "successes")
    assert used_up(a, b)


def test_x7_tie_break_rolls_the_unsuccessful_dice_again():
    """[X:L251] "If they have the same number of successes then roll the unsuccessful rolls again
    until one person has a majority." No heroic dice in a tie-break (X5 Amb-6)."""
    a = pc("Aster", 4, [5, 5, 2, 3, 5, 3])
    b = npc("Brute", 5, [5, 6, 2, 3, 4, 2, 2, 4])
    result = contested(a, b)
    assert (result.winner, result.net, result.tiebreaks) == ("Aster", 1, 1)
    assert result.sides[0].rerolls == ((5, 3),) and result.sides[1].rerolls == ((2, 2, 4),)
    assert used_up(a, b)


def test_x7_a_fumbled_side_counts_nothing_but_keeps_its_success_dice():
    """X7 Amb-3: a fumbling side counts 0 successes; its tie-break rolls only the dice that did
    not show a success (cases-xp.md, settled 2)."""
    a = npc("Ape", 3, [1, 1, 5, 6, 2])   # s = 1, o = 2: fumble, counted 0; rerolls 2 dice
    b = npc("Bat", 2, [2, 3, 2, 2])      # s = 0, counted 0; rerolls 2 dice
    result = contested(a, b, tie_winner="Bat")
    assert result.sides[0].counted == 0 and result.sides[0].rerolls == ((6, 2),)
    assert (result.winner, result.sides[0].total, result.decided_by) == ("Ape", 1, "tiebreak")


def test_x7_weak_tie_break_carries_unmatched_sixes():
    """X7 rule: "for 6xk, unmatched 6s are carried and complete later sets"."""
    a = npc("Ant", 2, [6, 2, 6], sl=-2)   # one 6 carried; reroll the 2: a 6 completes a set
    b = npc("Bee", 1, [3, 3], sl=-2)
    result = contested(a, b, tie_winner="Ant")
    assert (result.sides[0].total, result.winner, result.sides[0].rerolls) == (1, "Ant", ((6,),))


def test_x7_a_still_tied_contest_goes_to_the_lone_player():
    """[X:L253] "If they end up with exactly the same number then a player always wins"."""
    # 4 successes each and no die left to roll again (the Ogre is above Dominant)
    result = contested(pc("Aster", 4, [5, 5, 5, 5]), npc("Ogre", 4, [], sl=4))
    assert (result.winner, result.decided_by, result.net, result.tiebreaks) == (
        "Aster", "player", 0, 0)


def test_x7_two_players_still_tied_need_their_choice():
    """Player vs player: "which player is upto them" (R1: GM input, never guessed)."""
    with pytest.raises(MissingInput):
        contested(pc("A", 2, [5, 5]), pc("B", 2, [5, 5]), config=XpConfig())
    result = contested(pc("A", 2, [5, 5]), pc("B", 2, [5, 5]), tie_winner="b")
    assert (result.winner, result.decided_by) == ("B", "choice")
    with pytest.raises(UnknownName):
        contested(pc("A", 2, [5, 5]), pc("B", 2, [5, 5]), tie_winner="C")


def test_x7_tie_break_stops_at_the_iteration_cap():
    """R2 `xp_tiebreak_max_iterations`: the loop ends, then the tie rule decides."""
    config = XpConfig(tiebreak_max_iterations=2)
    result = contested(npc("A", 1, [2, 2, 2]), npc("B", 1, [3, 3, 3]), tie_winner="A",
                       config=config)
    assert (result.tiebreaks, result.decided_by) == (2, "choice")
