"""RULINGS X0 (the core roll), X3 (Superiority Levels), X4 (1s) and X5 (heroic bonus dice)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules_xp.config import FloorMode, XpConfig
from fappo_bot.rules_xp.dice import DiceStream, RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import DiceError
from fappo_bot.rules_xp.roll import Mode, RollOutcome, roll, target_label

pytestmark = pytest.mark.unit

SAME_DICE = [6, 6, 5, 4, 2, 1]  # RULINGS X3's examples, non-heroic


def plain(pool: int, sl: int, dice: list[int], need: int = 1, config: XpConfig | None = None):
    return roll(pool, sl, heroic=False, dice=DiceStream(dice), need=need,
                config=config or XpConfig())


@pytest.mark.parametrize(("sl", "target", "s"), [
    (3, "2-6", 5), (2, "3-6", 4), (1, "4-6", 4), (0, "5-6", 3), (-1, "6", 2), (-2, "6x2", 1),
    (-3, "6x3", 0),
])
def test_x3_targets_on_the_same_dice(sl, target, s):
    """[X:L133-139] "Hopeless 6x3 / Weak 6x2 / Poor 6 / Normal 5-6 / Advantage 4-6 / Superior
    3-6 / Dominant 2-6", on [6,6,5,4,2,1]."""
    record = plain(6, sl, SAME_DICE)
    assert (record.target, record.s, record.o) == (target, s, 1)


def test_x3_hopeless_on_the_same_dice_is_a_fumble():
    """X3 example: at 6x3 two 6s make no success, and the 1 outnumbers them: a fumble."""
    record = plain(6, -3, SAME_DICE)
    assert record.outcome is RollOutcome.FUMBLE and record.exposures == 0


def test_x3_above_dominant_rolls_nothing_and_every_die_succeeds():
    """[X:L145] "If your SL manages to go above Dominant then there is no need to roll dice, but
    the number of dice still remains important." """
    record = roll(5, 4, heroic=True, dice=DiceStream([]))
    assert (record.rolled, record.mode, record.s, record.o, record.target) == (
        False, Mode.ABOVE_DOMINANT, 5, 0, "auto")
    assert record.outcome is RollOutcome.SUCCESS and record.special == 4
    assert roll(3, 5, heroic=True, dice=DiceStream([]), need=4).outcome is RollOutcome.FAILURE


def test_x3_below_hopeless_clamps_by_default_and_follows_the_flag():
    """X3 Amb-2: below Hopeless clamps to 6x3; `extrapolate` goes on to 6x4; `auto_fail` rolls
    nothing and fails."""
    assert plain(3, -5, [6, 6, 6]).sl == -3
    assert plain(3, -5, [6, 6, 6]).s == 1
    extra = plain(4, -4, [6, 6, 6, 6], config=XpConfig(sl_floor_mode=FloorMode.EXTRAPOLATE))
    assert (extra.target, extra.s) == ("6x4", 1)
    auto = plain(4, -4, [], config=XpConfig(sl_floor_mode=FloorMode.AUTO_FAIL))
    assert (auto.mode, auto.target, auto.outcome, auto.rolled) == (
        Mode.BELOW_FLOOR, "none", RollOutcome.FAILURE, False)


def test_x2_pool_of_zero_fails_without_dice_or_fumble():
    """X2 Amb-4: a pool <= 0 "cannot succeed (auto_fail, no fumble)"."""
    record = plain(0, 0, [])
    assert (record.mode, record.outcome, record.fumble, record.rolled) == (
        Mode.NO_DICE, RollOutcome.FAILURE, False, False)


@pytest.mark.parametrize(("dice", "s", "o", "outcome", "exposures"), [
    ([5, 6, 1, 3, 2], 2, 1, RollOutcome.SUCCESS, 1),
    ([1, 1, 5, 3], 1, 2, RollOutcome.FUMBLE, 0),
    ([1, 5, 3, 2], 1, 1, RollOutcome.SUCCESS, 1),
    ([2, 3, 4], 0, 0, RollOutcome.FAILURE, 0),
])
def test_x4_ones_make_fumbles_or_exposures(dice, s, o, outcome, exposures):
    """[X:L143] "If more 1s are rolled than successes then the task is a failure. If some 1s are
    rolled but less then the number of successes then they represent exposures"; o == s is a
    success with exposures (X4 Amb-2)."""
    record = plain(len(dice), 0, dice)
    assert (record.s, record.o, record.outcome, record.exposures) == (s, o, outcome, exposures)


def test_x5_two_natural_sixes_bring_two_more_dice():
    """[X:L159] "A player rolls 4d6 and gets 2,4,6,6. The 2 natural 6's allows them to roll 2
    more dice and add them to the overall result." """
    record = roll(4, 0, heroic=True, dice=DiceStream([2, 4, 6, 6, 5, 1]))
    assert (record.base, record.bonus, record.s, record.o, record.special) == (
        (2, 4, 6, 6), (5, 1), 3, 1, 2)


def test_x5_secondary_rerolls_are_not_permitted():
    """[X:L161] "Secondary rerolls, where a reroll gets a natural 6, are not permitted." """
    stream = DiceStream([2, 4, 6, 6, 6, 6, 6])
    record = roll(4, 0, heroic=True, dice=stream)
    assert record.bonus == (6, 6) and stream.left == 1


def test_x5_bonus_sixes_complete_sets_at_weak():
    """X5 Amb-4: at 6x2 the base 6s still bring bonus dice, and bonus 6s complete sets."""
    record = roll(3, -2, heroic=True, dice=DiceStream([6, 2, 3, 6]))
    assert record.s == 1


def test_x5_a_non_heroic_roller_gets_no_bonus_dice():
    """X5 Amb-2: NPCs are not Heroic unless flagged."""
    record = plain(4, 0, [2, 4, 6, 6])
    assert record.bonus == () and record.s == 2


def test_x0_dice_must_be_faces_and_enough():
    """RULINGS 0.3: dice are an injected stream; a face outside 1..6 or a short stream is refused."""
    with pytest.raises(DiceError) as bad:
        DiceStream([7])
    assert bad.value.code == "bad-dice"
    with pytest.raises(DiceError) as short:
        plain(4, 0, [5, 5])
    assert short.value.code == "dice-short"


def test_x0_recording_dice_keep_every_face_of_a_seeded_generator():
    """Auditable rolls: a roll from a seeded generator replays from its recorded faces."""
    import random

    recorder = RecordingDice(RandomDice(random.Random(1234)))
    first = roll(8, 0, heroic=True, dice=recorder)
    again = roll(8, 0, heroic=True, dice=DiceStream(recorder.faces))
    assert first == again and len(recorder.faces) == 8 + first.base.count(6)


@given(st.integers(1, 12), st.integers(-3, 3), st.booleans(),
       st.lists(st.integers(1, 6), min_size=24, max_size=24))
def test_x0_a_roll_takes_the_pool_then_one_die_per_base_six(pool, sl, heroic, faces):
    """X0 order of consumption: the base pool, then one bonus die per natural 6 of the base."""
    stream = DiceStream(faces)
    record = roll(pool, sl, heroic=heroic, dice=stream)
    sixes = faces[:pool].count(6)
    assert stream.left == 24 - pool - (sixes if heroic else 0)
    assert record.fumble == (record.o > record.s)
    assert record.s <= len(record.faces) and record.target == target_label(sl)
