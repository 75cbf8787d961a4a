"""RULINGS X10 (assisted), X11 (spontaneous and collateral), X12 (augmented), X13 (conceded)."""

from __future__ import annotations

import pytest
from xp_helpers import npc, pc, used_up

from fappo_bot.rules_xp.config import RelaunchBonus, XpConfig
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.group import (
    Member,
    assisted,
    augmented,
    collateral,
    conceded,
    default_order,
    spontaneous,
)
from fappo_bot.rules_xp.roll import Mode, RollOutcome

pytestmark = pytest.mark.unit


def test_x10_lead_gains_and_loses_dice():
    """[X:L375-379] "+1d" per success, "loses 1d" per failure, "lose 2d" per fumble: 5 + 1 - 1
    - 2 = 3d."""
    lead = pc("Aster", 5, [5, 6, 3, 2])
    helpers = [pc("Brin", 4, [5, 3, 2, 4]), pc("Cato", 3, [2, 3, 4]), pc("Dara", 3, [1, 1, 5])]
    result = assisted(lead, helpers)
    assert [s.delta for s in result.supporters] == [1, -1, -2]
    assert (result.delta, result.lead.pool, result.lead.outcome) == (-2, 3, RollOutcome.SUCCESS)
    assert used_up(lead, *helpers)


def test_x10_a_success_below_the_need_counts_as_a_failure():
    """X10 Amb-1: "successfully performs the task" means s >= need."""
    result = assisted(pc("L", 3, [5, 5, 5]), [pc("S", 2, [5, 2])], need=2)
    assert result.supporters[0].delta == -1 and result.lead.pool == 2


def test_x10_without_the_xposure_a_supporter_is_left_out():
    """[X:L373] "They all need to have an appropriate Xposure" (Amb-2): no defaults."""
    result = assisted(pc("L", 3, [5, 2, 2]), [pc("S", 2, [5, 5], xposure=False)])
    assert result.supporters == () and result.errors[0].code == "no-xposure"
    with pytest.raises(XpError) as refused:
        assisted(pc("L", 3, [], xposure=False), [])
    assert refused.value.code == "no-xposure"


def test_x11_collateral_chain_and_break():
    """[X:L389] "The leads success will give the second person +1d, if the second person
    succeeds then they give the 3rd person +2d"; after a failure "the rest automatically fail"."""
    order = [Member(pc("A", 6, [5, 3, 2, 4, 3, 2])), Member(pc("B", 4, [5, 2, 3, 4, 2])),
             Member(pc("C", 4, [2, 3, 4, 4, 2, 3])), Member(pc("D", 3, []))]
    results = collateral(order)
    assert [r.chain_bonus for r in results] == [0, 1, 2, 0]
    assert [r.roll.outcome for r in results[:3]] == [RollOutcome.SUCCESS, RollOutcome.SUCCESS,
                                                      RollOutcome.FAILURE]
    assert results[3].roll.mode is Mode.CHAIN_BROKEN and not results[3].roll.rolled


def test_x11_good_luck_relaunches_the_chain():
    """[X:L391] "Good Luck can be used to allow someone to re-launch the chain, re-starting with
    that person." 1 Luck, bonus back to +0 (Amb-2, Amb-3)."""
    order = [Member(pc("C", 4, [2, 3, 4, 4])), Member(pc("D", 3, [5, 2, 2]), luck=1, relaunches=1),
             Member(pc("E", 4, [5, 2, 3, 3, 2]))]
    results = collateral(order)
    assert (results[1].relaunched, results[1].luck, results[1].chain_bonus) == (True, 0, 0)
    assert results[2].chain_bonus == 1 and results[2].roll.pool == 5


def test_x11_the_one_who_failed_may_relaunch_himself_and_keep_mode():
    """X11 Amb-4: he rerolls as the new chain head; with `keep` the bonus stays."""
    keep = XpConfig(collateral_relaunch_bonus=RelaunchBonus.KEEP)
    order = [Member(pc("A", 1, [5])), Member(pc("B", 1, [2, 3, 5, 2]), luck=1, relaunches=1)]
    results = collateral(order, config=keep)
    assert [r.pool for r in results[1].rolls] == [2, 2] and results[1].roll.success
    reset = collateral([Member(pc("A", 1, [5])), Member(pc("B", 1, [2, 3, 5]), luck=1,
                                                        relaunches=1)])
    assert [r.pool for r in reset[1].rolls] == [2, 1]


def test_x11_a_relaunch_without_luck_is_refused():
    """The Luck price is paid or there is no relaunch (`luck-insufficient`)."""
    results = collateral([Member(pc("A", 1, [2])), Member(pc("B", 2, []), relaunches=1)])
    assert results[1].roll.mode is Mode.CHAIN_BROKEN
    assert results[1].errors[0].code == "luck-insufficient"


def test_x11_spontaneous_rolls_are_individual_and_default_order_is_by_pool():
    """[X:L385] "each person rolls individually and gets an individual result"; Amb-1: the
    biggest pool goes first when the GM gives no order."""
    members = [Member(pc("A", 2, [2, 2])), Member(pc("B", 3, [5, 1, 3]))]
    assert [m.roller.name for m in default_order(members)] == ["B", "A"]
    results = spontaneous(members)
    assert [r.roll.outcome for r in results] == [RollOutcome.FAILURE, RollOutcome.SUCCESS]
    with pytest.raises(XpError):
        spontaneous([Member(pc("A", 1, [5]), luck=1, relaunches=1)])


def test_x12_augment_successes_become_dice():
    """[X:L405] "a perception test results in 3 successes, so this will add 3d"."""
    result = augmented(pc("Trap", 5, [5, 2, 3, 4, 2, 1, 6, 3, 4]),
                       [pc("Perception", 5, [5, 5, 5, 2, 3])])
    assert (result.added, result.target.pool, result.target.s) == (3, 8, 2)


def test_x12_a_fumbled_augment_adds_nothing_and_duplicates_are_refused():
    """X12 Amb-1 (+0 on a fumble) and Amb-2 (one augment per ability)."""
    result = augmented(pc("Trap", 2, [2, 2]),
                       [pc("Look", 3, [1, 1, 5]), pc("look", 3, [5, 5, 5])])
    assert result.added == 0 and result.errors[0].code == "duplicate-augment"


def test_x13_conceded_for_a_player_with_four_dice():
    """[X:L409] "the GM should concede a test to any player who has at least 4d after all mods.
    They gain a single success"; not NPCs (Amb-2), not for need > 1 (Amb-1)."""
    given, record = conceded(pc("A", 4, [], sl=-3), True)
    assert given and record.s == 1 and record.mode is Mode.CONCEDED
    assert not conceded(npc("N", 5, [5, 2, 2, 2, 2]), True)[0]
    assert not conceded(pc("A", 3, [5, 2, 2]), True)[0]
    assert not conceded(pc("A", 5, [5, 5, 2, 2, 2]), True, need=2)[0]
    assert not conceded(pc("A", 5, [5, 5, 2, 2, 2]), False)[0]
