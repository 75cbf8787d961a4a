"""RULINGS F22: legendary items and binding."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.character import Character, Weapon
from fappo_bot.rules.data import ArmorType, Special, Trait
from fappo_bot.rules.legendary import (
    LegendaryItem,
    Upgrade,
    apply_legendary,
    apply_to_weapon,
    armor_bonus,
    base_weapon,
    bind,
    change_hands,
    check_item,
    powers_active,
    shield_bonus,
    upgrade_by_name,
)
from fappo_bot.rules.results import RulesError
from fappo_bot.sheets.convert import build_model, legendary_data, legendary_item

pytestmark = pytest.mark.unit

SWORD = legendary_item("Longsword", "accuracy", "damage", "special: Fire", owner="Kael")


def test_f22_legendary_longsword_example() -> None:
    """[F:L352] "Each point spent will increase either a weapon's accuracy (i.e. the character's
    skill) or damage". RULINGS F22: +1 accuracy, +1 damage, +Fire (3 CC): D = 4, accuracy 1."""
    assert SWORD.cost == 3 and not check_item(SWORD)
    longsword = Weapon.named("Longsword")
    assert longsword is not None
    sword = apply_to_weapon(longsword, SWORD)
    assert (sword.damage, sword.accuracy, sword.extra_damage) == (4, 1, 0)
    assert sword.specials == (Special.BLEEDING, Special.FIRE)
    assert sword.magical  # legendary weapons are immune to Corrosion


def test_f22_three_cc_cap_counts_the_inappropriate_surcharge() -> None:
    """[F:L352] "A character can spend up to three character creation points on any single
    legendary item"; [F:L354] "at least one extra character creation point"."""
    ring = legendary_item("Ring of protection", "inappropriate", "armor", "armor")
    assert ring.cost == 3 and not check_item(ring)
    assert armor_bonus(ring) == 2
    too_much = legendary_item("Ring", "inappropriate", "armor", "armor", "armor")
    assert [p.code for p in check_item(too_much)] == ["legendary-cap"]
    assert [p.code for p in check_item(LegendaryItem(item="Stick", points=0))] == [
        "legendary-cap"]


def test_f22_ring_of_protection_gives_armor_2_without_heavy_properties() -> None:
    """RULINGS F22 example: "Ring of protection ... armor 2, no Heavy properties" (Amb-4)."""
    wearer = apply_legendary(Character(name="Ana"), legendary_item(
        "Ring", "inappropriate", "armor", "armor"))
    assert (wearer.armor, wearer.armor_bonus, wearer.armor_magical) == (ArmorType.NONE, 2, True)
    assert wearer.legendary == {"Ring": 3}


def test_f22_amb1_legendary_medium_shield_covers_three_attacks() -> None:
    """[F:L352] "a set of armor or shield's protection"; RULINGS F22 Amb-1: +1 capacity."""
    item = legendary_item("Medium shield", "shield")
    assert shield_bonus(item) == 1
    knight = apply_legendary(Character(name="K", shield=ArmorType.MEDIUM), item)
    assert knight.shield + knight.shield_bonus == 3


def test_f22_upgrade_names_and_problems() -> None:
    """[F:L354] "a legendary weapon might have one or more extra Specials"."""
    assert upgrade_by_name("ED") is Upgrade.EXTRA_DAMAGE
    assert upgrade_by_name("Extra Damage") is Upgrade.EXTRA_DAMAGE
    assert upgrade_by_name("minor effect") is Upgrade.MINOR
    bad = legendary_item("Axe", "sharpness", "special: Sparkles")
    assert [p.code for p in check_item(bad)] == ["unknown-name", "unknown-name"]
    # a Special's own name is an extra Special; a bare `special` is one the GM names later
    named = legendary_item("Longsword", "accuracy", "damage", "Fire")
    assert not check_item(named) and named.count(Upgrade.SPECIAL) == 1
    assert apply_to_weapon(Weapon.named("Longsword"), named).specials[-1] is Special.FIRE  # type: ignore[arg-type]
    later = legendary_item("Longsword", "special")
    assert not check_item(later)
    assert apply_to_weapon(Weapon.named("Longsword"), later).specials == (Special.BLEEDING,)  # type: ignore[arg-type]
    mismatch = build_model(LegendaryItem, legendary_data({"item": "Axe", "points": 1,
                                             "upgrades": ["damage", "ED"]}), "legendary")
    assert [p.code for p in check_item(mismatch)] == ["legendary-mismatch"]
    partly = build_model(LegendaryItem, legendary_data({"item": "Axe", "points": 2, "upgrades": ["damage"]}), "legendary")
    assert check_item(partly) == [] and partly.cost == 2
    with pytest.raises(RulesError):
        apply_to_weapon(Weapon.named("Battle Axe"), bad)  # type: ignore[arg-type]


def test_f22_ed_upgrade_and_table_weapon_added() -> None:
    """[F:L354] "increase an item's primary purpose by a \"step\" per character creation point"."""
    kael = apply_legendary(Character(name="Kael"), legendary_item("Dagger", "ED", "ED"))
    dagger = kael.weapon("Dagger")
    assert dagger is not None and dagger.extra_damage == 3
    with pytest.raises(RulesError, match="no weapon"):
        apply_legendary(Character(name="Kael"), legendary_item("Lantern", "damage"))


def test_f22_binding_example_thief_sacrifices_a_stealth_point() -> None:
    """[F:L358] "This binding requires the character to sacrifice one (and only one) character
    creation point, often by permanently reducing a skill. The original owner will know
    immediately if his item is bound to another, but will otherwise have no idea who currently
    has it or where it is." RULINGS F22: Stealth 3 -> 2, full powers, owner notified."""
    thief = Character(name="Vex", skills={"Stealth": 3, "Swordfighting": 2})
    stolen = change_hands(SWORD, "Vex")
    assert not powers_active(stolen, "Vex")
    unbound = apply_legendary(thief, stolen)
    assert unbound.weapon("Longsword") is None and unbound.legendary == {}
    assert base_weapon("Longsword").damage == 3  # type: ignore[union-attr]
    outcome = bind(stolen, thief, skill="stealth")
    assert outcome.holder.skills["Stealth"] == 2
    assert powers_active(outcome.item, "Vex")
    assert outcome.notice.owner == "Kael"
    assert "Vex" not in outcome.notice.message
    armed = apply_legendary(outcome.holder, outcome.item)
    assert armed.weapon("Longsword").damage == 4  # type: ignore[union-attr]
    assert armed.legendary == {}  # the owner's CC, not the thief's


def test_f22_owner_reclaims_breaks_binding_and_rebinding_costs_again() -> None:
    """[F:L358] "The original owner can reclaim a bound item simply by taking it into his
    possession. This will also break the previous character's binding. If the binding character
    manages to get hold of the item yet again, he must sacrifice another creation point"."""
    thief = Character(name="Vex", unspent_cc=2)
    bound = bind(change_hands(SWORD, "Vex"), thief)
    assert bound.holder.unspent_cc == 1
    passed_on = change_hands(bound.item, "Mook")
    assert powers_active(change_hands(passed_on, "Vex"), "Vex")  # Amb-6: binding persists
    reclaimed = change_hands(bound.item, "Kael")
    assert reclaimed.bound_to == () and powers_active(reclaimed, "Kael")
    again = change_hands(reclaimed, "Vex")
    assert not powers_active(again, "Vex")
    assert bind(again, bound.holder).holder.unspent_cc == 0


def test_f22_amb5_what_may_be_sacrificed() -> None:
    """RULINGS F22 Amb-5: banked CC, a skill point, a Trait SP maximum (not below 3) or a
    floating SP maximum; one thing only."""
    holder = Character(name="Vex", traits={Trait.NIMBLE: 4}, trait_max={Trait.NIMBLE: 5},
                       floating=1, floating_max=1)
    item = change_hands(SWORD, "Vex")
    by_trait = bind(item, holder, trait="Agile").holder
    assert (by_trait.trait_max[Trait.NIMBLE], by_trait.traits[Trait.NIMBLE]) == (4, 4)
    by_floating = bind(item, holder, floating=True).holder
    assert (by_floating.floating_max, by_floating.floating) == (0, 0)
    with pytest.raises(RulesError, match="banked CC"):
        bind(item, holder)
    with pytest.raises(RulesError, match="below the 3"):
        bind(item, replace(holder, trait_max={Trait.NIMBLE: 3}, traits={Trait.NIMBLE: 3}), trait="Nimble")
    with pytest.raises(RulesError, match="one"):
        bind(item, holder, trait="Nimble", floating=True)
    with pytest.raises(RulesError, match="owns"):
        bind(SWORD, Character(name="Kael", unspent_cc=3))
    with pytest.raises(RulesError, match="already bound"):
        bind(bind(item, holder, floating=True).item, holder, trait="Nimble")
    with pytest.raises(RulesError, match="no point"):
        bind(item, holder, skill="Stealth")


@given(st.lists(st.sampled_from([u.value for u in Upgrade]), max_size=6))
def test_f22_cost_is_one_cc_per_upgrade_and_cap_is_three(upgrades: list[str]) -> None:
    """[F:L354] "a \"step\" per character creation point spent"; [F:L352] up to three."""
    item = legendary_item("Thing", *[u if u != "special" else "special: Fire"
                                       for u in upgrades])
    assert item.cost == len(upgrades)
    assert any(p.code == "legendary-cap" for p in check_item(item)) == (
        not 1 <= len(upgrades) <= 3)
