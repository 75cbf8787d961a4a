"""RULINGS F4, F5, F6, F7, F11: the shortcuts the resolver takes for speed give the rulings' answers.

`resolve_turn` grades checks from a cache by margin, reads a character's dead/unconscious flags
once, shows damage without an intermediate copy, keeps the trained defense apart from the
fallback, reuses the actor validation finalised and skips SP checks for orders without SP. Each
shortcut is checked here against the plain rule it stands for.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import char, order, state
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.character import Status, StatusKind
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import Tier
from fappo_bot.rules.defense import combat_base_defense, fallback_defense, trained_defense
from fappo_bot.rules.finalize import finalize, reductions_of
from fappo_bot.rules.health import (
    apply_damage,
    damaged,
    dead_or_out,
    is_dead,
    is_unconscious,
)
from fappo_bot.rules.levels import SuccessLevel, chart, effective_margin, resolve_check
from fappo_bot.rules.names import Roster
from fappo_bot.rules.orders import PendingHit
from fappo_bot.rules.spending import declared_lines, declares_sp
from fappo_bot.rules.validate import checked_order, validate_order

pytestmark = pytest.mark.unit
CFG = RulesConfig()


@given(
    total=st.integers(-5, 20), difficulty=st.integers(1, 20), protected=st.booleans(),
    up=st.integers(-1, 6), down=st.integers(-1, 6),
)
def test_f4_cached_grading_is_the_chart_shifted(
    total: int, difficulty: int, protected: bool, up: int, down: int
) -> None:
    """[F:L94] each SP moves the result one level; [F:L156] the Suggested Trait protects from an
    Abject Failure "unless the total is -5 or worse". F4 Amb-5..8: protection first, the shift up
    capped at Great, pledges down to Failure at worst for a protected actor."""
    margin = total - difficulty
    level = min(int(SuccessLevel.GREAT), int(chart(margin, protected)) + max(0, up))
    floor = SuccessLevel.FAILURE if protected and margin > -5 else SuccessLevel.ABJECT
    want = SuccessLevel(max(int(floor), level - max(0, down)))
    for _ in range(2):  # the second answer comes from the cache
        got = resolve_check(total, difficulty, protected=protected, shift_up=up, shift_down=down)
        assert (got.margin, got.level, got.protected) == (margin, want, protected)
        assert got.em == effective_margin(margin, want, protected)


@pytest.mark.parametrize("pips", [False, True])
@pytest.mark.parametrize("tier", [Tier.PC, Tier.LIEUTENANT, Tier.MASTER])
def test_f11_damage_shown_without_a_copy_matches_apply_damage(pips: bool, tier: Tier) -> None:
    """[F:L178] "Moving down on the list, in any amount" — one level of damage moves one level
    down the character's track, or fills one pip with the pips option (F11 Amb-3)."""
    config = RulesConfig(pips_enabled=pips)
    for start in range(0, 6):
        c = replace(char("Vic", tier=tier.value), health=start, pips=start)
        for levels in range(1, 12):
            hurt = apply_damage(c, levels, config)
            assert damaged(c, levels, config) == (hurt.health, hurt.pips)


@pytest.mark.parametrize("status", [None, StatusKind.UNCONSCIOUS, StatusKind.VAPORIZED,
                                    StatusKind.PRONE])
def test_f6_dead_and_unconscious_read_at_once(status: StatusKind | None) -> None:
    """F6 Amb-6: an unconscious, Dying or Dead defender has defense 1; F18.16: vaporized is
    dead. `dead_or_out` gives `is_dead` and `is_unconscious` from one reading of the level."""
    for health in range(0, 7):
        c = replace(char("Vic"), health=health,
                    statuses=(Status(kind=status),) if status else ())
        assert dead_or_out(c, CFG) == (is_dead(c, CFG), is_unconscious(c, CFG))


def test_f5_trained_defense_apart_from_the_fallback() -> None:
    """[F:L229] "defense against all attack types equal to their highest attack skill minus 1";
    [F:L96] otherwise "their basic defense is 1, or 2 if they have the Suggested Trait"."""
    arlo = char("Arlo", traits={"Nimble": 3}, skills={"Archery": 4, "Swordfighting": 1})
    nell = char("Nell", traits={"Nimble": 3}, skills={"Stealth": 5})
    assert trained_defense(arlo, CFG) == 3
    assert trained_defense(nell, CFG) == -1
    for who in (arlo, nell):
        for skill in ("Swordfighting", "Archery", "Fisticuffs", None):
            assert combat_base_defense(who, skill, CFG) == max(
                trained_defense(who, CFG), fallback_defense(who, skill))


def test_f7_validation_hands_resolution_the_finalised_actor() -> None:
    """F7 step 2: the last resolution's hits are finalised with this turn's reductions before
    anything resolves; validation already did it for the order's actor."""
    kael = char("Kael", traits={"Brawny": 3}, skills={"Swordfighting": 3})
    hit = PendingHit(id="t1-x-0", target="Kael", attacker="X", levels=3)
    st_ = state(kael, char("X"), pending=(hit,))
    o = order("Kael", {"kind": "defend", "ap": 1}, reduce=[{"hit": "t1-x-0", "sp": {"Brawny": 2}}])
    roster = Roster(st_.characters, st_.pending)
    errors, current = checked_order(st_, o, roster)
    assert errors == validate_order(st_, o) == []
    assert current == finalize(kael, [hit], reductions_of(o), CFG).character
    assert current is not None and current.health == 1  # 3 levels less the 2 reduced


def test_f4_orders_without_sp_skip_the_sp_check() -> None:
    """P4: "Declared SPs and APs are consumed at resolution"; an order declaring none has
    nothing to check or pay."""
    plain = order("Kael", {"kind": "attack", "ap": 2, "target": "X"})
    guarded = order("Kael", {"kind": "defend", "ap": 1}, guard=[{"against": "any",
                                                                  "sp": {"floating": 1}}])
    assert not declares_sp(plain) and not list(declared_lines(plain))
    assert declares_sp(guarded) and list(declared_lines(guarded))
