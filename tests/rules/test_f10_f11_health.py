"""RULINGS F10 (wound AP penalties, shock) and F11 (health tracks, pips, Lieutenant, Master)."""

from __future__ import annotations

import pytest
from engine_helpers import char

from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import TrackKind
from fappo_bot.rules.health import (
    ap_budget,
    ap_next,
    apply_damage,
    can_act,
    index_from_pips,
    index_of_level,
    level_name,
)

pytestmark = pytest.mark.unit
CFG = RulesConfig()
PIPS = RulesConfig(pips_enabled=True)


def test_f11_standard_track_clamps_at_dead():
    """F11 example: "a Healthy PC takes 2 (Battered), then 3 -> index 5 Dying; one more ->
    Dead"; F12 Amb-7: clamp at Dead."""
    kael = char("Kael")
    kael = apply_damage(kael, 2, CFG)
    assert level_name(kael, CFG) == "Battered"
    kael = apply_damage(kael, 3, CFG)
    assert level_name(kael, CFG) == "Dying"
    kael = apply_damage(kael, 9, CFG)
    assert level_name(kael, CFG) == "Dead" and kael.health == 6


def test_f11_lieutenant_has_four_levels():
    """[F:L344] "Lieutenants only have four Health Levels, however: Healthy, Wounded,
    Incapacitated, and Dead."."""
    sarge = char("Sarge", tier="lieutenant")
    assert level_name(apply_damage(sarge, 3, CFG), CFG) == "Dead"
    assert level_name(apply_damage(sarge, 1, CFG), CFG) == "Wounded"


def test_f11_master_slots_are_numbered():
    """[F:L348] Masters: "Healthy, Unaffected, Staggered, Battered, Battered, Wounded, Wounded,
    Wounded, Incapacitated, Dying, Dead"."""
    ooze = char("Ooze", tier="master", health="Battered 2")
    assert ooze.health == 4
    assert level_name(ooze, CFG) == "Battered 2"
    assert level_name(apply_damage(ooze, 3, CFG), CFG) == "Wounded 3"
    assert index_of_level(TrackKind.MASTER, "Battered") == 3
    assert index_of_level(TrackKind.MASTER, "Wounded 2") == 6


def test_f11_pips_thresholds():
    """F11 Amb-1: "Staggered at D=1, Battered at 2-3, Wounded 4-6, Incapacitated 7-10, Dying
    11-15, Dead at 16"."""
    assert [index_from_pips(p) for p in (0, 1, 2, 3, 4, 6, 7, 10, 11, 15, 16, 20)] == [
        0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    kael = char("Kael", damage=3)
    hurt = apply_damage(kael, 1, PIPS)
    assert (hurt.pips, level_name(hurt, PIPS)) == (4, "Wounded")


def test_f10_wounded_and_incapacitated_penalties():
    """[F:L178] "Characters who drop to Wounded also lose 1 AP ... Incapacitated characters lose
    yet another AP"; F10 example AP(5) = 3 - 1 - 1 = 1."""
    wounded = char("W", health="Wounded", shock=True)
    assert ap_budget(wounded, CFG) == 1
    assert ap_next(wounded, CFG, shock=False) == 2
    incap = char("I", health="Incapacitated", shock=True)
    assert ap_budget(incap, CFG) == 0


def test_f10_master_wounded_slots_cost_one_each_not_cumulative():
    """F10 example: "Master (7 AP) ... -> index 6 (Wounded #2): AP = 7 - 1 - 1 = 5"."""
    master = char("M", tier="master", ap=7, health="Wounded 2", shock=True)
    assert ap_budget(master, CFG) == 5


def test_f10_incapacitated_needs_tireless_sp():
    """[F:L178] "Incapacitated characters can take no action more strenuous than walking slowly
    unless they spend a Success Point from the trait Tireless."."""
    incap = char("I", health="Incapacitated")
    assert not can_act(incap, CFG)
    assert can_act(incap, CFG, endure=True)
    dying = char("D", health="Dying")
    assert not can_act(dying, CFG, endure=True)
    assert ap_next(dying, CFG) == 0
    out = char("K", status=["unconscious"])
    assert ap_next(out, CFG) == 0


def test_f20_f21_a_wiped_out_group_has_no_ap_next():
    """[F:L340] "knock ... Nuisance creatures out of the fight at once": a group with no creature
    left cannot act next turn, so spec's `ap_next` is 0; one survivor keeps the tier's AP."""
    rats = char("Rats", tier="nuisance", count=0)
    assert ap_next(rats, CFG) == 0
    assert ap_next(char("Thugs", tier="minion", count=1), CFG) == 2
