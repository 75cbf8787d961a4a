"""RULINGS F20 (nuisances and swarms) and F21 (minions: elimination and Collaborate)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import act, char, health, order, run, state, who

from fappo_bot.rules.config import MinionElimMode, NuisanceCountMode, RulesConfig
from fappo_bot.rules.fodder import entities

pytestmark = pytest.mark.unit

KAEL = char("Kael", traits={"Nimble": 3}, skills={"Swordfighting": 3}, weapons=["Broadsword"])


def rats(count: int, **fields):
    data = {"tier": "nuisance", "count": count, "traits": {}, "skills": {"Fisticuffs": 2},
            "weapons": ["Fist"], **fields}
    return char("Rats", **data)


def test_f20_blocks_of_five_form_swarms():
    """[F:L340] "For every five Nuisance creatures attacking a character, treat them as a
    single entity with +1 to the Nuisance creature's attack skill and AP"."""
    found = entities(rats(12), RulesConfig())
    assert [(e.kind, e.skill_bonus, e.ap_bonus) for e in found] == [
        ("swarm", 1, 1), ("swarm", 1, 1), ("single", 0, 0), ("single", 0, 0)]


def test_f20_swarm_attack_and_damage():
    """F20 example: "12 rats ... 2 swarms (skill 3, AP 2, def 1) + 2 individuals ... shields
    rank swarms (SS damage 2) > rats (1)"; swarm damage BS 1, SS 2, GS 3."""
    pc = char("Pc", traits={"Alluring": 3}, skills={"Swordfighting": 1})
    result = run(state(pc, rats(12)), order("Rats", {"kind": "attack", "ap": 1, "target": "Pc"}))
    a = act(result, "Rats")
    # first entity = a swarm: skill 2 + 1, AP 1 + 1 = 5 vs Pc's defense max(1 - 1, 1) = 1
    assert (a.total, a.difficulty, a.margin) == (5, 1, 4)
    # two swarms at GS (3 each) and two rats at 2 + 1 = 3 vs 1 -> SS (Fist 1 each)
    assert a.damage == 3 + 3 + 1 + 1
    assert health(result, "Pc") == "Dead"


def test_f20_three_times_effective_margin_with_overflow():
    """[F:L340] "a character who succeeds in any attack by 3 points will eliminate 9"; F20
    Amb-4: overflow onto the other nuisances the GM lists."""
    more = char("Bats", tier="nuisance", count=4, traits={}, skills={"Fisticuffs": 1},
                weapons=["Fist"])
    result = run(state(KAEL, rats(3), more),
                 order("Kael", {"kind": "attack", "ap": 1, "target": "Rats", "also": ["Bats"]}))
    assert act(result, "Kael").eliminated == 7
    assert (who(result, "Rats").count, who(result, "Bats").count) == (0, 0)
    lone = run(state(KAEL, rats(12), more),
               order("Kael", {"kind": "attack", "ap": 1, "target": "Rats"}))
    assert act(lone, "Kael").eliminated == 9
    assert who(lone, "Bats").count == 4


def test_f20_bare_success_eliminates_none_unless_rank_mode():
    """F20 Amb-1: "BS (m = 0) -> 0 eliminated under the ruling (3 under reading (b))"."""
    tough = rats(6, skills={"Fisticuffs": 5})
    o = order("Kael", {"kind": "attack", "ap": 1, "target": "Rats"})
    assert act(run(state(KAEL, tough), o), "Kael").eliminated == 0
    rank = RulesConfig(nuisance_count_mode=NuisanceCountMode.LEVEL_RANK)
    assert act(run(state(KAEL, tough, config=rank), o), "Kael").eliminated == 3


def test_f20_attacking_swarm_has_one_less_defense():
    """F20: "swarm entity: max(1, nuisance_def - 1)" when the group swarms this turn."""
    tough = rats(5, skills={"Fisticuffs": 4})
    alone = run(state(KAEL, tough), order("Kael", {"kind": "attack", "ap": 1, "target": "Rats"}))
    assert act(alone, "Kael").difficulty == 3
    both = run(state(KAEL, tough), order("Kael", {"kind": "attack", "ap": 1, "target": "Rats"}),
               order("Rats", {"kind": "attack", "ap": 1, "target": "Kael"}))
    assert act(both, "Kael").difficulty == 2


def test_f21_minions_eliminated_by_damage_dealt():
    """[F:L342] "a longsword which does 3 Health Levels of damage will knock out three Minions";
    F21 Amb-1: "The same longsword at BS -> floor(3/2) = 1"."""
    thugs = char("Thugs", tier="minion", count=5, skills={"Swordfighting": 3},
                 weapons=["Short sword"], armor="light")
    bare = run(state(KAEL, thugs), order("Kael", {"kind": "attack", "ap": 0, "target": "Thugs"}))
    assert bare.errors  # 0 AP is refused (F8 Amb-1)
    solid = run(state(KAEL, thugs), order("Kael", {"kind": "attack", "ap": 2, "target": "Thugs"}))
    assert act(solid, "Kael").eliminated == 3 and who(solid, "Thugs").count == 2
    base = RulesConfig(minion_elim_mode=MinionElimMode.WEAPON_BASE_DAMAGE)
    weak = char("Weak", traits={"Nimble": 3}, skills={"Swordfighting": 2},
                weapons=["Broadsword"])
    bare_hit = run(state(weak, thugs, config=base),
                   order("Weak", {"kind": "attack", "ap": 1, "target": "Thugs"}))
    assert act(bare_hit, "Weak").level.label == "bare"
    assert act(bare_hit, "Weak").eliminated == 3


def test_f21_collaborate_trios():
    """F21 example: "7 minions (Swordfighting 2, short swords D2, def 1 = 2 - 1) vs a PC with
    def 4: 2 groups (skill 4, AP 2) + 1 single. Group attack 4 + 2 = 6 vs 4 -> m = 2 -> SS ->
    2 levels each. The single minion, 2 + 2 = 4 vs 4 -> BS -> 1 level."."""
    pc = char("Pc", traits={"Nimble": 3}, skills={"Swordfighting": 3}, armor="light")
    gang = char("Gang", tier="minion", count=7, skills={"Swordfighting": 2},
                weapons=["Short sword"])
    cfg = RulesConfig(collaborate=True)
    result = run(state(pc, gang, config=cfg),
                 order("Pc", {"kind": "defend", "ap": 1}),
                 order("Gang", {"kind": "attack", "ap": 2, "target": "Pc"}))
    a = act(result, "Gang")
    assert (a.total, a.difficulty, a.margin) == (6, 4, 2)
    assert a.damage == 2 + 2 + 1
    without = run(state(pc, gang), order("Pc", {"kind": "defend", "ap": 1}),
                  order("Gang", {"kind": "attack", "ap": 2, "target": "Pc"}))
    assert act(without, "Gang").damage == 7


def test_f3_group_order_ap_is_per_creature():
    """Amendment F20/F21: "a fodder group's order gives AP per creature"."""
    gang = char("Gang", tier="minion", count=7, skills={"Swordfighting": 2},
                weapons=["Short sword"])
    result = run(state(KAEL, gang), order("Gang", {"kind": "attack", "ap": 3, "target": "Kael"}))
    assert {e.code.value for e in result.errors} == {"ap-over-budget"}


def test_r2_fodder_can_reduce_over_two_resolutions():
    """F13 Amb-8: "no post-hoc reduction (config `fodder_can_reduce=false`)"; F21 Amb-7. On, a
    PC's eliminations are a provisional hit on the group (one level a creature, overflow groups
    each their own), which the group's next order reduces at 1 SP each, up to 2 per attack; the
    count shows them meanwhile, and the default keeps them final and makes no hit."""
    thugs = char("Thugs", tier="minion", count=5, skills={"Swordfighting": 3},
                 weapons=["Short sword"])
    more = char("Louts", tier="minion", count=4, skills={"Swordfighting": 3},
                weapons=["Short sword"])
    kael = char("Kael", traits={"Nimble": 3}, skills={"Swordfighting": 3},
                weapons=["Broadsword"])
    # Swordfighting 3 + 2 AP = 5 vs 2 -> +3 great -> Broadsword 3 + 1 = 4 minions: the 2 thugs,
    # then 2 louts by overflow (F21 Amb-5)
    swing = order("Kael", {"kind": "attack", "ap": 2, "target": "Thugs", "also": ["Louts"]})
    config = RulesConfig(fodder_can_reduce=True)
    default = run(state(kael, thugs, more), swing)
    assert not [h for h in default.hits if h.target in ("Thugs", "Louts")]
    first = run(state(kael, replace(thugs, count=2), more, config=config), swing)
    eliminated = act(first, "Kael").eliminated
    hits = {h.target: h for h in first.hits}
    assert eliminated == 4 and (hits["Thugs"].levels, hits["Louts"].levels) == (2, 2)
    assert hits["Thugs"].source == "elimination" and hits["Louts"].id == hits["Thugs"].id + "-louts"
    assert (who(first, "Thugs").count, who(first, "Louts").count) == (0, 2)
    # the next turn: Thugs save 1 of 2 (1 Brawny SP), Louts none
    reduce = order("Thugs", reduce=[{"hit": hits["Thugs"].id, "sp": {"Brawny": 1}}])
    second = run(first.state, reduce)
    assert not second.errors
    assert (who(second, "Thugs").count, who(second, "Louts").count) == (1, 2)
    assert who(second, "Thugs").traits[next(iter(who(second, "Thugs").traits))] == 2
    assert who(second, "Thugs").settled_count is None
    # a reduction over the cap of 2 per attack, or above the hit, is refused as for any hit
    over = order("Louts", reduce=[{"hit": hits["Louts"].id, "sp": {"Brawny": 3}}])
    assert [e.code.value for e in run(first.state, over).errors] == ["reduce-over-limit"]
