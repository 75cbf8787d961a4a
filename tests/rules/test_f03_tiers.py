"""RULINGS F3: enemy tiers (caps, AP, budgets as warnings)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.rules.data import Tier
from fappo_bot.rules.sheet import MASTER_DEFAULT_BUDGET, Sheet, check_sheet, default_budget
from fappo_bot.sheets.convert import sheet_from_data

pytestmark = pytest.mark.unit


def test_f3_veteran_example_costs_45() -> None:
    """[F:L346] "Veterans may buy up to seven Success Points with a Trait and up to six skill
    points for any skill." RULINGS F3 example: 45 CC, AP 4 (the tier's, not bought)."""
    sheet = Sheet(tier=Tier.VETERAN, traits={"Nimble": 7, "Brawny": 5, "Tireless": 3},
                  skills={"Swordfighting": 6, "Stealth": 4, "Searching": 4, "Fisticuffs": 4},
                  floating=2, budget=45)
    result = check_sheet(sheet)
    assert (result.valid, result.cost, result.unspent) == (True, 45, 0)
    assert sheet.base_ap == 4


def test_f3_minion_example_costs_15() -> None:
    """[F:L342] "Minions are built on 10-20 character creation points and have 2 APs."
    RULINGS F3: Brawny 5 (5 SP: +2), Swordfighting 3, Fisticuffs 2, Lifting 2, Stealth 1 = 15."""
    sheet = Sheet(tier=Tier.MINION, traits={"Brawny": 5},
                  skills={"Swordfighting": 3, "Fisticuffs": 2, "Lifting": 2, "Stealth": 1})
    result = check_sheet(sheet)
    assert (result.valid, result.cost, result.unspent) == (True, 15, 5)
    assert not result.warnings


def test_f3_master_example_extra_ap_and_caps() -> None:
    """[F:L348] "at least 6 APs" ... "no limit on the number of Success Points they can buy
    with a Trait and may buy up to eight skill points". RULINGS F3: 6 base AP + 1 extra (8) = 7
    AP; Swordfighting 8 and a Trait with 10 SP are allowed."""
    sheet = Sheet(tier=Tier.MASTER, ap=7, traits={"Brawny": 10},
                  skills={"Swordfighting": 8}, budget=66)
    result = check_sheet(sheet)
    assert result.valid
    assert result.breakdown["ap"] == 8
    assert result.cost == 5 + 7 + 8 + 8
    assert [p.code for p in check_sheet(Sheet(tier=Tier.MASTER,
                                              skills={"Stealth": 9})).errors] == ["skill-cap"]


def test_f3_amb8_npc_over_budget_is_only_a_warning() -> None:
    """[F:L338] enemies use "the same creation rules as PCs"; RULINGS F3 Amb-8: "validation gives
    warnings only (the GM builds NPCs). Caps are errors."""
    sheet = Sheet(tier=Tier.NUISANCE, traits={"Nimble": 3}, skills={"Stealth": 2})
    result = check_sheet(sheet)
    assert result.valid and result.cost == 7 and result.budget == 6
    assert [w.code for w in result.warnings] == ["over-budget"]
    capped = Sheet(tier=Tier.LIEUTENANT, traits={"Nimble": 6})
    assert [p.code for p in check_sheet(capped).errors] == ["trait-sp-cap"]


def test_f3_npc_under_the_tier_range_warns() -> None:
    """[F:L344] "Lieutenants are built on 25-35 character creation points"."""
    result = check_sheet(Sheet(tier=Tier.LIEUTENANT, traits={"Nimble": 3}))
    assert result.valid and [w.code for w in result.warnings] == ["under-budget"]


@pytest.mark.parametrize(("tier", "budget"), [(Tier.PC, 30), (Tier.NUISANCE, 6),
                                              (Tier.MINION, 20), (Tier.LIEUTENANT, 35),
                                              (Tier.VETERAN, 50),
                                              (Tier.MASTER, MASTER_DEFAULT_BUDGET)])
def test_f3_default_budget_is_the_top_of_the_range(tier: Tier, budget: int) -> None:
    """spec/cases.md: "for other tiers it is the top of the tier's range (F3)"."""
    assert default_budget(tier) == budget
    assert check_sheet(Sheet(tier=tier)).budget == budget


@pytest.mark.parametrize("tier", [Tier.NUISANCE, Tier.MINION, Tier.LIEUTENANT, Tier.VETERAN])
def test_f3_amb1_fixed_ap_tiers_cannot_buy_ap(tier: Tier) -> None:
    """RULINGS F3 Amb-1: "fixed for Nuisance, Minion, Lieutenant and Veteran"."""
    from fappo_bot.rules.data import TIERS

    base = TIERS[tier].base_ap
    assert check_sheet(Sheet(tier=tier, ap=base)).breakdown["ap"] == 0
    assert [p.code for p in check_sheet(Sheet(tier=tier, ap=base + 1)).errors] == ["ap-fixed"]


def test_f3_amb4_floating_cap_stays_5_for_masters() -> None:
    """RULINGS F3 Amb-4: "Floating SP cap for Veteran and Master ... 5"."""
    assert [p.code for p in check_sheet(Sheet(tier=Tier.MASTER, floating=6)).errors] == [
        "floating-cap"]


def test_f3_enemies_get_a_racial_package_free() -> None:
    """[F:L338] "Any enemy may have a \"racial package\" built-in without needing to spend extra
    character creation points for them"."""
    package = {"name": "Orc", "cost": 3, "abilities": {"Darkvision": 1}}
    assert check_sheet(sheet_from_data(dict(tier=Tier.MINION, packages=[package]))).breakdown["packages"] == 0
    assert check_sheet(sheet_from_data(dict(tier=Tier.PC, packages=[package]))).breakdown["packages"] == 3


def test_f3_master_range_has_no_top() -> None:
    """[F:L348] "Master creatures are built on 60+ character creation points": the RULINGS F3
    example Master of 66 points is within its range, so no over-budget warning."""
    sheet = Sheet(tier=Tier.MASTER, traits={"Brawny": 10, "Nimble": 8},
                  skills={"Swordfighting": 8, "Fisticuffs": 8, "Stealth": 6, "Searching": 6,
                          "Lifting": 2}, floating=2, ap=7)
    check = check_sheet(sheet)
    assert (check.valid, check.cost, check.warnings, check.unspent) == (True, 66, (), 0)
    assert check_sheet(replace(sheet, budget=60)).warnings[0].code == "over-budget"
