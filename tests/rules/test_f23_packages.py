"""RULINGS F23: special ability and racial packages."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.rules.data import Tier, Trait
from fappo_bot.rules.packages import (
    Package,
    check_packages,
    package_cost,
    refuse_after_creation,
)
from fappo_bot.rules.sheet import Sheet, check_sheet
from fappo_bot.sheets.convert import build_model, package_data

pytestmark = pytest.mark.unit

ELF = build_model(Package, package_data({
    "name": "Tolkien Elf", "cost": 4, "prerequisites": ["Highborn"],
    "abilities": {"Walk Without Trace": 1, "Exceptional Senses": 1}}), "package")


def test_f23_tolkien_elf_example() -> None:
    """[F:L207] "a Tolkien Elf racial package would contain abilities like Walk Without Trace and
    Exceptional Senses"; [F:L209] "would almost certainly require the character to take the
    Highborn Trait". RULINGS F23: priced 4, later +2 raises Exceptional Senses to 3."""
    assert package_cost(ELF, Tier.PC) == 4
    assert all(a.suggested == "Fantastical" for a in ELF.abilities)
    assert check_packages([ELF], owned={Trait.HIGHBORN}, tier=Tier.PC) == []
    improved = replace(ELF, improvements={"Exceptional Senses": 2})
    assert improved.ratings() == {"Walk Without Trace": 1, "Exceptional Senses": 3}
    assert package_cost(improved, Tier.PC) == 6


def test_f23_amb1_prerequisites_are_hard_requirements() -> None:
    """[F:L209] "Special packages can come with other prerequisites"."""
    problems = check_packages([ELF], owned={Trait.NIMBLE}, tier=Tier.PC)
    assert [p.code for p in problems] == ["package-prerequisite"]
    assert "Highborn" in problems[0].message
    odd = Package(name="Odd", prerequisites=("Lucky",))
    assert [p.code for p in check_packages([odd], owned=set(), tier=Tier.PC)] == [
        "unknown-name"]


def test_f23_only_one_racial_package() -> None:
    """[F:L207] "Characters can usually purchase only one racial package." (GM may allow more)."""
    dwarf = Package(name="Dwarf", cost=2)
    trained = Package(name="Knightly Order", cost=2, racial=False)
    owned = {Trait.HIGHBORN}
    assert [p.code for p in check_packages([ELF, dwarf], owned=owned, tier=Tier.PC)] == [
        "package-limit"]
    assert check_packages([ELF, dwarf], owned=owned, tier=Tier.PC, max_racial=2) == []
    assert check_packages([ELF, trained], owned=owned, tier=Tier.PC) == []
    sheet = Sheet(traits={"Highborn": 3}, packages=[ELF, dwarf])
    assert [p.code for p in check_sheet(sheet).errors] == ["package-limit"]
    assert check_sheet(sheet, max_racial_packages=2).valid


def test_f23_abilities_improve_like_skills_with_the_skill_cap() -> None:
    """[F:L207] "they can be improved with character creation points like a skill"."""
    over = replace(ELF, improvements={"Exceptional Senses": 5})
    assert [p.code for p in check_packages([over], owned={Trait.HIGHBORN}, tier=Tier.PC)] == [
        "skill-cap"]
    assert check_packages([over], owned={Trait.HIGHBORN}, tier=Tier.MASTER) == []
    ghost = replace(ELF, improvements={"Flight": 1})
    assert [p.code for p in check_packages([ghost], owned={Trait.HIGHBORN},
                                           tier=Tier.PC)] == ["unknown-name"]


def test_f23_common_and_rare_package_prices() -> None:
    """[F:L211] "Common packages may only cost 1-2 points; very rare ones may cost 5 points or
    more." The GM's price is used as given; enemies get racial packages free [F:L338]."""
    rare = Package(name="Dragon-blooded", cost=7, abilities=())
    assert package_cost(rare, Tier.PC) == 7
    assert package_cost(rare, Tier.VETERAN) == 0
    special = Package(name="Assassin Guild", cost=3, racial=False)
    assert package_cost(special, Tier.VETERAN) == 3


def test_f23_packages_only_at_creation() -> None:
    """[F:L207] "Special ability or racial packages can only be bought at the time of character
    creation."""
    err = refuse_after_creation("Tolkien Elf")
    assert err.code == "package-after-creation"
    assert "only be bought at the time of character creation" in str(err)


def test_f23_abilities_shorthand_list_of_names() -> None:
    """RULINGS F23: "abilities[{name, suggested_trait (default Fantastical), rating 0..cap}]"."""
    pkg = build_model(Package, package_data({"name": "Fae", "abilities": [
        "Glamour", {"name": "Flight", "suggested": "Nimble", "rating": 2}]}), "package")
    assert pkg.ratings() == {"Glamour": 0, "Flight": 2}
    assert pkg.ability("flight").suggested == "Nimble"  # type: ignore[union-attr]
