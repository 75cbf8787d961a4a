"""RULINGS F15: Dying and stabilizing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.character import Character, StatusKind
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import Tier, Trait
from fappo_bot.rules.dying import (
    DyingState,
    advance_dying,
    dying_deadline,
    kill,
    qualifies_attendance,
    qualifies_sp_route,
)
from fappo_bot.rules.health import is_dying
from fappo_bot.rules.results import RulesError

pytestmark = pytest.mark.unit

DYING, DEAD = 5, 6


def patient(**fields: object) -> Character:
    return Character(name="Kael", health=DYING, **fields)  # type: ignore[arg-type]


def run_turns(character: Character, attended_turns: set[int], k: int, last: int) -> tuple[
        DyingState, int]:
    """Turns K+1 .. last; returns the state and the turn it was reached."""
    state = DyingState.DYING
    for turn in range(k + 1, last + 1):
        out = advance_dying(character, attended=turn in attended_turns)
        character, state = out.character, out.state
        if state is not DyingState.DYING:
            return state, turn
    return state, last


def test_r4_item12_nobody_helps_dead_at_end_of_turn_22() -> None:
    """[F:L180] "Dying characters will fall Dead if they don't receive two full turns of
    attention ... within ten combat turns of being knocked out." K = 12 -> Dead at CLOSE(22)."""
    assert dying_deadline(12) == 22
    state, turn = run_turns(patient(), set(), 12, 30)
    assert (state, turn) == (DyingState.DEAD, 22)


def test_r4_item12_attended_in_turns_14_and_15_stable_at_15() -> None:
    """[F:L180] "These two turns do not require skill checks, just attendance. Success
    stabilizes the character at Dying". RULINGS F15 example: a medic attends in 14 and 15."""
    state, turn = run_turns(patient(), {14, 15}, 12, 30)
    assert (state, turn) == (DyingState.STABILIZED, 15)


def test_f15_amb2_attention_need_not_be_consecutive() -> None:
    """RULINGS F15 Amb-2: "not necessarily consecutive; any qualifying attendants"."""
    assert run_turns(patient(), {13, 22}, 12, 30) == (DyingState.STABILIZED, 22)
    assert run_turns(patient(), {22}, 12, 30) == (DyingState.DEAD, 22)


def test_f15_sp_route_highborn_knight_stabilizes_at_once() -> None:
    """[F:L180] "or two Success Points from someone with the traits Sagacious or Highborn".
    RULINGS F15: a Highborn knight, adjacent, 1 AP, 2 SP from any pool, turn 13."""
    knight = Character(name="Sir", traits={Trait.HIGHBORN: 3, Trait.BRAWNY: 2})
    assert qualifies_sp_route(knight, distance=0, ap_spent=1, sp_spent={"Brawny": 2}).ok
    out = advance_dying(patient(), sp_route=True)
    assert out.state is DyingState.STABILIZED
    assert out.character.has_status(StatusKind.STABILIZED)
    assert advance_dying(out.character).state is DyingState.STABILIZED  # stays put


def test_f15_amb4_amb5_amb10_sp_route_conditions() -> None:
    """RULINGS F15 Amb-4 (any pool of an owner), Amb-5 (one helper, 2 SP, one turn), Amb-10
    (at least 1 AP)."""
    sage = Character(name="Sage", traits={Trait.SAGACIOUS: 1}, floating=1)
    assert qualifies_sp_route(sage, distance=0, ap_spent=1,
                              sp_spent={"Sagacious": 1, "floating": 1}).ok
    assert not qualifies_sp_route(sage, distance=0, ap_spent=0,
                                  sp_spent={"Sagacious": 1, "floating": 1}).ok
    assert not qualifies_sp_route(sage, distance=1, ap_spent=1,
                                  sp_spent={"Sagacious": 1, "floating": 1}).ok
    assert not qualifies_sp_route(sage, distance=0, ap_spent=1, sp_spent={"Sagacious": 1}).ok
    assert not qualifies_sp_route(sage, distance=0, ap_spent=1, sp_spent={"Sagacious": 2}).ok
    brute = Character(name="Brute", traits={Trait.BRAWNY: 3})
    why = qualifies_sp_route(brute, distance=0, ap_spent=1, sp_spent={"Brawny": 2})
    assert not why.ok and "Sagacious or Highborn" in (why.reason or "")


def test_f15_amb3_a_full_turn_of_attention() -> None:
    """RULINGS F15 Amb-3: "all APs go to attending ...; the attendant must be adjacent
    (distance 0) at the start of the turn"; "from someone with the Healing skill"."""
    medic = Character(name="Medic", skills={"Healing": 1})
    assert qualifies_attendance(medic, distance=0, ap_spent=3, ap_budget=3).ok
    assert not qualifies_attendance(medic, distance=0, ap_spent=2, ap_budget=3).ok
    assert not qualifies_attendance(medic, distance=1, ap_spent=3, ap_budget=3).ok
    assert not qualifies_attendance(medic, distance=0, ap_spent=0, ap_budget=0).ok
    layman = Character(name="Bob", skills={"Healing": 0})
    assert "Healing skill" in (qualifies_attendance(layman, distance=0, ap_spent=3,
                                                    ap_budget=3).reason or "")


def test_f15_amb8_lieutenants_have_no_dying_and_masters_do() -> None:
    """RULINGS F15 Amb-8: Lieutenants not applicable; Masters same rules."""
    lt = Character(name="Lt", tier=Tier.LIEUTENANT, health=2)
    assert not is_dying(lt, RulesConfig())
    with pytest.raises(RulesError, match="not Dying"):
        advance_dying(lt)
    master = Character(name="Wyrm", tier=Tier.MASTER, health=9, dying_turns=9)
    out = advance_dying(master)
    assert out.state is DyingState.DEAD and out.character.health == 10


def test_f15_pips_dying_and_death() -> None:
    """F11 pips: Dying at 11-15 pips; Dead fills all 16."""
    cfg = RulesConfig(pips_enabled=True)
    char = Character(name="Kael", pips=12, dying_turns=9)
    assert is_dying(char, cfg)
    dead = advance_dying(char, config=cfg).character
    assert (dead.pips, dead.health) == (16, 6)
    assert kill(Character(name="X", tier=Tier.LIEUTENANT)).health == 3


@given(st.sets(st.integers(13, 22)))
def test_f15_two_attended_turns_within_ten_always_stabilize(attended: set[int]) -> None:
    """[F:L180] two turns of attention within ten turns stabilize; otherwise Dead at K+10."""
    state, turn = run_turns(patient(), attended, 12, 40)
    if len(attended) >= 2:
        assert state is DyingState.STABILIZED and turn == sorted(attended)[1]
    else:
        assert (state, turn) == (DyingState.DEAD, 22)
