"""RULINGS F5 (defense and pledges), F6 (flat-footed) and F17 (armor and shields)."""

from __future__ import annotations

import pytest
from engine_helpers import act, char, order, run, state, who

from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.defense import (
    Incoming,
    PledgeLine,
    assign_shields,
    combat_defense,
    effective_skill,
    match_pledges,
    noncombat_defense,
)
from fappo_bot.rules.levels import SuccessLevel

pytestmark = pytest.mark.unit
CFG = RulesConfig()


def test_f5_highest_attack_skill_minus_one():
    """[F:L229] "Characters have defense against all attack types equal to their highest attack
    skill minus 1." An archer (Archery 4) attacked in melee defends at 3."""
    arlo = char("Arlo", traits={"Highborn": 3}, skills={"Archery": 4, "Swordfighting": 1})
    assert combat_defense(arlo, "Swordfighting", CFG) == 3


def test_f5_untrained_fallback_one_or_two():
    """[F:L96] "their basic defense is 1, or 2 if they have the Suggested Trait"."""
    nell = char("Nell", traits={"Nimble": 3}, skills={"Stealth": 5})
    tom = char("Tom", traits={"Sagacious": 3}, skills={"Healing": 5})
    assert combat_defense(nell, "Swordfighting", CFG) == 2
    assert combat_defense(tom, "Swordfighting", CFG) == 1


def test_f5_defense_floor_is_one():
    """[F:L229] "If the final defensive total is below 1, increase it to 1."."""
    prone = char("P", skills={"Swordfighting": 1}, status=["prone", "transfixed"])
    standing = char("S")
    assert combat_defense(prone, "Swordfighting", CFG, attacker=standing) == 1


def test_f5_noncombat_uses_own_skill_and_no_armor():
    """F5: non-combat opposed uses the defender's relevant skill; armor is "against attacks"."""
    merchant = char("M", traits={"Alluring": 3}, skills={"Persuasion": 2}, armor="heavy")
    assert noncombat_defense(merchant, "Persuasion") == 2
    dull = char("D", traits={"Brawny": 3})
    assert noncombat_defense(dull, "Persuasion") == 1


def test_f17_heavy_armor_costs_nimble_and_clever_skills():
    """[F:L235] Heavy armor "reduces any skill with a Nimble or Clever Suggested Trait by 1"."""
    knight = char("Sir", skills={"Swordfighting": 4, "Climbing": 2}, armor="heavy")
    assert effective_skill(knight, "Swordfighting") == 3
    assert effective_skill(knight, "Climbing") == 2
    assert combat_defense(knight, "Swordfighting", CFG) == 5


def _inc(key: str, potential: int, skill: int, ranged: bool = False) -> Incoming:
    return Incoming(key=key, attacker=key, index=0, potential=potential, skill=skill,
                    ranged=ranged)


def test_f17_medium_shield_seed_example():
    """[F:L239] "adds 2 defense to the 3-level attack and 2 more to one of the 2-level attacks
    (... the shield defends against the least skilled attack). The third attack is unimpeded."""
    kael = char("Kael", shield="medium")
    covered = assign_shields(kael, [_inc("A", 3, 4), _inc("B", 2, 5), _inc("C", 2, 3)])
    assert covered == {"A", "C"}


def test_f17_medium_shield_one_projectile_light_none():
    """[F:L241] "Light shields are useless against projectiles. Medium shields can only defend
    against one ranged attack per turn."."""
    medium = char("M", shield="medium")
    covered = assign_shields(medium, [_inc("A", 3, 4, True), _inc("B", 2, 5),
                                      _inc("C", 2, 3, True)])
    assert covered == {"A", "B"}
    light = char("L", shield="light")
    assert assign_shields(light, [_inc("Arrow", 3, 1, True), _inc("Sword", 2, 1)]) == {"Sword"}


def test_f17_lightsword_deflection_pools_after_the_shield():
    """[F:L268] Uncanny users deflect "as many attacks, even projectile attacks, as the user puts
    APs into his defense"."""
    jedi = char("J", shield="light")
    covered = assign_shields(jedi, [_inc("A", 2, 1, True), _inc("B", 2, 2, True),
                                    _inc("C", 2, 3, True)], deflect=2)
    assert covered == {"A", "B"}


def test_f5_pledges_named_first_then_any_by_shield_order():
    """F5 Rule: named pledges first, then "any"; each covers one action, most damaging first."""
    incoming = [_inc("Troll", 3, 4), _inc("Gob", 1, 2)]
    taken = match_pledges([PledgeLine(0, None, 1), PledgeLine(1, "Gob", 2)], incoming)
    assert taken == {"Gob": 2, "Troll": 1}


def test_f6_flat_footed_ignores_armor_and_defense_ap():
    """[F:L74] "the GM can declare the character was caught flat-footed, reducing their defense
    to 1"."""
    vex = char("Vex", traits={"Clever": 3}, skills={"Knife Fighting": 3}, weapons=["Dagger"])
    guard = char("Guard", skills={"Swordfighting": 3}, weapons=["Broadsword"], armor="medium")
    result = run(state(vex, guard),
                 order("Vex", {"kind": "attack", "ap": 2, "target": "Guard",
                               "flat_footed": True}),
                 order("Guard", {"kind": "defend", "ap": 1}))
    a = act(result, "Vex")
    assert (a.difficulty, a.level, a.damage) == (1, SuccessLevel.GREAT, 2)


def test_f5_scoped_defense_applies_only_to_that_attacker():
    """F5 Amb-3: defense AP may be scoped to an attacker."""
    kael = char("Kael", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    a = char("A", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    b = char("B", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    result = run(state(kael, a, b),
                 order("Kael", {"kind": "defend", "ap": 2, "against": "A"}),
                 order("A", {"kind": "attack", "ap": 1, "target": "Kael"}),
                 order("B", {"kind": "attack", "ap": 1, "target": "Kael"}))
    assert act(result, "A").difficulty == 4
    assert act(result, "B").difficulty == 2


def test_f5_troll_pledge_lost_when_the_troll_does_not_attack():
    """[F:L98] "If the action the character is defending against doesn't come to pass, he will
    still lose the SPs."."""
    kael = char("Kael", traits={"Tireless": 3})
    troll = char("Troll")
    result = run(state(kael, troll),
                 order("Kael", guard=[{"against": "Troll", "sp": {"Tireless": 2}}]))
    assert who(result, "Kael").pool("Tireless") == 1
