"""RULINGS F28: character advancement and the tournament ledger."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.advancement import (
    Purchase,
    PurchaseKind,
    TournamentLedger,
    award_advancement,
    purchase_cost,
    record_adventure,
    spend_cc,
    starting_budget,
)
from fappo_bot.rules.character import Character, Spell
from fappo_bot.rules.config import AdvancementMenu, MagicMode, RulesConfig
from fappo_bot.rules.data import Tier, Trait
from fappo_bot.rules.packages import Package
from fappo_bot.rules.results import RulesError
from fappo_bot.rules.sheet import Sheet, character_from_sheet
from fappo_bot.sheets.convert import legendary_item, sheet_from_data

pytestmark = pytest.mark.unit

N = Trait.NIMBLE
LITERAL = RulesConfig(advancement_menu=AdvancementMenu.SKILLS_AND_TRAITS)


def kael(cc: int = 0) -> Character:
    return Character(name="Kael", traits={N: 3}, trait_max={N: 3}, floating=0, floating_max=0,
                     skills={"Swordfighting": 4}, unspent_cc=cc)


def test_f28_example_award_3_raise_skill_then_buy_highborn() -> None:
    """[F:L467] "These points may be used to raise skills or saved to buy new Traits." RULINGS
    F28: award 3 -> Swordfighting 4 -> 5 (1) and 2 banked; next adventure +3 -> Highborn (5)."""
    char = award_advancement(kael(), 3)
    char = spend_cc(char, Purchase(kind=PurchaseKind.SKILL, name="Swordfighting"), config=LITERAL)
    assert (char.skills["Swordfighting"], char.unspent_cc) == (5, 2)
    char = award_advancement(char, 3)
    char = spend_cc(char, Purchase(kind=PurchaseKind.TRAIT, name="Highborn"), config=LITERAL)
    assert char.traits[Trait.HIGHBORN] == 3 and char.trait_max[Trait.HIGHBORN] == 3
    assert char.unspent_cc == 0


@pytest.mark.parametrize("award", [-1, 4])
def test_f28_award_is_0_to_3(award: int) -> None:
    """[F:L467] "a small number of character creation points (no more than 3)"."""
    with pytest.raises(RulesError, match="0 to 3"):
        award_advancement(kael(), award)
    assert award_advancement(kael(), 0).unspent_cc == 0  # Amb-3: one-shot games


def test_f28_amb1_whole_creation_menu_with_caps() -> None:
    """RULINGS F28 Amb-1: "everything on the creation menu except special or racial packages
    ... Caps still apply"."""
    char = kael(40)
    char = spend_cc(char, Purchase(kind=PurchaseKind.TRAIT_SP, name="Agile", points=2))
    assert (char.traits[N], char.trait_max[N]) == (5, 5)
    char = spend_cc(char, Purchase(kind=PurchaseKind.FLOATING, points=2))
    assert (char.floating, char.floating_max) == (2, 2)
    char = spend_cc(char, Purchase(kind=PurchaseKind.AP))
    assert char.ap_base == 4
    sword = legendary_item("Longsword", "damage")
    char = spend_cc(char, Purchase(kind=PurchaseKind.LEGENDARY, item=sword))
    assert char.legendary == {"Longsword": 1} and char.weapon("Longsword").damage == 4  # type: ignore[union-attr]
    char = spend_cc(char, Purchase(kind=PurchaseKind.LEGENDARY,
                                   item=legendary_item("Longsword", "accuracy", "ED")))
    assert char.legendary == {"Longsword": 3}
    fireball = Spell(name="Fireball", difficulty=12)
    char = spend_cc(char, Purchase(kind=PurchaseKind.SPELL, spell=fireball))
    assert char.spells == (fireball,)
    assert char.unspent_cc == 40 - 2 - 6 - 8 - 1 - 2 - 2
    with pytest.raises(RulesError, match="at most 3"):
        spend_cc(char, Purchase(kind=PurchaseKind.LEGENDARY,
                                item=legendary_item("Longsword", "damage")))
    with pytest.raises(RulesError, match="cap is 5"):
        spend_cc(char, Purchase(kind=PurchaseKind.TRAIT_SP, name="Nimble"))
    with pytest.raises(RulesError, match="cap is 5"):
        spend_cc(char, Purchase(kind=PurchaseKind.SKILL, name="Swordfighting", points=2))
    with pytest.raises(RulesError, match="cap is 5"):
        spend_cc(char, Purchase(kind=PurchaseKind.FLOATING, points=4))
    with pytest.raises(RulesError, match="already knows"):
        spend_cc(char, Purchase(kind=PurchaseKind.SPELL, spell=fireball))


def test_f28_packages_are_never_bought_after_creation() -> None:
    """[F:L207] "Special ability or racial packages can only be bought at the time of character
    creation."""
    with pytest.raises(RulesError, match="time of character creation") as err:
        spend_cc(kael(10), Purchase(kind=PurchaseKind.PACKAGE,
                                    package=Package(name="Tolkien Elf", cost=4)))
    assert err.value.code == "package-after-creation"


def test_f23_package_ability_improved_with_advancement_cc() -> None:
    """[F:L207] "Once acquired, they can be improved with character creation points like a
    skill." RULINGS F23: later +2 CC raises Exceptional Senses to 3."""
    sheet = sheet_from_data(dict(traits={"Highborn": 3}, packages=[{
        "name": "Tolkien Elf", "cost": 4, "prerequisites": ["Highborn"],
        "abilities": {"Walk Without Trace": 1, "Exceptional Senses": 1}}]))
    elf = award_advancement(replace(character_from_sheet("Elf", sheet), unspent_cc=0), 2)
    elf = spend_cc(elf, Purchase(kind=PurchaseKind.SKILL, name="exceptional senses", points=2))
    assert elf.skills["Exceptional Senses"] == 3 and elf.unspent_cc == 0


def test_f28_amb1_literal_menu_restricts_to_skills_and_traits() -> None:
    """R2 `advancement_menu: skills + traits only`."""
    with pytest.raises(RulesError, match="raise skills") as err:
        spend_cc(kael(10), Purchase(kind=PurchaseKind.FLOATING), config=LITERAL)
    assert err.value.code == "not-on-menu"


def test_f28_refusals_are_clear() -> None:
    """Not enough CC, unknown names, restricted skills, fixed-AP tiers."""
    with pytest.raises(RulesError, match="costs 5 CC but Kael has 2") as err:
        spend_cc(kael(2), Purchase(kind=PurchaseKind.TRAIT, name="Highborn"))
    assert err.value.code == "not-enough-cc"
    with pytest.raises(RulesError, match="no skill"):
        spend_cc(kael(2), Purchase(kind=PurchaseKind.SKILL, name="Juggling"))
    with pytest.raises(RulesError, match="Uncanny"):
        spend_cc(kael(2), Purchase(kind=PurchaseKind.SKILL, name="Spellcasting"))
    with pytest.raises(RulesError, match="already owns"):
        spend_cc(kael(5), Purchase(kind=PurchaseKind.TRAIT, name="Agile"))
    with pytest.raises(RulesError, match="does not own"):
        spend_cc(kael(5), Purchase(kind=PurchaseKind.TRAIT_SP, name="Brawny"))
    vet = Character(name="V", tier=Tier.VETERAN, unspent_cc=8)
    with pytest.raises(RulesError, match="fixed number of AP"):
        spend_cc(vet, Purchase(kind=PurchaseKind.AP))
    with pytest.raises(RulesError, match="General Magic only"):
        spend_cc(kael(5), Purchase(kind=PurchaseKind.SPELL, spell=Spell(name="M", difficulty=4)),
                 config=RulesConfig(magic_mode=MagicMode.GENERAL))
    assert spend_cc(kael(2), Purchase(kind=PurchaseKind.SKILL, name="Juggling"),
                    custom_skills=["Juggling"]).skills["Juggling"] == 1


def test_f28_veteran_caps_apply_after_creation() -> None:
    """[F:L346] "up to seven Success Points with a Trait and up to six skill points"."""
    vet = Character(name="V", tier=Tier.VETERAN, traits={N: 6}, trait_max={N: 6},
                    skills={"Swordfighting": 5}, unspent_cc=5)
    vet = spend_cc(vet, Purchase(kind=PurchaseKind.TRAIT_SP, name="Nimble"))
    vet = spend_cc(vet, Purchase(kind=PurchaseKind.SKILL, name="Swordfighting"))
    assert (vet.trait_max[N], vet.skills["Swordfighting"]) == (7, 6)


def test_f28_tournament_ledger_accumulates_forever() -> None:
    """[F:L469] "The player receives one CC point upon the successful completion of an
    adventure. ... These points may accumulate forever"."""
    ledger = TournamentLedger(player="ana")
    for completed in (True, False, True, True):
        ledger = record_adventure(ledger, completed=completed)
    assert (ledger.points, ledger.adventures) == (3, 4)
    assert starting_budget(ledger) == 33
    sheet = Sheet(traits={"Nimble": 3}, skills={"Stealth": 5}, floating=5,
                  budget=starting_budget(ledger))
    assert character_from_sheet("New", sheet).unspent_cc == 33 - 5 - 5 - 15


@given(st.lists(st.sampled_from(["skill", "trait_sp", "floating", "ap"]), max_size=12),
       st.integers(0, 40))
def test_f28_cc_never_negative_and_costs_match(kinds: list[str], cc: int) -> None:
    """Spending never leaves a negative bank; each accepted purchase costs its menu price."""
    char = kael(cc)
    for kind in kinds:
        purchase = Purchase(kind=PurchaseKind(kind), name="Swordfighting" if kind == "skill"
                            else "Nimble")
        try:
            after = spend_cc(char, purchase)
        except RulesError:
            continue
        assert after.unspent_cc == char.unspent_cc - purchase_cost(char, purchase) >= 0
        char = after
