"""RULINGS F0/F4: success levels and SP spending through the resolver."""

from __future__ import annotations

import pytest
from engine_helpers import act, char, order, run, state, who
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.rules.levels import SuccessLevel, chart, resolve_check

pytestmark = pytest.mark.unit


def test_f4_chart_reads_the_margin():
    """[F:L88-92] "-3 or worse Abject Failure / -2 or -1 Failure / ±0 Bare Success / +1 or +2
    Solid Success / +3 or better Great Success"."""
    aldo = char("Aldo", ap=4, traits={"Alluring": 3}, skills={"Climbing": 2})
    result = run(state(aldo), order("Aldo", {"kind": "skill", "ap": 1, "skill": "Climbing",
                                              "difficulty": 6}))
    a = act(result, "Aldo")
    assert (a.total, a.difficulty, a.margin, a.level) == (3, 6, -3, SuccessLevel.ABJECT)


def test_f4_suggested_trait_protects_from_abject_until_minus_five():
    """[F:L156] "will not result in an Abject Failure unless the total is -5 or worse"."""
    nia = char("Nia", traits={"Nimble": 3}, skills={"Stealth": 2, "Acrobatics": 0})
    result = run(state(nia), order(
        "Nia",
        {"kind": "skill", "ap": 1, "skill": "Acrobatics", "difficulty": 5},
        {"kind": "skill", "ap": 1, "skill": "Stealth", "difficulty": 8},
    ))
    assert act(result, "Nia", 0).level is SuccessLevel.FAILURE
    assert act(result, "Nia", 1).level is SuccessLevel.ABJECT


def test_f4_suggested_sp_counts_one_extra_once_and_is_spent():
    """[F:L156] "1 SP becomes 2, 2 becomes 3"; all declared SP are deducted (P4)."""
    oren = char("Oren", traits={"Nimble": 3}, skills={"Acrobatics": 1})
    result = run(state(oren), order("Oren", {"kind": "skill", "ap": 1, "skill": "Acrobatics",
                                              "difficulty": 7, "sp": {"Nimble": 2}}))
    assert act(result, "Oren").level is SuccessLevel.SOLID
    assert who(result, "Oren").pool("Nimble") == 1


def test_f4_gm_veto_refunds_non_suggested_sp():
    """F4 Amb-14: "vetoed SP are refunded and the action resolves without them"."""
    kael = char("Kael", traits={"Nimble": 3, "Alluring": 3}, skills={"Stealth": 2})
    result = run(state(kael), order("Kael", {"kind": "skill", "ap": 1, "skill": "Stealth",
                                              "difficulty": 6, "sp": {"Alluring": 1},
                                              "sp_vetoed": True}))
    assert act(result, "Kael").level is SuccessLevel.FAILURE
    assert who(result, "Kael").pool("Alluring") == 3


@pytest.mark.parametrize("skill", [None, "Swordfighting", "sword"])
def test_f4_a_veto_keeps_the_suggested_traits_sp_spent_when_the_weapon_names_the_skill(skill):
    """F4 Amb-14, P4: a veto refunds only SP from Traits other than the skill's Suggested one.
    An attack whose skill comes from its weapon (or is written as a prefix) had all its SP
    refunded, the Suggested Trait's included, although grading counted them."""
    kael = char("Kael", traits={"Nimble": 3, "Brawny": 3}, skills={"Swordfighting": 3},
                weapons=["Broadsword"])
    gob = char("Gob", skills={"Knife Fighting": 4}, weapons=["Dagger"])
    attack = {"kind": "attack", "ap": 1, "target": "Gob", "sp": {"Nimble": 1, "Brawny": 1},
              "sp_vetoed": True, **({"skill": skill} if skill else {})}
    result = run(state(kael, gob), order("Kael", attack))
    # Swordfighting 3 + 1 AP = 4 vs 4 - 1 = 3: solid, up to great with the Nimble SP (the
    # Suggested Trait's first SP counts double); the vetoed Brawny SP come back
    assert act(result, "Kael").level is SuccessLevel.GREAT
    assert (who(result, "Kael").pool("Nimble"), who(result, "Kael").pool("Brawny")) == (2, 3)


@given(st.integers(-12, 12), st.integers(-12, 12), st.booleans(), st.integers(0, 3),
       st.integers(0, 3))
@settings(max_examples=300, deadline=None)
def test_f4_level_is_monotone_in_margin(m1, m2, protected, up, down):
    """Success level never falls as the margin rises (F0 CHART, F4 Rule)."""
    lo, hi = sorted((m1, m2))
    a = resolve_check(lo, 0, protected=protected, shift_up=up, shift_down=down)
    b = resolve_check(hi, 0, protected=protected, shift_up=up, shift_down=down)
    assert a.level <= b.level
    assert chart(lo, protected) <= chart(hi, protected)
