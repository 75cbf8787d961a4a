"""RULINGS F24 (General Magic table), F25 (spell profile helpers), F26 (Specific Magic)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.character import Character, Spell
from fappo_bot.rules.data import Trait
from fappo_bot.rules.magic import (
    CONCENTRATION_TURNS,
    EFFECTS,
    EFFECTS_BY_KEY,
    MOOD_LOGICAL,
    MOOD_WILDLY_INCONSISTENT,
    cast_difficulty,
    general_difficulty,
    learned_cast_difficulty,
    learned_difficulty,
    learned_spell_cost,
    profile_of,
    spell_cost,
    spell_general_difficulty,
    spell_profile,
    suggested_mood,
)
from fappo_bot.rules.results import RulesError
from tests.shared_folder import public_cases

pytestmark = pytest.mark.unit

FIREBALL = {"damage": 4, "specials": 1, "locus": True, "radius": 2, "loud": True,
            "traceable": True}

SPEC_KEYS = (
    "caster_immune damage heal specials radius accuracy shape_unliving shape_living mind_insert "
    "animate create_unliving create_living touch traceable locus locus_speed locus_teleport "
    "locus_time delay trigger_wait project_senses teleport_material invisibility duration loud "
    "conc_2turns conc_minute conc_hour conc_day"
).split()


def test_f24_effects_table_has_exactly_the_spec_keys() -> None:
    """[F:L362] "Start with a base difficulty of 3 and add/subtract on the effects table"."""
    assert [row.key for row in EFFECTS] == SPEC_KEYS
    assert all(row.seed for row in EFFECTS)


def test_r3_row2_r4_item9_fireball_general_difficulty_12() -> None:
    """[F:L442] "Final difficulty: 12 + 1 per Range between the caster and the point where the
    explosion goes off." (R3 row 2, R4 item 9: at 3 Ranges, 15)."""
    d = general_difficulty(FIREBALL)
    assert d == 12
    assert cast_difficulty(d, 3) == 15


def test_r3_row4_fireball_learned_difficulty_6() -> None:
    """[F:L444] "So the example Fireball spell would only have a base difficulty of 6 + 1 per
    Range to cast" (R3 row 4, R4 item 9: at 3 Ranges, 9)."""
    assert learned_difficulty(12) == 6
    assert learned_cast_difficulty(12, 3) == 9


def test_r3_row5_fireball_costs_2_cc() -> None:
    """[F:L446] "So the Fireball spell would cost two character creation points." (R3 row 5:
    ceil(6/4) = 2, not ceil(12/4) = 3)."""
    assert spell_cost(learned_difficulty(12)) == 2
    assert learned_spell_cost(Spell(name="Fireball", effects=FIREBALL)) == 2
    assert learned_spell_cost(Spell(name="Fireball", difficulty=12)) == 2


def test_f24_invisibility_of_a_180_lb_man_for_4_minutes_is_11() -> None:
    """[F:L408] "+3: Causes up to 50 lbs of living or 200 lbs of unliving material to become
    invisible (+1 per additional 50 lbs)"; [F:L410] "+2 = x4"."""
    effects = {"invisibility": {"living": 180, "unliving": 0}, "duration": 2}
    d = general_difficulty(effects)
    assert d == 11
    assert cast_difficulty(d, 1) == 12
    assert learned_difficulty(d) == 5
    assert learned_cast_difficulty(d, 1) == 6
    assert spell_cost(5) == 2
    assert spell_profile(effects).duration_factor == 4


def test_f24_heal_one_level_by_touch_is_4() -> None:
    """[F:L368] "+2: Per Health Level the spell heals a character"; [F:L388] "-1: Requires the
    caster to touch the target"."""
    d = general_difficulty({"heal": 1, "touch": True})
    assert d == 4
    assert cast_difficulty(d, 0) == 4
    assert learned_difficulty(d) == 2
    assert spell_cost(2) == 1


def test_f24_heal_two_levels_at_one_range_is_8() -> None:
    """RULINGS F24 example: "Heal 2 levels at 1 Range: 3 + 4 + 1 = 8"."""
    assert cast_difficulty(general_difficulty({"heal": 2}), 1) == 8


def test_f24_create_120_lbs_of_stone_is_7() -> None:
    """[F:L382] "+2: Creates 50 lbs of unliving material (+1 per extra 50 lbs)": 2 + ceil(70/50)."""
    assert general_difficulty({"create_unliving": 120}) == 7


def test_f26_examples_heal_two_by_touch_and_rounding() -> None:
    """[F:L444] "one-half of its original casting difficulty (round down ...)"; [F:L446]
    "(round up this time ...)". RULINGS F26: D_nr 6 -> 3, cost 1; 18 -> 9, cost 3; 17 -> 8, 2."""
    d = general_difficulty({"heal": 2, "touch": True})
    assert (d, learned_difficulty(d), spell_cost(learned_difficulty(d))) == (6, 3, 1)
    assert (learned_difficulty(18), spell_cost(learned_difficulty(18))) == (9, 3)
    assert (learned_difficulty(17), spell_cost(learned_difficulty(17))) == (8, 2)


@pytest.mark.parametrize(
    ("effects", "expected"),
    [
        ({"shape_unliving": 50}, 4),
        ({"shape_unliving": 51}, 5),  # Amb-1: weights round UP
        ({"shape_living": 25}, 3 + 1 + 2),
        ({"animate": 150}, 3 + 1 + 2),
        ({"create_living": 10}, 5),  # Amb-2: exactly 10 lbs is the base
        ({"create_living": 11}, 6),
        ({"create_living": 50}, 3 + 2 + 2),
        ({"locus": True, "locus_speed": 3}, 3 + 1 + 3),
        ({"locus": True, "locus_teleport": 2.5}, 3 + 1 + 3),
        ({"locus": True, "locus_time": 3}, 3 + 1 + 7),
        ({"delay": True, "trigger_wait": True}, 6),
        ({"project_senses": 2}, 7),
        ({"mind_insert": True}, 6),
        ({"caster_immune": True, "radius": 1}, 7),
        ({"accuracy": 2}, 5),
        ({"teleport_material": {"living": 0, "unliving": 50}}, 6),
        ({"teleport_material": {"living": 40, "unliving": 50}}, 7),
        ({"teleport_material": {"living": 30, "unliving": 60}}, 3 + 3 + 1),  # Amb-3: 10 + 10
        ({"invisibility": {"unliving": 200}}, 6),
        ({"invisibility": {"living": 60, "unliving": 210}}, 3 + 3 + 1),  # 10 + 10 -> 1 step
        ({"conc_2turns": True}, 2),
        ({"conc_minute": True}, 1),
        ({"conc_hour": True}, 0),
        ({"conc_day": True}, -1),
        ({"touch": False, "loud": False}, 3),
    ],
)
def test_f24_table_rows(effects: dict[str, object], expected: int) -> None:
    """[F:L364-420] each row of the effects table, as data."""
    assert general_difficulty(effects) == expected


def test_f24_amb5_concentration_options_are_mutually_exclusive() -> None:
    """[F:L414-420] "-1: Takes two full turns ..." / "-4: Takes a day or more ...": one only."""
    with pytest.raises(RulesError) as err:
        general_difficulty({"conc_minute": True, "conc_hour": True})
    assert err.value.code == "concentration-conflict"
    assert "pick one" in str(err.value)


def test_f24_amb8_a_negative_row_applies_at_most_once() -> None:
    """[F:L388] "-1: Requires the caster to touch the target": touching twice is not -2."""
    with pytest.raises(RulesError) as err:
        general_difficulty({"heal": 1, "touch": 2})
    assert "at most once" in str(err.value)


def test_f24_unknown_effect_key_is_a_clear_error() -> None:
    """Only the table's rows exist [F:L362]; Range is priced separately [F:L386]."""
    with pytest.raises(RulesError) as err:
        general_difficulty({"damage": 2, "lightning": 1})
    assert err.value.code == "unknown-name"
    assert "'lightning' is not a spell effect" in str(err.value)
    with pytest.raises(RulesError, match="Ranges"):
        general_difficulty({"range": 2})


@pytest.mark.parametrize(
    "effects",
    [{"damage": -1}, {"damage": "lots"}, {"locus_speed": 11}, {"invisibility": 100},
     {"invisibility": {"living": 10, "ghostly": 5}}, {"radius": 1.5}],
)
def test_f24_bad_effect_values_are_refused(effects: dict[str, object]) -> None:
    """[F:L394] "up to 10 Ranges/turn"; counts are whole numbers; loads are living/unliving."""
    with pytest.raises(RulesError):
        general_difficulty(effects)


def test_f24_amb7_cast_difficulty_floor_is_configurable() -> None:
    """RULINGS F24 Amb-7: minimum difficulty 1 (config `min_spell_difficulty`)."""
    d = general_difficulty({"conc_day": True, "touch": True, "loud": True})
    assert d == -3
    assert cast_difficulty(d, 0) == 1
    assert cast_difficulty(d, 0, None) == -3
    assert learned_cast_difficulty(d, 1) == 1
    with pytest.raises(RulesError):
        cast_difficulty(4, -1)


def test_f25_ad_hoc_accuracy_and_flooded_mind_raise_the_cast() -> None:
    """[F:L448] "This can be increased by adding points to the spell's difficulty on a
    one-to-one basis"; [F:L424] "will increase the difficulty of the casting by 2"."""
    # RULINGS F25 example: message to a panicking ally at 2 Ranges: 3 + 3 + 2 + 2 = 10
    d = general_difficulty({"mind_insert": True})
    assert cast_difficulty(d, 2, flooded=True) == 10
    assert cast_difficulty(12, 2, accuracy=2) == 16
    assert learned_cast_difficulty(12, 2, accuracy=1) == 9


def test_f25_mind_spell_flee_at_one_range_is_7() -> None:
    """RULINGS F25 example: mind spell "flee!" at 1 Range: D_cast = 3 + 3 + 1 = 7."""
    effects = {"mind_insert": True}
    assert cast_difficulty(general_difficulty(effects), 1) == 7
    assert spell_profile(effects).mind
    assert spell_profile(effects).attacks


def test_f25_spell_profile_of_the_fireball() -> None:
    """[F:L430-436] "Does 4 levels of damage on a Solid Success", "Special: Fire", "2 Range
    radius"."""
    profile = spell_profile(FIREBALL)
    assert (profile.damage, profile.specials, profile.radius, profile.accuracy) == (4, 1, 2, 0)
    assert profile.attacks and profile.area and not profile.mind
    assert profile.concentration_turns == 0


def test_f25_profiles_of_heal_concentration_and_difficulty_only_spells() -> None:
    """RULINGS F24 Amb-5 (a minute = 6 turns) and spec/cases.md (difficulty-only: no attack)."""
    heal = spell_profile({"heal": 2, "touch": True, "conc_minute": True})
    assert (heal.heal, heal.touch, heal.concentration_turns, heal.attacks) == (2, True, 6, False)
    assert CONCENTRATION_TURNS == {"conc_2turns": 2, "conc_minute": 6, "conc_hour": 360,
                                   "conc_day": 8640}
    mend = profile_of(Spell(name="Mend", difficulty=4))
    assert mend.difficulty == 4 and not mend.attacks
    assert profile_of(Spell(name="Fireball", effects=FIREBALL)).attacks
    with pytest.raises(RulesError):
        spell_general_difficulty(Spell(name="Nothing"))


def test_f24_amb4_teleporting_material_beyond_one_mile() -> None:
    """[F:L406] "up to 1 mile instantly"; RULINGS F24 Amb-4: "+1 per extra mile"."""
    assert general_difficulty({"teleport_material": {"unliving": 50, "miles": 1}}) == 6
    assert general_difficulty({"teleport_material": {"unliving": 50, "miles": 3}}) == 8
    with pytest.raises(RulesError, match="'miles'"):
        general_difficulty({"invisibility": {"living": 50, "miles": 2}})


def test_f24_amb6_base_duration_one_minute_doubled() -> None:
    """[F:L410] "+1: Doubles any spell duration (+1 = x2, +2 = x4 ...)"; Amb-6: base 1 minute."""
    assert spell_profile({"locus": True}).duration_turns == 6
    assert spell_profile({"locus": True, "duration": 3}).duration_turns == 48


def test_f25_amb4_mood_suggestion_for_vigilant_or_sagacious_targets() -> None:
    """[F:L422] "can push the difficulty up to 15 or even higher for Vigilant or Sagacious
    foes"."""
    calm = Character(name="Guard", traits={Trait.BRAWNY: 3})
    wary = Character(name="Sage", traits={Trait.SAGACIOUS: 3})
    assert suggested_mood(MOOD_WILDLY_INCONSISTENT, calm) == 15
    assert suggested_mood(MOOD_WILDLY_INCONSISTENT, wary) == 17
    assert suggested_mood(MOOD_LOGICAL, wary) == 7


def test_f24_specials_may_be_listed_by_name() -> None:
    """[F:L370] "+2: Per Special on a Great Success": a list of Specials counts each."""
    assert general_difficulty({"damage": 2, "specials": ["Fire", "Knockdown"]}) == 9


_positive = {
    key: st.integers(min_value=0, max_value=10)
    for key in ("damage", "heal", "specials", "radius", "accuracy", "project_senses", "duration")
}


@given(st.fixed_dictionaries({}, optional=_positive), st.integers(0, 30))
def test_f24_difficulty_is_monotone_in_damage(effects: dict[str, int], extra: int) -> None:
    """[F:L366] "+1: Per Health Level of damage": more damage never makes a spell easier."""
    base = dict(effects)
    damage = base.pop("damage", 0)
    assert general_difficulty({**base, "damage": damage + extra}) == (
        general_difficulty({**base, "damage": damage}) + extra
    )


@given(st.integers(-20, 60), st.integers(0, 20))
def test_f26_cost_never_negative_and_cast_never_below_floor(d: int, ranges: int) -> None:
    """[F:L446] a cost in CC is never negative; RULINGS F24 Amb-7 floor of 1."""
    assert spell_cost(learned_difficulty(d)) >= 0
    assert cast_difficulty(d, ranges) >= 1
    assert learned_cast_difficulty(d, ranges) >= 1
    assert learned_difficulty(d) <= max(d, 0) or d < 0


@given(st.integers(0, 400), st.integers(0, 400))
def test_f24_weights_round_up_monotone(a: int, b: int) -> None:
    """RULINGS F24 Amb-1: partial weight increments round up, so more weight never costs less."""
    lo, hi = sorted((a, b))
    for key in ("shape_unliving", "shape_living", "animate", "create_unliving", "create_living"):
        if lo > 0:
            assert general_difficulty({key: lo}) <= general_difficulty({key: hi})
    assert EFFECTS_BY_KEY["invisibility"].modifier("invisibility", {"living": hi}) >= 3 or hi == 0


@pytest.mark.parametrize("case", public_cases("spell"))
def test_f24_public_spell_cases(case: dict[str, object]) -> None:
    """../shared/cases/sheets-spells-rest.yaml: the public spell cases, checked directly."""
    effects, ranges = case["effects"], case.get("ranges", 0)
    assert isinstance(effects, dict) and isinstance(ranges, int)
    d = general_difficulty(effects)
    got = {"difficulty": d, "cast_difficulty": cast_difficulty(d, ranges),
           "learned": learned_difficulty(d),
           "learned_cast_difficulty": learned_cast_difficulty(d, ranges),
           "cost": spell_cost(learned_difficulty(d))}
    expect = case["expect"]
    assert isinstance(expect, dict)
    assert {k: got[k] for k in expect} == expect
