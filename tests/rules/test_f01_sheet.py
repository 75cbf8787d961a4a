"""RULINGS F1: character creation costs and limits (sheets), and the sheet -> Character step."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.character import FLOATING, Spell
from fappo_bot.rules.data import SkillDef, Tier, Trait
from fappo_bot.rules.results import RulesError
from fappo_bot.rules.sheet import Sheet, character_from_sheet, check_sheet, default_budget
from fappo_bot.sheets.convert import sheet_from_data
from tests.shared_folder import public_cases

pytestmark = pytest.mark.unit


def codes(sheet: Sheet, **kwargs: object) -> list[str]:
    return [p.code for p in check_sheet(sheet, **kwargs).errors]  # type: ignore[arg-type]


def test_f1_valid_pc_example_costs_27_and_banks_3() -> None:
    """[F:L19] "Every character starts with 30 character creation points and 3 Action Points";
    RULINGS F1 example: 27 spent, 3 banked (F1 Amb-1)."""
    sheet = sheet_from_data(dict(traits={"Nimble": 5, "Vigilant": 3},
                  skills={"Swordfighting": 4, "Stealth": 3, "Searching": 2, "Acrobatics": 2},
                  floating=1, ap=3, legendary=[{"item": "Longsword", "points": 1}], budget=30))
    result = check_sheet(sheet)
    assert (result.valid, result.cost, result.unspent) == (True, 27, 3)
    assert result.breakdown == {"traits": 10, "extra_sp": 2, "skills": 11, "floating": 3, "ap": 0,
                                "packages": 0, "legendary": 1, "spells": 0}


def test_f1_valid_pc_with_an_ap_focus_costs_30() -> None:
    """[F:L29] "Extra APs: 8 pts each": Brawny 5 + Tireless 5 + 1 extra AP (8) + Fisticuffs 5 +
    Wrestling 5 + Lifting 2 = 30, AP 4."""
    sheet = Sheet(traits={"Brawny": 3, "Tireless": 3}, ap=4,
                  skills={"Fisticuffs": 5, "Wrestling": 5, "Lifting": 2})
    result = check_sheet(sheet)
    assert (result.valid, result.cost, result.unspent) == (True, 30, 0)
    assert character_from_sheet("Brute", sheet).ap_base == 4


def test_f1_spec_example_with_package_and_spell_costs_28() -> None:
    """spec/cases.md sheet example: 5+2 + 5 + 4+3 + 3 + 1 + 3 + 2 = 28, 2 unspent."""
    sheet = sheet_from_data({
        "tier": "pc", "traits": {"Nimble": 5, "Vigilant": 3},
        "skills": {"Swordfighting": 4, "Stealth": 3}, "floating": 1, "ap": 3,
        "legendary": [{"item": "Longsword", "points": 1}],
        "packages": [{"name": "Wood Elf", "cost": 3}],
        "spells": [{"name": "Fireball", "difficulty": 12}], "budget": 30})
    result = check_sheet(sheet)
    assert (result.valid, result.cost, result.unspent) == (True, 28, 2)


def test_f1_over_budget_is_an_error_for_a_pc() -> None:
    """[F:L19] "starts with 30 character creation points": 31 is refused."""
    sheet = Sheet(traits={"Nimble": 5, "Brawny": 5, "Tireless": 3},
                  skills={"Swordfighting": 5, "Fisticuffs": 5, "Climbing": 2}, budget=30)
    result = check_sheet(sheet)
    assert (result.valid, result.cost) == (False, 31)
    assert codes(sheet) == ["over-budget"]
    assert "31" in result.errors[0].message and "30" in result.errors[0].message


@pytest.mark.parametrize(
    ("sheet", "code"),
    [
        (Sheet(traits={"Nimble": 6}, skills={"Swordfighting": 3}), "trait-sp-cap"),
        (Sheet(traits={"Nimble": 2}, skills={"Swordfighting": 3}), "trait-sp-min"),
        (Sheet(traits={"Nimble": 3}, skills={"Swordfighting": 6}), "skill-cap"),
        (Sheet(traits={"Nimble": 3}, skills={"Swordfighting": -1}), "skill-cap"),
        (Sheet(traits={"Nimble": 3}, floating=6), "floating-cap"),
        (Sheet(traits={"Sagacious": 3}, skills={"Spellcasting": 3}), "skill-forbidden"),
        (Sheet(traits={"Nimble": 3}, skills={"Racial Abilities": 1}), "skill-forbidden"),
        (sheet_from_data(dict(traits={"Nimble": 3}, legendary=[{"item": "Longsword", "points": 4}])),
         "legendary-cap"),
        (Sheet(traits={"Nimble": 3, "Lucky": 3}), "unknown-name"),
        (Sheet(traits={"Nimble": 3}, skills={"Basket Weaving": 2}), "unknown-name"),
        (Sheet(traits={"Nimble": 3, "Agile": 4}), "duplicate-name"),
        (Sheet(traits={"Nimble": 3}, ap=2), "ap-min"),
    ],
)
def test_f1_invalid_sheets(sheet: Sheet, code: str) -> None:
    """[F:L23] "to a maximum number of SPs of 5 per Trait"; [F:L25] "to a maximum of 5 per
    skill"; [F:L27] "to a maximum of 5"; [F:L158] "may not buy or use skills that have those
    Suggested Traits"; [F:L352] "up to three ... on any single legendary item"."""
    assert codes(sheet) == [code]


def test_f1_every_problem_is_reported_not_only_the_first() -> None:
    """STYLE: collect every problem, so a player fixes the sheet in one edit."""
    sheet = sheet_from_data(dict(traits={"Nimble": 6, "Lucky": 3, "Vigilant": 2},
                  skills={"Swordfighting": 6, "Spellcasting": 1}, floating=6,
                  legendary=[{"item": "Ring", "points": 5}]))
    result = check_sheet(sheet)
    assert sorted(p.code for p in result.errors) == sorted(
        ["trait-sp-cap", "unknown-name", "trait-sp-min", "skill-cap", "skill-forbidden",
         "floating-cap", "legendary-cap", "over-budget"])
    assert all(p.field and p.message for p in result.errors)


def test_f2_amb4_alternate_trait_names_are_accepted() -> None:
    """[F:L52] "Nimble: ... Alternate name: Agile"; names match case-insensitively."""
    sheet = Sheet(traits={"agile": 4, "Inhuman": 3}, skills={"swordfighting": 2,
                                                            "racial abilities": 1})
    assert check_sheet(sheet).valid
    kael = character_from_sheet("Kael", sheet)
    assert kael.traits == {Trait.NIMBLE: 4, Trait.FANTASTICAL: 3}
    assert kael.skills == {"Swordfighting": 2, "Racial Abilities": 1}


def test_f1_amb6_custom_skills_are_allowed_when_passed() -> None:
    """[F:L104] "Other skills may be introduced by the GM"."""
    sheet = Sheet(traits={"Clever": 3}, skills={"Basket Weaving": 2})
    assert codes(sheet) == ["unknown-name"]
    assert check_sheet(sheet, custom_skills=["Basket Weaving"]).valid
    hexing = SkillDef("Hexing", Trait.UNCANNY)
    assert codes(Sheet(traits={"Clever": 3}, skills={"Hexing": 1}),
                 custom_skills=[hexing]) == ["skill-forbidden"]


def test_f1_amb4_zero_rated_restricted_skill_is_not_a_purchase() -> None:
    """[F:L158] "may not buy ... skills": listing Spellcasting at 0 buys nothing."""
    assert check_sheet(Sheet(traits={"Nimble": 3}, skills={"Spellcasting": 0})).valid


def test_f26_spells_on_a_sheet_cost_their_learned_price() -> None:
    """[F:L446] "pay a number of character creation points equal to the spell's final base
    difficulty divided by four"; a bad effect is an error of the sheet."""
    sheet = Sheet(traits={"Uncanny": 3}, skills={"Spellcasting": 3},
                  spells=[Spell(name="Fireball", effects={"damage": 4, "specials": 1,
                                                          "locus": True, "radius": 2,
                                                          "loud": True, "traceable": True}),
                          Spell(name="Mend", difficulty=4)])
    result = check_sheet(sheet)
    assert result.breakdown["spells"] == 2 + 1
    assert not result.warnings
    bad = Sheet(traits={"Uncanny": 3}, spells=[Spell(name="Zap", effects={"zap": 1})])
    assert codes(bad) == ["unknown-name"]


def test_f1_spells_without_uncanny_warn() -> None:
    """[F:L158]: without Uncanny the spells cannot be cast (a warning; the sheet stays valid)."""
    result = check_sheet(Sheet(traits={"Nimble": 3}, spells=[Spell(name="M", difficulty=4)]))
    assert result.valid and [w.code for w in result.warnings] == ["spell-unusable"]


def test_f1_character_from_sheet_pools_start_full() -> None:
    """RULINGS F1: "Current SP pools start full: sp_cur[t] = sp_max[t]; floating_cur =
    floating_max"; RULINGS F1 example pools Nimble 5/5, Vigilant 3/3, floating 1/1, AP 3."""
    sheet = sheet_from_data(dict(traits={"Nimble": 5, "Vigilant": 3},
                  skills={"Swordfighting": 4, "Stealth": 3, "Searching": 2, "Acrobatics": 2},
                  floating=1, legendary=[{"item": "Longsword", "upgrades": ["damage"]}]))
    kael = character_from_sheet("Kael", sheet, weapons=["Longsword", "Dagger"])
    assert kael.traits == kael.trait_max == {Trait.NIMBLE: 5, Trait.VIGILANT: 3}
    assert (kael.floating, kael.floating_maximum, kael.ap_base) == (1, 1, 3)
    assert kael.pool(FLOATING) == 1
    assert kael.unspent_cc == 3
    assert kael.legendary == {"Longsword": 1}
    sword = kael.weapon("Longsword")
    assert sword is not None and sword.damage == 4 and sword.magical
    assert kael.weapon("Dagger") is not None and not kael.weapon("Dagger").magical  # type: ignore[union-attr]


def test_f1_character_from_an_invalid_sheet_is_refused_with_every_message() -> None:
    """A clear message, never a traceback: every error of the sheet is listed."""
    with pytest.raises(RulesError) as err:
        character_from_sheet("X", Sheet(traits={"Nimble": 6}, floating=6))
    assert "6 SP" in str(err.value) and "floating" in str(err.value)
    loose = character_from_sheet("X", Sheet(traits={"Nimble": 6}), strict=False)
    assert loose.traits == {Trait.NIMBLE: 6}
    with pytest.raises(RulesError, match="weapon table"):
        character_from_sheet("X", Sheet(traits={"Nimble": 3}), weapons=["Laser Cannon"])


def test_f1_package_abilities_become_skills() -> None:
    """[F:L207] abilities "can be improved with character creation points like a skill"."""
    sheet = sheet_from_data(dict(traits={"Highborn": 3},
                  packages=[{"name": "Tolkien Elf", "cost": 4, "prerequisites": ["Highborn"],
                             "abilities": {"Walk Without Trace": 1, "Exceptional Senses": 1},
                             "improvements": {"Exceptional Senses": 2}}]))
    result = check_sheet(sheet)
    assert result.valid and result.breakdown["packages"] == 6
    elf = character_from_sheet("Elf", sheet)
    assert elf.skills == {"Walk Without Trace": 1, "Exceptional Senses": 3}


def test_f1_tier_name_any_case_and_default_budget() -> None:
    """spec/cases.md: "The default budget is 30 for a PC"."""
    assert sheet_from_data({"tier": "PC"}).tier is Tier.PC
    assert default_budget(Tier.PC) == 30


_traits = st.dictionaries(st.sampled_from([t.value for t in Trait]), st.integers(-2, 12),
                          max_size=10)
_skills = st.dictionaries(st.sampled_from(["Swordfighting", "Stealth", "Healing", "Archery",
                                           "Spellcasting"]), st.integers(-2, 10), max_size=5)


@given(_traits, _skills, st.integers(-2, 8), st.integers(0, 8),
       st.sampled_from(list(Tier)))
def test_f1_cost_never_negative_and_unspent_consistent(
    traits: dict[str, int], skills: dict[str, int], floating: int, ap: int, tier: Tier
) -> None:
    """RULINGS F1 Rule: every term of the cost is a price, so the cost is never negative and
    cost + unspent covers the budget."""
    result = check_sheet(Sheet(tier=tier, traits=traits, skills=skills, floating=floating,
                               ap=ap))
    assert result.cost >= 0 and result.unspent >= 0
    assert result.unspent == max(0, result.budget - result.cost)
    assert result.valid == (not result.errors)


@given(st.integers(3, 5), st.integers(0, 5))
def test_f1_each_extra_sp_and_skill_point_costs_one(sp: int, rating: int) -> None:
    """[F:L23] "1 pt each"; [F:L25] "Skill points: 1 pt each"."""
    cost = check_sheet(Sheet(traits={"Nimble": sp}, skills={"Stealth": rating})).cost
    assert cost == 5 + (sp - 3) + rating


@pytest.mark.parametrize("case", public_cases("sheet"))
def test_f1_public_sheet_cases(case: dict[str, object]) -> None:
    """../shared/cases/sheets-spells-rest.yaml: the public sheet cases, checked directly."""
    result = check_sheet(sheet_from_data(case["sheet"]))
    expect = case["expect"]
    assert isinstance(expect, dict)
    for key in ("valid", "cost", "unspent"):
        if key in expect:
            assert getattr(result, key) == expect[key], key
    if "errors" in expect:
        assert {p.code for p in result.errors} == {e["code"] for e in expect["errors"]}
