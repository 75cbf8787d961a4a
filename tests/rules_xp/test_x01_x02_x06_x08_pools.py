"""RULINGS X1 (characteristics), X2 (dice pools), X6 (modifier tables) and X8 (defaulting)."""

from __future__ import annotations

import pytest

from fappo_bot.rules_xp.errors import NotSpecified, OutOfRange, UnknownName, XpError
from fappo_bot.rules_xp.pools import PoolSpec, PoolTest, compute_pool, illumination_dice
from fappo_bot.rules_xp.tables import (
    DIFFICULTY,
    ILLUMINATION,
    RATING,
    TIME,
    TOOLS,
    Characteristic,
    Relevance,
    characteristic,
    level_of,
)

pytestmark = pytest.mark.unit
BODY, MIND = Characteristic.BODY, Characteristic.MIND


def test_x1_raw_potent_body_is_seven_dice_not_six():
    """[X:L7] "the number of dice used is 4 plus or minus your level"; Potent is (+3), so the
    seed's "would use 6d" [X:L11] is an error (CX-01): 7d."""
    _, potent = level_of("Potent", BODY)
    assert compute_pool(PoolSpec(test=PoolTest.RAW, characteristic=BODY, level=potent)).pool == 7


@pytest.mark.parametrize(("label", "char", "value"), [
    ("Cronic", BODY, -2), ("chronic", BODY, -2), ("Dim", MIND, -1), ("Illuminated",
                                                                    Characteristic.SOUL, 3),
    ("Perfection", Characteristic.LOOKS, 3), ("normal", MIND, 0),
])
def test_x1_labels(label, char, value):
    """[X:L17-67] the labels of each characteristic's levels."""
    assert level_of(label, char) == (char, value)


def test_x1_a_label_of_another_characteristic_is_unknown():
    """A MIND label on BODY is refused (cases-xp.md: `unknown-name`)."""
    with pytest.raises(UnknownName):
        level_of("Genius", BODY)


def test_x1_glossary_aliases_and_size():
    """CX-09: BOD/STR = BODY, APP = LOOKS; SIZE's scale is missing (X18): not specified."""
    assert characteristic("STR") is BODY and characteristic("app") is Characteristic.LOOKS
    with pytest.raises(NotSpecified):
        characteristic("SIZE")


def test_x2_robust_master_sword_and_shield():
    """[X:L11] "4d (Base skill) + 2d (Master) + 2d (Robust)" = 8d."""
    pool = compute_pool(PoolSpec(characteristic=BODY, level=2, rank=2))
    assert pool.pool == 8 and pool.parts.rank == 2 and pool.parts.level == 2


def test_x2_npc_rating_replaces_the_rank():
    """X2 Amb-2, example: a Veteran NPC guard with a Healthy BODY: 4 + 1 + 1 = 6d."""
    assert compute_pool(PoolSpec(characteristic=BODY, level=1, rating=RATING("veteran"))).pool == 6
    with pytest.raises(XpError):
        compute_pool(PoolSpec(rank=1, rating=1))


def test_x6_rows_stack():
    """X6 Amb-5, RULINGS X2 example: Advanced (+1), Clever (+2), masterwork (+1), Difficult (-1),
    Dim light (-1): 6d."""
    spec = PoolSpec(characteristic=MIND, level=2, rank=1, tools=TOOLS("masterwork"),
                    difficulty=DIFFICULTY("difficult"), illumination=ILLUMINATION("dim"))
    assert compute_pool(spec).pool == 6


def test_x6_time_rows_and_their_spellings():
    """[X:L209-219] the Time table; the seed's "liesure" is the same row."""
    assert [TIME(n) for n in ("At your liesure", "take_your_time", "Some pressure",
                              "pressure", "real-pressure", "Extreme pressure")] == [
        2, 1, -1, -2, -3, -4]


def test_x6_thief_light_is_reduced_for_a_tactile_task():
    """[X:L277] "a conditions modifier of -1 due to poor light (picking a lock is not really a
    visual skill...)": Poor -2 halved toward zero is -1 (X6 Amb-4)."""
    assert illumination_dice(2, 0, Relevance.REDUCED) == -1
    assert illumination_dice(1, 0, Relevance.REDUCED) == 0
    assert illumination_dice(3, 0, Relevance.REDUCED) == -1
    assert illumination_dice(4, 2, Relevance.FULL) == -2   # senses cancel whole levels first
    assert illumination_dice(4, 0, Relevance.NONE) == 0
    with pytest.raises(OutOfRange):
        illumination_dice(5)


def test_x6_tools_required_but_missing_cannot_be_rolled():
    """X6 Amb-3: "the task cannot be attempted unless the GM rules an improvised substitute"."""
    pool = compute_pool(PoolSpec(tools=None))
    assert (pool.pool, pool.can_roll) == (None, False)


def test_x6_an_unknown_row_is_named():
    """A row outside the table is `unknown-name`, and the message lists the rows."""
    with pytest.raises(UnknownName, match="routine"):
        DIFFICULTY("trivial")


def test_x8_defaults():
    """[X:L353-357] "Defaulting to a similar Skills will be at -1d penalty. / ... related Skills
    will be at -2d. / ... to a characteristic ... will be with 1d, plus any levels." """
    assert compute_pool(PoolSpec(test=PoolTest.SIMILAR, level=1, rank=1)).pool == 5
    assert compute_pool(PoolSpec(test=PoolTest.RELATED, level=1, rank=1)).pool == 4
    assert compute_pool(PoolSpec(test=PoolTest.CHARACTERISTIC, level=1, mods=1)).pool == 3
    refused = compute_pool(PoolSpec(test=PoolTest.CHARACTERISTIC, permitted=False))
    assert not refused.can_roll


def test_x8_desert_creature():
    """[X:L361] "1d + BOD level + Desert creature" (3d) vs "4d+level+BOD level+Mods" (6d)."""
    assert compute_pool(PoolSpec(test=PoolTest.CHARACTERISTIC, characteristic=BODY, level=1,
                                 mods=1)).pool == 3
    assert compute_pool(PoolSpec(characteristic=BODY, level=1, rank=0, mods=1)).pool == 6


def test_x2_a_pool_below_one_is_declared_and_fails():
    """X2 Amb-4: the pool is reported unclamped and marked as failing without dice."""
    pool = compute_pool(PoolSpec(test=PoolTest.RELATED, level=-2, difficulty=-4))
    assert pool.pool is not None and pool.pool < 0 and pool.auto_fail


def test_x2_start_replaces_base_rank_level_and_mods():
    """[X:L277] "He has 6d of Stealth": a given pool, then the rows."""
    pool = compute_pool(PoolSpec(start=6, level=3, rank=2, mods=2, time=-1))
    assert pool.pool == 5 and pool.parts.base == 6 and pool.parts.level == 0
