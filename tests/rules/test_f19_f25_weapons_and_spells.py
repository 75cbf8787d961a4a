"""RULINGS F16 (ranges), F19 (weapons as data: lightsword, plaser, sniper, grenades) and F25
(two-stage spell resolution)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import act, char, health, order, run, state, who

from fappo_bot.rules.character import Weapon
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.levels import SuccessLevel
from fappo_bot.rules.ranges import class_penalty, range_penalty

pytestmark = pytest.mark.unit


def test_f16_range_penalties_by_class():
    """F16 examples: "Long Bow (Extreme) at 7 Ranges -> +2. Horse Bow (Medium) at 3 -> +3.
    Thrown spear (Short) at 2 -> +4. Crossbow (Long) at 5 -> +2. Rifle (Extreme) at 9 -> +3"."""
    pairs = [("Long Bow", 7, 2), ("Horse Bow", 3, 3), ("Thrown Spear", 2, 4), ("Crossbow", 5, 2),
             ("Rifle", 9, 3)]
    for name, d, penalty in pairs:
        weapon = Weapon.named(name)
        assert weapon is not None and range_penalty(weapon, d) == penalty


def test_f16_sniper_and_scope():
    """F16: "Sniper rifle at 45 Ranges: steadied -> 45//10 = +4; unsteadied -> 45//3 = +15";
    "Scoped rifle at 13 Ranges: min(13//3 = 4, 13//6 = 2) = +2"."""
    sniper = Weapon.named("Rifle, Sniper")
    assert sniper is not None
    assert range_penalty(sniper, 45, steadied=True) == 4
    assert range_penalty(sniper, 45) == 15
    rifle = Weapon.named("Rifle")
    assert rifle is not None
    assert range_penalty(replace(rifle, scope=True), 13) == 2
    assert class_penalty(rifle.range_class, 0) == 0


def test_f19_sniper_steadies_two_turns_then_ultra_and_ed4():
    """F19: "Sniper at 45 Ranges after steadying, Firearms 4 + 3 AP = 7 vs def 2 + 4 = 6 ->
    m = 1 -> SS -> 3 levels"."""
    sniper = char("Sn", traits={"Clever": 3}, skills={"Firearms": 4}, weapons=["Rifle, Sniper"],
                  position=0)
    mark = char("Mark", traits={"Nimble": 3}, skills={"Swordfighting": 3}, position=45)
    st_ = state(sniper, mark)
    for _ in range(2):
        st_ = run(st_, order("Sn", {"kind": "aim", "ap": 3, "target": "Mark"})).state
    assert who_state(st_, "Sn").steadied_turns == 2
    shot = run(st_, order("Sn", {"kind": "attack", "ap": 3, "target": "Mark"}))
    a = act(shot, "Sn")
    assert (a.total, a.difficulty, a.margin, a.damage) == (7, 6, 1, 3)
    cold = run(state(sniper, mark), order("Sn", {"kind": "attack", "ap": 3, "target": "Mark"}))
    assert act(cold, "Sn").difficulty == 17


def who_state(st_, name):
    found = st_.character(name)
    assert found is not None
    return found


def test_f19_lightsword_self_hit_for_non_uncanny():
    """F19: "Non-Uncanny lightsword AF: Swordfighting 1 + 1 AP = 2 vs TN 6 -> m = -4 -> AF (no
    Nimble) -> the wielder takes 3 levels (reducible by 2)"."""
    fool = char("Fool", traits={"Brawny": 3}, skills={"Swordfighting": 1}, weapons=["Lightsword"])
    duelist = char("Duel", skills={"Swordfighting": 5}, armor="heavy", weapons=["Broadsword"])
    result = run(state(fool, duelist), order("Fool", {"kind": "attack", "ap": 1,
                                                      "target": "Duel"}))
    a = act(result, "Fool")
    assert a.level is SuccessLevel.ABJECT
    assert [(h.target, h.levels, h.source) for h in result.hits] == [("Fool", 3, "self")]
    assert health(result, "Fool") == "Wounded"


def test_f19_lightsword_deflects_for_uncanny_defender():
    """[F:L268] "Uncanny users can also use the lightsword as a shield, deflecting as many
    attacks, even projectile attacks, as the user puts APs into his defense."."""
    jedi = char("Jedi", traits={"Uncanny": 3}, skills={"Swordfighting": 3},
                weapons=["Lightsword"], position=0)
    gunner = char("Gun", traits={"Clever": 3}, skills={"Firearms": 3}, weapons=["Pistol"],
                  position=0)
    result = run(state(jedi, gunner), order("Jedi", {"kind": "defend", "ap": 1}),
                 order("Gun", {"kind": "attack", "ap": 1, "target": "Jedi"}))
    assert act(result, "Gun").difficulty == 2 + 1 + 2


def test_f19_grenade_hits_each_creature_separately():
    """F19: "Grenade thrown 2 Ranges: Throwing 3 + 2 AP = 5; TN for each victim = its def + 4.
    A goblin (def 1): 5 - 5 = 0 -> BS -> 2 levels. An orc (def 3): m = -2 -> miss. An ally in
    the radius (def 4): m = -3 -> miss."."""
    thrower = char("Thr", traits={"Brawny": 3}, skills={"Throwing": 3}, weapons=["Grenade"],
                   position=0)
    goblin = char("Goblin", traits={"Alluring": 3}, position=2)
    orc = char("Orc", skills={"Swordfighting": 4}, position=2)
    ally = char("Ally", skills={"Swordfighting": 5}, position=2)
    result = run(state(thrower, goblin, orc, ally),
                 order("Thr", {"kind": "attack", "ap": 2, "targets": ["Goblin", "Orc", "Ally"]}))
    a = act(result, "Thr")
    by_name = {t.name: t for t in a.targets}
    assert (by_name["Goblin"].difficulty, by_name["Goblin"].level, by_name["Goblin"].damage) == (
        5, SuccessLevel.BARE, 2)
    assert by_name["Orc"].margin == -2 and by_name["Ally"].margin == -3
    assert health(result, "Goblin") == "Battered"


def test_f19_plaser_spends_its_setting_in_ammo():
    """[F:L320] "losing a number of "ammo" points equal to its current setting number when
    fired"."""
    gunner = char("Gun", traits={"Clever": 3}, skills={"Firearms": 3}, weapons=["Plaser 3"],
                  ammo=10)
    vic = char("Vic")
    result = run(state(gunner, vic), order("Gun", {"kind": "attack", "ap": 1, "target": "Vic"}))
    assert who(result, "Gun").ammo == 7
    switched = run(state(gunner, vic), order("Gun", {"kind": "attack", "ap": 1, "target": "Vic",
                                                     "weapon": "Plaser 4"}))
    assert switched.errors == () and who(switched, "Gun").ammo == 6


def test_r3_13_plaser_battery_three_three_four_then_empty():
    """R3 row 13, [F:L284] "A plaser has a battery with "ammo" 10, losing a number of "ammo"
    points equal to its current setting number when fired": 10 -> setting 3 (7) -> setting 3 (4)
    -> setting 4 (0) -> empty; a further setting-1 shot is invalid (3 + 3 + 4 = 10)."""
    gunner = char("Gun", traits={"Clever": 3}, skills={"Firearms": 3}, weapons=["Plaser 3"],
                  ammo=10)
    vic = char("Vic")
    scene = state(gunner, vic)
    for weapon, left in (("Plaser 3", 7), ("Plaser 3", 4), ("Plaser 4", 0)):
        result = run(scene, order("Gun", {"kind": "attack", "ap": 1, "target": "Vic",
                                          "weapon": weapon}))
        assert result.errors == () and who(result, "Gun").ammo == left
        scene = replace(scene, characters=tuple(
            replace(c, ammo=left) if c.name == "Gun" else c
            for c in scene.characters))
    empty = run(scene, order("Gun", {"kind": "attack", "ap": 1, "target": "Vic",
                                     "weapon": "Plaser"}))
    # RULINGS Amendments 2026-12-01: "an order that fires more shots than the ammunition left
    # is refused with `no-ammo`"
    assert [e.code.value for e in empty.errors] == ["no-ammo"]


def test_f25_two_stage_cast_then_attack():
    """F25 example: "General Fireball at 2 Ranges, D_cast = 14 ... total_c = 6 -> m = -8 -> AF
    (protected) + 2 = BS -> the spell goes off. Attack: 4 + 0 accuracy + 2 AP = 6 vs an orc (def
    3 with Medium armor -> 5) -> m = 1 -> SS -> 4 levels ... vs a goblin (def 1): m = 5 -> GS ->
    4 + Fire."."""
    zara = char("Zara", traits={"Uncanny": 3}, skills={"Spellcasting": 4}, position=0)
    orc = char("Orc", skills={"Swordfighting": 4}, armor="medium", position=2)
    goblin = char("Goblin", traits={"Alluring": 3}, position=2)
    effects = {"damage": 4, "specials": 1, "locus": True, "radius": 2, "loud": True,
               "traceable": True}
    result = run(state(zara, orc, goblin), order("Zara", {
        "kind": "cast", "ap": 2, "effects": effects, "ranges": 2, "targets": ["Orc", "Goblin"],
        "cast_sp": {"Uncanny": 1}, "special": "Fire"}))
    a = act(result, "Zara")
    assert (a.total, a.difficulty, a.margin, a.level) == (6, 14, -8, SuccessLevel.BARE)
    by_name = {t.name: t for t in a.targets}
    assert (by_name["Orc"].difficulty, by_name["Orc"].level, by_name["Orc"].damage) == (
        5, SuccessLevel.SOLID, 4)
    assert by_name["Goblin"].level is SuccessLevel.GREAT and by_name["Goblin"].damage == 4
    assert by_name["Goblin"].specials == ("Fire",)
    assert [s.kind.value for s in who(result, "Goblin").statuses] == ["burning"]
    assert who(result, "Zara").pool("Uncanny") == 2


def test_f25_failed_cast_has_no_attack_stage():
    """F25: "the spell takes effect iff level_c >= BS". The failed cast resolved, so it is
    `effective` (RULINGS Amendments 2026-12-01: "a failed attack or cast resolved")."""
    oska = char("Oska", traits={"Uncanny": 3}, skills={"Spellcasting": 1},
                spells=[{"name": "Fireball", "difficulty": 12}])
    result = run(state(oska), order("Oska", {"kind": "cast", "ap": 1, "spell": "Fireball",
                                             "ranges": 1}))
    a = act(result, "Oska")
    assert (a.difficulty, a.level, a.targets, a.effective) == (7, SuccessLevel.ABJECT, (), True)


def test_f25_mind_spell_against_mood():
    """F25: "mind payload: TN_a = mood difficulty M"; "AF -> target alerted"."""
    mage = char("Mage", traits={"Uncanny": 3}, skills={"Spellcasting": 5})
    guard = char("Guard", position=1)
    result = run(state(mage, guard), order("Mage", {
        "kind": "cast", "ap": 2, "effects": {"mind_insert": True}, "target": "Guard",
        "mood": 10}))
    a = act(result, "Mage")
    assert (a.total, a.difficulty, a.level) == (7, 7, SuccessLevel.BARE)
    [stage] = a.targets
    assert (stage.difficulty, stage.margin, stage.level) == (10, -3, SuccessLevel.FAILURE)


def test_f26_learned_spell_with_effects_attacks_and_applies_its_special():
    """spec/cases.md: "A spell given by `effects` has its difficulty computed (F24) and can attack
    (F25) ... its Special, if bought, is `special`"; "A spell's bought `special` applies on a
    Great Success of its attack stage (nothing to declare)". Learned Fireball: 12 -> 6, at 1
    Range 7."""
    zara = char("Zara", traits={"Uncanny": 3}, skills={"Spellcasting": 5}, position=0,
                spells=[{"name": "Fireball", "effects": {"damage": 4, "specials": 1,
                                                         "locus": True, "radius": 2,
                                                         "loud": True, "traceable": True},
                         "special": "Fire"}])
    goblin = char("Goblin", traits={"Alluring": 3}, position=1)
    result = run(state(zara, goblin), order("Zara", {"kind": "cast", "ap": 2, "spell": "Fireball",
                                                     "target": "Goblin"}))
    a = act(result, "Zara")
    assert (a.total, a.difficulty, a.level) == (7, 7, SuccessLevel.BARE)
    [stage] = a.targets
    assert (stage.difficulty, stage.margin, stage.level) == (1, 6, SuccessLevel.GREAT)
    assert stage.damage == 4 and stage.specials == ("Fire",)
    assert health(result, "Goblin") == "Incapacitated"


def test_f25_spell_on_minions_eliminates_by_damage():
    """F21: elimination = the damage the hit deals, whatever deals it."""
    zara = char("Zara", traits={"Uncanny": 3}, skills={"Spellcasting": 5})
    thugs = char("Thugs", tier="minion", count=6, skills={"Swordfighting": 2})
    result = run(state(zara, thugs), order("Zara", {
        "kind": "cast", "ap": 2, "effects": {"damage": 2}, "target": "Thugs"}))
    [stage] = act(result, "Zara").targets
    assert stage.eliminated == stage.damage == 2
    assert who(result, "Thugs").count == 4


def test_f24_two_turn_concentration_cast():
    """[F:L396] "-1: Takes two full turns of uninterrupted concentration to cast" (F24 Amb-5:
    a multi-turn concentration action, F7 Amb-5: broken off when not carried on)."""
    mage = char("Mage", traits={"Uncanny": 3}, skills={"Spellcasting": 5})
    orc = char("Orc", traits={"Alluring": 3})
    cast = {"kind": "cast", "ap": 3, "effects": {"damage": 2, "conc_2turns": True},
            "target": "Orc", "ranges": 0}
    first = run(state(mage, orc), order("Mage", cast))
    a = act(first, "Mage")
    assert a.effective is False and a.level is None and a.targets == ()
    assert [s.kind.value for s in who(first, "Mage").statuses] == ["concentrating"]
    second = run(first.state, order("Mage", cast))
    b = act(second, "Mage")
    assert b.level is not None and b.level.succeeded and b.targets[0].damage > 0
    assert who(second, "Mage").statuses == ()
    broken = run(first.state, order("Mage", {"kind": "defend", "ap": 1}))
    assert who(broken, "Mage").statuses == ()
    assert any(e.kind == "interrupted" for e in broken.events)


def test_f19_amb1_unmapped_weapons_need_their_skill_named():
    """RULINGS Amendments 2026-12-01, F19 Amb-1: "a weapon whose skill the weapon table leaves to
    the GM (Spear, Polearm, Battle Axe, Torch, ...) needs its skill named ...; without one the
    order is refused with `skill-required`. Club and Mace default to Fisticuffs"."""
    kael = char("Kael", skills={"Swordfighting": 5, "Fisticuffs": 1, "Throwing": 3},
                weapons=["Spear", "Mace"], wielding="Spear")
    vic = char("Vic", position=0)
    bare = run(state(kael, vic), order("Kael", {"kind": "attack", "ap": 1, "target": "Vic"}))
    assert [e.code.value for e in bare.errors] == ["skill-required"]
    named = run(state(kael, vic), order("Kael", {"kind": "attack", "ap": 1, "target": "Vic",
                                                 "skill": "Swordfighting"}))
    assert named.errors == () and act(named, "Kael").total == 5 + 1
    mapped = run(state(kael, vic, config=RulesConfig(weapon_skills={"spear": "Swordfighting"})),
                 order("Kael", {"kind": "attack", "ap": 1, "target": "Vic"}))
    assert mapped.errors == () and act(mapped, "Kael").total == 6
    maceman = replace(kael, wielding="Mace")
    mace = run(state(maceman, vic), order("Kael", {"kind": "attack", "ap": 1, "target": "Vic"}))
    assert mace.errors == () and act(mace, "Kael").total == 1 + 1  # Fisticuffs, not the best


def test_f19_a_spear_is_thrown_at_short_range_with_throwing():
    """RULINGS Amendments 2026-12-01: "a Spear may be thrown at Short range with Throwing"."""
    kael = char("Kael", skills={"Swordfighting": 5, "Throwing": 3}, weapons=["Spear"])
    vic = char("Vic", position=1)
    thrown = run(state(kael, vic), order("Kael", {"kind": "attack", "ap": 1, "target": "Vic",
                                                  "skill": "Throwing"}))
    assert thrown.errors == ()
    assert act(thrown, "Kael").difficulty == 1 + 2  # defense 1, Short at 1 Range: +2
    thrust = run(state(kael, vic), order("Kael", {"kind": "attack", "ap": 1, "target": "Vic",
                                                  "skill": "Swordfighting"}))
    assert [e.code.value for e in thrust.errors] == ["out-of-range"]


def test_an_attack_skill_written_as_a_prefix_is_the_skill_validation_accepted():
    """docs/rulings.md: names in case files are exact, else a unique prefix. Validation accepted
    `skill: sword` as Swordfighting, so the attack must use Swordfighting's value (it used 0),
    and `skill: throw` must throw the Spear (it was refused as a melee Spear out of reach)."""
    kael = char("Kael", skills={"Swordfighting": 3, "Throwing": 4}, weapons=["Broadsword", "Spear"])
    vic = char("Vic", position=0)
    cut = run(state(kael, vic), order("Kael", {"kind": "attack", "ap": 1, "target": "Vic",
                                               "skill": "sword"}))
    assert cut.errors == () and act(cut, "Kael").total == 3 + 1
    spearman = replace(kael, wielding="Spear")
    far = replace(vic, position=2)
    thrown = run(state(spearman, far), order("Kael", {"kind": "attack", "ap": 1, "target": "Vic",
                                                      "skill": "throw"}))
    assert thrown.errors == ()
    assert (act(thrown, "Kael").total, act(thrown, "Kael").difficulty) == (4 + 1, 1 + 2 * 2)
