"""RULINGS F18: the Specials of a Great Success, as statuses from the next turn, and their ticks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import act, char, health, order, run, state, who

from fappo_bot.rules.character import Status, StatusKind
from fappo_bot.rules.config import RulesConfig, SpecialsPerGreat
from fappo_bot.rules.data import weapon_by_name
from fappo_bot.rules.results import GMInputs

pytestmark = pytest.mark.unit


def kinds(result, name):
    return sorted(s.kind.value for s in who(result, name).statuses)


def great(weapon, special=None, skill="Swordfighting", target_fields=None, **action):
    """Attacker with skill 5 and 3 AP vs a defender with defense 1: margin 7, GS."""
    attacker = char("Att", traits={"Brawny": 3}, skills={skill: 5}, weapons=[weapon])
    victim = char("Vic", traits={"Alluring": 3}, weapons=["Broadsword"],
                  **(target_fields or {}))
    act_ = {"kind": "attack", "ap": 3, "target": "Vic", **action}
    if special:
        act_["special"] = special
    if weapon_by_name(weapon).skill is None:  # Battle Axe, Torch: the order names the skill (F19)
        act_["skill"] = skill
    return attacker, victim, act_


def test_f18_1_extra_damage_always_on_great():
    """[F:L247] "The Extra Damage Special is always invoked on a Great Success"."""
    a, v, x = great("Battle Axe")
    result = run(state(a, v), order("Att", x))
    assert act(result, "Att").damage == 5
    assert health(result, "Vic") == "Dying"


def test_f12_one_declared_special_only():
    """F12 Amb-1: "a Cowboy pistol gets ED(1) plus Bleeding *or* Disarm"."""
    a, v, x = great("Shotgun", "Knockdown", skill="Firearms")
    result = run(state(a, v), order("Att", x))
    assert act(result, "Att").specials == ("Knockdown",)
    assert kinds(result, "Vic") == ["prone"]
    every = run(state(a, v, config=RulesConfig(specials_per_great=SpecialsPerGreat.ALL)),
                order("Att", x))
    assert set(act(every, "Att").specials) == {"Knockdown", "Bleeding"}


def test_f12_gm_invoke_when_nothing_declared():
    """[F:L245] "or the GM can invoke a Special when he deems it dramatically appropriate"."""
    a, v, x = great("Dagger", skill="Knife Fighting", invoke="Bleeding")
    result = run(state(a, v), order("Att", x))
    assert kinds(result, "Vic") == ["bleeding"]


def test_f18_3_knockout_lasts_ten_minutes_per_point():
    """F18.3 Amb-1: "Fisticuffs 4 + 2 AP = 6 vs def 2 -> m = 4 -> GS: 1 level + Knockout for
    40 min"."""
    boxer = char("Box", skills={"Fisticuffs": 4}, weapons=["Fist"])
    guard = char("Guard", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    result = run(state(boxer, guard), order("Box", {"kind": "attack", "ap": 2, "target": "Guard",
                                                    "special": "Knockout"}))
    [status] = who(result, "Guard").statuses
    assert status.kind is StatusKind.UNCONSCIOUS and status.turns == 240
    assert health(result, "Guard") == "Staggered"
    from fappo_bot.rules.health import ap_next
    assert ap_next(who(result, "Guard"), result.state.config) == 0


def test_r2_knockout_duration_skill_minus_defense():
    """F18.3 Amb-1 (a) as the R2 flag `knockout_duration_mode: skill_minus_defense`: "literal
    reading (a): 4 - 2 = 2 -> 20 min" (120 turns, where the ruling gives 40 min); never under
    10 minutes when the skill does not beat the defense."""
    from fappo_bot.rules.config import KnockoutMode

    config = RulesConfig(knockout_duration_mode=KnockoutMode.SKILL_MINUS_DEFENSE)
    boxer = char("Box", skills={"Fisticuffs": 4}, weapons=["Fist"])
    guard = char("Guard", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    punch = order("Box", {"kind": "attack", "ap": 2, "target": "Guard", "special": "Knockout"})
    [status] = who(run(state(boxer, guard, config=config), punch), "Guard").statuses
    assert status.kind is StatusKind.UNCONSCIOUS and status.turns == 120
    # Fisticuffs 2 vs the same defense 2 with 3 AP: m = 3, great; 2 - 2 = 0 -> the floor of 1
    weak = char("Box", skills={"Fisticuffs": 2}, weapons=["Fist"])
    jab = order("Box", {"kind": "attack", "ap": 3, "target": "Guard", "special": "Knockout"})
    result = run(state(weak, guard, config=config), jab)
    assert act(result, "Box").level.name == "GREAT"
    [status] = who(result, "Guard").statuses
    assert status.turns == 60


def test_f18_4_fire_ticks_later_turns_until_extinguished():
    """F18.4 example: "a Torch GS (1 + Fire) in turn 3 -> 1 level now; ticks at CLOSE(4),
    CLOSE(5)... The PC extinguishes in turn 5 (success) -> no tick at 5"."""
    a, v, x = great("Torch", "Fire")
    first = run(state(a, v, turn=3), order("Att", x))
    assert health(first, "Vic") == "Staggered"
    assert kinds(first, "Vic") == ["burning"]
    second = run(first.state)
    assert [h.id for h in second.hits] == ["t4-vic-fire"]
    assert health(second, "Vic") == "Battered"
    third = run(second.state, order("Vic", {"kind": "extinguish", "ap": 2,
                                            "skill": "Acrobatics", "difficulty": 2}))
    assert third.errors == ()
    assert third.hits == ()
    assert kinds(third, "Vic") == []


def test_f18_4_gm_extinguish_event():
    """F18.4 Amb-1: "GM input: extinguish event"."""
    vic = char("Vic", status=["burning"])
    result = run(state(vic), gm=GMInputs(extinguished=("Vic",)))
    assert result.hits == () and kinds(result, "Vic") == []


def test_f18_5_corrosion_steps_armor_and_ready_weapon():
    """F18.5 example: "Medium armor 2 -> 1; the victim's broadsword D3 -> 2 (ED unchanged)"."""
    a, v, x = great("Broadsword", target_fields={"armor": "medium"}, invoke="Corrosion")
    x["invoke"] = None
    a = replace(a, weapons=tuple(
        replace(w, specials=(*w.specials, w.specials[0].__class__("Corrosion")))
        for w in a.weapons))
    result = run(state(a, v), order("Att", {**x, "special": "Corrosion"}))
    vic = who(result, "Vic")
    assert int(vic.armor) == 1
    assert vic.weapons[0].effective_damage == 2


def test_f18_9_knockdown_prone_costs_two_to_stand_and_two_to_skills():
    """[F:L255] "It costs 2 APs to stand back up again. A prone character can continue to fight
    standing characters at a 2-point disadvantage to all skills"."""
    sword = char("Sw", skills={"Swordfighting": 4}, weapons=["Broadsword"], status=["prone"])
    foe = char("Foe", weapons=["Broadsword"])
    result = run(state(sword, foe), order("Sw", {"kind": "attack", "ap": 1, "target": "Foe"}))
    assert act(result, "Sw").total == 4 - 2 + 1
    stood = run(state(sword, foe), order("Sw", {"kind": "stand", "ap": 2},
                                         {"kind": "attack", "ap": 1, "target": "Foe"}))
    assert kinds(stood, "Sw") == []


def test_f18_10_disarm_drops_the_weapon():
    """[F:L256] "the victim loses his grip on his weapon, which falls to his feet. It costs 1 AP
    to retrieve it and 1 more AP to prepare it for use."."""
    a, v, x = great("Main Gauche", "Disarm", skill="Knife Fighting", target_fields={"ap": 4})
    result = run(state(a, v), order("Att", x))
    vic = who(result, "Vic")
    assert [(s.kind.value, s.item) for s in vic.statuses] == [("disarmed", "Broadsword")]
    nxt = run(result.state, order("Vic", {"kind": "attack", "ap": 1, "target": "Att",
                                          "weapon": "Broadsword"}))
    assert act(nxt, "Vic").effective is False
    fists = run(result.state, order("Vic", {"kind": "attack", "ap": 1, "target": "Att"}))
    assert act(fists, "Vic").effective is True
    again = run(result.state, order("Vic", {"kind": "pickup", "ap": 1, "item": "Broadsword"},
                                    {"kind": "ready", "ap": 1, "item": "Broadsword"},
                                    {"kind": "attack", "ap": 1, "target": "Att",
                                     "weapon": "Broadsword"}))
    assert act(again, "Vic", 2).effective is True
    assert kinds(again, "Vic") == []


def test_f18_11_grasp_tiers():
    """[F:L257] "If the attack succeeds by 4 points, the dropped object ... pulled to the
    attacking character's feet; if it succeeds by 5 or more points, the attacker can actually
    grab the item for himself"."""
    for margin, at_feet, grabbed in ((3, False, False), (4, True, False), (5, False, True)):
        whipper = char("Wh", traits={"Clever": 3}, skills={"Whip": margin}, weapons=["Whip"],
                       position=1)
        victim = char("Vic", traits={"Alluring": 3}, weapons=["Broadsword"], position=0)
        result = run(state(whipper, victim),
                     order("Wh", {"kind": "attack", "ap": 1, "target": "Vic",
                                  "special": "Grasp"}))
        assert act(result, "Wh").margin == margin
        wh = who(result, "Wh")
        assert any(w.name == "Broadsword" for w in wh.weapons) is (at_feet or grabbed)
        assert wh.statuses == ()  # "the victim is Disarmed as above", never the attacker
        vic = who(result, "Vic")
        assert [s.kind.value for s in vic.statuses] == ["disarmed"]
        assert any(w.name == "Broadsword" for w in vic.weapons) is (margin == 3)


def test_f18_12_impale_penalty_and_removal():
    """[F:L258] "the victim suffers a -1 skill penalty to all actions until the weapon is
    removed. Removing an impaling weapon costs 1 AP."."""
    a, v, x = great("Crossbow", "Impale", skill="Archery")
    result = run(state(a, v), order("Att", x))
    assert act(result, "Att").damage == 3
    assert kinds(result, "Vic") == ["impaled"]
    assert any(w.name == "Crossbow" for w in who(result, "Att").weapons)
    removed = run(result.state, order("Vic", {"kind": "remove", "ap": 1, "item": "Crossbow"}),
                  )
    assert kinds(removed, "Vic") == []


def test_f18_13_barbed_ripout_deals_a_level():
    """[F:L259] "A Barbed weapon can be ripped out for 1 AP but will injure the character
    further, doing another health level of damage."."""
    vic = char("Vic", status=[{"kind": "barbed", "item": "Long Bow"}])
    result = run(state(vic), order("Vic", {"kind": "ripout", "ap": 1}))
    assert [h.levels for h in result.hits] == [1]
    assert health(result, "Vic") == "Staggered" and kinds(result, "Vic") == []


def test_f18_14_transfix_ticks_and_removal_damage():
    """F18.14 example: polearm GS -> 4 levels, then ticks at CLOSE(3) and CLOSE(4); removal in
    turn 4 (3 AP) -> +1."""
    vic = char("Vic", status=[{"kind": "transfixed", "item": "Polearm"}])
    tick = run(state(vic, turn=3))
    assert [h.id for h in tick.hits] == ["t3-vic-transfix1"]
    removal = run(state(vic, turn=4), order("Vic", {"kind": "remove", "ap": 3}))
    assert sorted(h.source for h in removal.hits) == ["removal"]


def test_f18_15_freeze_sheath_and_exposure():
    """[F:L261] "requiring a successful Wrestling attack versus a difficulty of 8 from inside,
    or any attack against the sheath from outside versus a difficulty of 10 ... A Failure on an
    external attack strikes the iced-over character instead for 1 health level of damage"."""
    ice = char("Ice", traits={"Tireless": 3}, skills={"Wrestling": 2},
               status=[{"kind": "frozen", "elapsed": 0}])
    ally = char("Ally", skills={"Swordfighting": 3}, weapons=["Broadsword"])
    inside = run(state(ice, ally), order("Ice", {"kind": "skill", "ap": 3, "skill": "Wrestling"}))
    assert (act(inside, "Ice").difficulty, act(inside, "Ice").margin) == (8, -3)
    assert kinds(inside, "Ice") == ["frozen"]
    outside = run(state(ice, ally), order("Ally", {"kind": "attack", "ap": 0 + 1,
                                                   "target": "Ice"}))
    a = act(outside, "Ally")
    assert a.difficulty == 10 and a.damage == 3
    torch = run(state(ice, ally), order("Ally", {"kind": "attack", "ap": 2, "target": "Ice",
                                                 "heat": True}))
    assert act(torch, "Ally").difficulty == 5 and kinds(torch, "Ice") == []
    late = char("Late", status=[{"kind": "frozen", "elapsed": 11}])
    assert [h.levels for h in run(state(late)).hits] == [1]
    assert run(state(replace(late, statuses=(
        Status(kind=StatusKind.FROZEN, elapsed=12),)))).hits == ()


def test_f18_16_vaporize_is_not_reducible():
    """F18.16: "the victim is Dead and removed with no remains. It is not reducible"."""
    shooter = char("Sh", traits={"Clever": 3}, skills={"Firearms": 5}, weapons=["Plaser 4"],
                   ammo=10)
    vic = char("Vic")
    result = run(state(shooter, vic), order("Sh", {"kind": "attack", "ap": 3, "target": "Vic",
                                                   "special": "Vaporize"}))
    assert health(result, "Vic") == "Dead"
    assert result.hits == ()
    assert "vaporized" in kinds(result, "Vic")


def test_f18_8_dismemberment_tiers():
    """F18.8: em 3 minor, 4-5 moderate, >= 6 major (config)."""
    lightsaber = char("Jedi", traits={"Uncanny": 3}, skills={"Swordfighting": 5},
                      weapons=["Lightsword"])
    vic = char("Vic", weapons=["Broadsword"])
    result = run(state(lightsaber, vic), order("Jedi", {"kind": "attack", "ap": 2,
                                                        "target": "Vic",
                                                        "special": "Dismemberment",
                                                        "part": "sword arm"}))
    status, dropped = who(result, "Vic").statuses
    assert (status.kind.value, status.item, status.note) == ("dismembered", "sword arm", "major")
    assert (dropped.kind.value, dropped.item) == ("disarmed", "Broadsword")
    assert act(result, "Jedi").damage == 5


def test_r2_dismember_tiers_custom():
    """R2 `dismember_tiers` "custom": the same em 6 blow that is major by default is moderate
    with moderate from 5 and major from 8, and minor with moderate from 7."""
    jedi = char("Jedi", traits={"Uncanny": 3}, skills={"Swordfighting": 5},
                weapons=["Lightsword"])
    vic = char("Vic", weapons=["Broadsword"])
    blow = order("Jedi", {"kind": "attack", "ap": 2, "target": "Vic", "special": "Dismemberment",
                          "part": "sword arm"})
    found = []
    for moderate, major in ((5, 8), (7, 9)):
        config = RulesConfig(dismember_moderate_from=moderate, dismember_major_from=major)
        result = run(state(jedi, vic, config=config), blow)
        found.append(next(s.note for s in who(result, "Vic").statuses
                          if s.kind.value == "dismembered"))
    assert found == ["moderate", "minor"]


def test_f18_6_mortal_poison_ticks_three_times():
    """F18.6: "mortal poison (n = 3) -> 3 ticks at the ends of the next three turns"."""
    vic = char("Vic", status=[{"kind": "poisoned", "turns": 3, "note": "mortal"}])
    st_ = state(vic)
    ticks = 0
    for _ in range(4):
        result = run(st_)
        ticks += len(result.hits)
        st_ = result.state
    assert ticks == 3


def test_f13_a_fire_tick_is_reducible_next_turn():
    """F13 example: "A Fire tick of 1 level: 1 SP (any Trait) -> 0. The burning status
    remains."; F10 Amb-4: ticks cause shock."""
    vic = char("Vic", traits={"Nimble": 3}, status=["burning"])
    burnt = run(state(vic))
    assert health(burnt, "Vic") == "Staggered" and who(burnt, "Vic").shock
    [tick] = burnt.hits
    saved = run(burnt.state, order("Vic", {"kind": "defend", "ap": 3},
                                   reduce=[{"hit": tick.id, "sp": {"Nimble": 1}}]))
    assert saved.errors == ()
    assert kinds(saved, "Vic") == ["burning"]
    # the new tick of this turn is shown; the reduced one is gone
    assert health(saved, "Vic") == "Staggered"


def test_f18_15_frozen_character_can_only_wrestle():
    """[F:L261] "The character can take no action until the sheath is broken"."""
    from fappo_bot.rules.validate import validate_order

    ice = char("Ice", skills={"Wrestling": 2, "Swordfighting": 3}, weapons=["Broadsword"],
               status=["frozen"])
    foe = char("Foe")
    st_ = state(ice, foe)
    swing = validate_order(st_, order("Ice", {"kind": "attack", "ap": 1, "target": "Foe"}))
    assert [e.code.value for e in swing] == ["cannot-act"]
    assert validate_order(st_, order("Ice", {"kind": "skill", "ap": 2,
                                             "skill": "Wrestling"})) == []


def test_f18_9_prone_character_must_stand_before_moving():
    """F16 Amb-7: "Prone characters must stand (2 AP) before moving"."""
    down = char("Down", status=["prone"], position=0)
    foe = char("Foe", position=5)
    stuck = run(state(down, foe), order("Down", {"kind": "move", "ranges": 2, "toward": "Foe"}))
    assert act(stuck, "Down").effective is False and who(stuck, "Down").position == 0
    up = run(state(down, foe), order("Down", {"kind": "stand", "ap": 2},
                                     {"kind": "move", "ranges": 1, "toward": "Foe"}))
    assert who(up, "Down").position == 1 and kinds(up, "Down") == []


def test_f18_6_nerve_poison_profile_penalises_and_costs_ap():
    """[F:L252] "nerve poisons may give a healthy penalty to all the victim's actions and reduce
    or eliminate the victim's APs for a time" (GM profile, F18.6)."""
    from fappo_bot.rules.data import Special
    from fappo_bot.rules.defense import effective_skill
    from fappo_bot.rules.health import ap_next

    a, v, x = great("Dagger", "Poison", skill="Knife Fighting")
    a = replace(a, weapons=tuple(
        replace(w, specials=(Special.POISON,)) for w in a.weapons))
    x["profile"] = {"kind": "nerve", "penalty": 2, "ap_loss": 1, "duration": 10}
    result = run(state(a, v), order("Att", x))
    vic = who(result, "Vic")
    [status] = vic.statuses
    assert (status.note, status.penalty, status.ap_loss, status.turns) == ("nerve", 2, 1, 10)
    assert ap_next(vic, result.state.config) == 3 - 1 - 1  # Battered: shock, nerve
    assert effective_skill(vic, "Swordfighting") == -2


def test_f18_14_transfix_example_totals_six_levels():
    """RULINGS Amendments 2026-12-01 (text fix): "F18.14's Transfix example totals 6 levels (4 + 1
    tick at CLOSE(3) + 1 removal; the removal in turn 4 stops that turn's tick, F7 step 6)".
    Med removes the polearm from Vic in turn 4."""
    pol = char("Pol", skills={"Swordfighting": 5}, weapons=[{"name": "Polearm",
                                                             "skill": "Swordfighting"}])
    vic = char("Vic", traits={"Alluring": 3})
    med = char("Med", skills={"Healing": 3})
    levels = 0
    turn2 = run(state(pol, vic, med, turn=2),
                order("Pol", {"kind": "attack", "ap": 3, "target": "Vic", "special": "Transfix"}))
    levels += sum(h.levels for h in turn2.hits if h.target == "Vic")
    assert levels == 4 and kinds(turn2, "Vic") == ["transfixed"]
    turn3 = run(turn2.state)
    assert [h.id for h in turn3.hits] == ["t3-vic-transfix1"]
    levels += sum(h.levels for h in turn3.hits if h.target == "Vic")
    turn4 = run(turn3.state, order("Med", {"kind": "remove", "ap": 3, "target": "Vic",
                                           "item": "Polearm"}))
    assert turn4.errors == ()
    assert [h.source for h in turn4.hits if h.target == "Vic"] == ["removal"]
    levels += sum(h.levels for h in turn4.hits if h.target == "Vic")
    assert levels == 6 and kinds(turn4, "Vic") == []


def test_f18_8_dismemberment_aimed_at_a_weapon_destroys_it():
    """F18.8: "Dismemberment may also be used against weapons or other items, slashing them in
    half and rendering them useless" (RULINGS: "the targeted item (the item is destroyed)")."""
    jedi = char("Jedi", traits={"Uncanny": 3}, skills={"Swordfighting": 5},
                weapons=["Lightsword"])
    vic = char("Vic", weapons=["Broadsword", "Dagger"])
    result = run(state(jedi, vic), order("Jedi", {"kind": "attack", "ap": 2, "target": "Vic",
                                                  "special": "Dismemberment",
                                                  "part": "broadsword"}))
    after = who(result, "Vic")
    assert [w.name for w in after.weapons] == ["Dagger"]
    assert after.wielding == "Fist" and after.statuses == ()
    assert ("destroyed", "Broadsword") in [(e.kind, e.detail) for e in result.events]


def test_f18_8_dismemberment_aimed_at_a_shield_destroys_it():
    jedi = char("Jedi", traits={"Uncanny": 3}, skills={"Swordfighting": 5},
                weapons=["Lightsword"])
    vic = char("Vic", weapons=["Broadsword"], shield="medium")
    result = run(state(jedi, vic), order("Jedi", {"kind": "attack", "ap": 3, "target": "Vic",
                                                  "special": "Dismemberment", "part": "shield"}))
    assert ("destroyed", "shield") in [(e.kind, e.detail) for e in result.events]
    after = who(result, "Vic")
    assert after.shield == 0 and [w.name for w in after.weapons] == ["Broadsword"]


def test_f18_6_the_weapons_own_poison_profile_is_used_when_the_attack_gives_none():
    """RULINGS F18.6 Amb-1: "the weapon data gives one" (a profile); the GM's, on the attack,
    would win over it."""
    asp = char("Asp", traits={"Clever": 3}, skills={"Knife Fighting": 5},
               weapons=[{"name": "Dagger", "specials": ["Poison"],
                         "profile": {"kind": "nerve", "penalty": 3, "ap_loss": 1,
                                     "duration": 2}}])
    result = run(state(asp, char("Vic")), order("Asp", {"kind": "attack", "ap": 3,
                                                        "target": "Vic", "special": "Poison"}))
    [poison] = [s for s in who(result, "Vic").statuses if s.kind.value == "poisoned"]
    assert (poison.note, poison.penalty, poison.ap_loss, poison.turns) == ("nerve", 3, 1, 2)
