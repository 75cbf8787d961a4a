"""RULINGS F14: healing times, Healing checks and magical healing (and F11 pips healing)."""

from __future__ import annotations

import pytest
from engine_helpers import char, health, order, run, state
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.character import Character, Status, StatusKind
from fappo_bot.rules.config import PipsHealMode, RulesConfig
from fappo_bot.rules.data import Tier
from fappo_bot.rules.healing import (
    HealingCheck,
    grade_healing_check,
    heal,
    heal_levels,
    heal_time,
)
from fappo_bot.rules.health import index_from_pips
from fappo_bot.rules.levels import SuccessLevel
from fappo_bot.rules.results import RulesError

pytestmark = pytest.mark.unit

MIN, HOUR, DAY = 60, 3600, 86400
STAGGERED, BATTERED, WOUNDED, INCAPACITATED, DYING, DEAD = 1, 2, 3, 4, 5, 6
PIPS = RulesConfig(pips_enabled=True)


def pc(health: int = 0, **fields: object) -> Character:
    return Character(name="Kael", health=health, **fields)  # type: ignore[arg-type]


def test_r3_row11_battered_to_staggered_in_5_minutes_with_a_solid_check() -> None:
    """[F:L201] "Successful use of the Healing skill versus the difficulty number given in the
    list above will cut the time to heal one level in half (5 minutes instead of 10 to move from
    Battered to Staggered, for instance)." (spec/cases.md heal example: total 5 vs 3 -> solid.)"""
    out = heal(pc(BATTERED), 300, check=HealingCheck(total=5))
    assert (out.level, out.check_level, out.heal_seconds) == ("Staggered", SuccessLevel.SOLID,
                                                              300)
    assert out.seconds_to_next == 10  # Staggered's own clock: 1 turn, not yet passed
    assert heal(pc(BATTERED), 300).level == "Battered"


def test_r4_item13_bare_check_does_not_halve_one_sagacious_sp_makes_it_great() -> None:
    """[F:L201] "must result in a Solid Success or better". RULINGS F14 seed example: Healing 2
    + 1 AP = 3 vs 3 -> BS (no halving); with 1 Sagacious SP (counts 2) -> GS -> 5 min."""
    bare = heal(pc(BATTERED), 300, check=HealingCheck(total=3))
    assert (bare.check_level, bare.heal_seconds, bare.level) == (SuccessLevel.BARE, 600,
                                                                 "Battered")
    great = heal(pc(BATTERED), 300,
                 check=HealingCheck(total=3, sp={"Sagacious": 1}, sagacious=True))
    assert (great.check_level, great.heal_seconds, great.level) == (SuccessLevel.GREAT, 300,
                                                                    "Staggered")


def test_f14_wounded_solid_check_halves_24h_to_12h() -> None:
    """RULINGS F14: "Healing 3 + 2 AP = 5 -> m = 1 -> SS -> 12 h instead of 24 h"."""
    out = heal(pc(WOUNDED), 12 * HOUR, check=HealingCheck(total=5))
    assert (out.check_level, out.heal_seconds, out.level) == (SuccessLevel.SOLID, 12 * HOUR,
                                                              "Battered")


def test_f14_full_recovery_from_incapacitated_without_checks() -> None:
    """[F:L178] "After the amount of time listed under \"Heal,\" the character will regain one
    health level." 14 d -> Wounded; 24 h -> Battered; 10 min -> Staggered; 1 turn -> Healthy."""
    total = 14 * DAY + DAY + 10 * MIN + 10
    assert heal(pc(INCAPACITATED), total - 1).level == "Staggered"
    out = heal(pc(INCAPACITATED), total)
    assert (out.level, out.levels_healed, out.character.health) == ("Healthy", 4, 0)
    assert out.character.heal_elapsed == 0


def test_f14_check_applies_only_to_its_level_next_level_runs_full_time() -> None:
    """[F:L201] "Once the character moves up to the next level, they'll have to spend the entire
    time to heal that level unless an assisting character successfully uses the Healing skill
    again." Incapacitated halved: 7 d; then Wounded needs its full 24 h."""
    out = heal(pc(INCAPACITATED), 7 * DAY + 12 * HOUR, check=HealingCheck(total=7))
    assert out.level == "Wounded" and out.heal_seconds == 7 * DAY
    assert out.seconds_to_next == 12 * HOUR
    assert not out.character.heal_checked  # a new level episode: a new check is allowed
    later = heal(out.character, 12 * HOUR, check=HealingCheck(total=3))  # F at diff 4
    assert later.level == "Battered"


def test_f14_amb3_one_check_per_level_episode() -> None:
    """[F:L201] "This check can only be made once per health level"."""
    first = heal(pc(WOUNDED), HOUR, check=HealingCheck(total=2))  # failure
    assert first.check_level == SuccessLevel.FAILURE and first.character.heal_checked
    with pytest.raises(RulesError, match="once per health level"):
        heal(first.character, HOUR, check=HealingCheck(total=9))
    # the clock keeps running at full time: 24 h in all
    assert heal(first.character, 22 * HOUR).level == "Wounded"
    assert heal(first.character, 23 * HOUR).level == "Battered"


def test_f14_amb5_no_self_treatment() -> None:
    """[F:L201] "unless an assisting character successfully uses the Healing skill again"."""
    with pytest.raises(RulesError, match="assisting character"):
        heal(pc(BATTERED), 300, check=HealingCheck(total=9, healer="kael"))
    assert heal(pc(BATTERED), 300, check=HealingCheck(total=9, healer="Mira")).level == (
        "Staggered")


def test_f14_amb4_halving_counts_from_level_entry() -> None:
    """RULINGS F14 Amb-4: "If elapsed >= half when the check succeeds, the patient heals at
    once"."""
    waited = heal(pc(BATTERED), 305)
    assert waited.level == "Battered" and waited.character.heal_elapsed == 305
    now = heal(waited.character, 0, check=HealingCheck(total=6))
    assert now.level == "Staggered" and now.character.heal_elapsed == 5
    # the time beyond the halved need runs on the next level's clock
    assert heal(pc(BATTERED), 310, check=HealingCheck(total=6)).level == "Healthy"


def test_f14_amb8_staggered_and_unaffected_need_no_check() -> None:
    """[F:L166] "Staggered (Heal: 1 turn)": no difficulty, no check."""
    out = heal(pc(STAGGERED), 10, check=HealingCheck(total=9))
    assert out.level == "Healthy" and out.check_level is None and out.notes
    master = Character(name="Wyrm", tier=Tier.MASTER, health=1)  # Unaffected
    assert heal(master, 10).level == "Healthy"


def test_f11_amb6_master_repeated_levels_each_heal_separately() -> None:
    """RULINGS F11 Amb-6: "each slot is healed separately with its name's heal time (so Wounded
    x3 takes 3 x 24 h)"."""
    wyrm = Character(name="Wyrm", tier=Tier.MASTER, health=7)  # third Wounded
    assert heal(wyrm, 3 * DAY - 1).character.health == 5
    assert heal(wyrm, 3 * DAY).character.health == 4  # second Battered


def test_f14_lieutenant_wounded_heals_to_healthy() -> None:
    """[F:L344] "Healthy, Wounded, Incapacitated, and Dead"."""
    lt = Character(name="Lt", tier=Tier.LIEUTENANT, health=1)
    assert heal(lt, DAY).level == "Healthy"


def test_f14_dying_heals_only_once_stabilized_and_dead_never() -> None:
    """[F:L180] "Success stabilizes the character at Dying, allowing him to heal as normal."
    RULINGS F15: "Heals to Incapacitated after 30 days (15 days with an SS+ check vs 8)"."""
    dying = pc(DYING)
    out = heal(dying, 60 * DAY)
    assert out.level == "Dying" and out.seconds_to_next is None and out.notes
    stable = pc(DYING, statuses=(Status(kind=StatusKind.STABILIZED),), dying_turns=3,
                attended_turns=2)
    assert heal(stable, 30 * DAY - 1).level == "Dying"
    woke = heal(stable, 15 * DAY, check=HealingCheck(total=9))
    assert woke.level == "Incapacitated"
    assert not woke.character.has_status(StatusKind.STABILIZED)
    assert (woke.character.dying_turns, woke.character.attended_turns) == (0, 0)
    dead = heal(pc(DEAD), 1000 * DAY)
    assert dead.level == "Dead" and dead.heal_seconds is None


def test_r4_item10_pips_healing_dying_clears_all_pips() -> None:
    """[F:L182] "Healing the most advanced level clears out all \"pips\" in all health levels."
    RULINGS F11: D = 11 -> Dying; healing Dying (1 month) -> D = 0, Healthy."""
    assert (index_from_pips(3), index_from_pips(4), index_from_pips(11),
            index_from_pips(16)) == (2, 3, 5, 6)
    stable = pc(DYING, pips=11, statuses=(Status(kind=StatusKind.STABILIZED),))
    out = heal(stable, 30 * DAY, config=PIPS)
    assert (out.level, out.character.pips, out.character.health) == ("Healthy", 0, 0)
    wounded = heal(pc(WOUNDED, pips=5), DAY, config=PIPS)
    assert (wounded.level, wounded.character.pips) == ("Healthy", 0)


def test_f11_amb2_pips_one_level_alternative() -> None:
    """R2 `pips_heal_mode: one_level`: only that level's pips clear, one level per heal time."""
    cfg = RulesConfig(pips_enabled=True, pips_heal_mode=PipsHealMode.ONE_LEVEL)
    out = heal(pc(WOUNDED, pips=5), DAY, config=cfg)
    assert (out.level, out.character.pips) == ("Battered", 3)
    out = heal(pc(WOUNDED, pips=5), DAY + 10 * MIN + 10, config=cfg)
    assert (out.level, out.character.pips) == ("Healthy", 0)


def test_f14_bad_inputs_are_clear_errors() -> None:
    with pytest.raises(RulesError, match="negative"):
        heal(pc(BATTERED), -5)
    with pytest.raises(RulesError, match="Lucky"):
        grade_healing_check(HealingCheck(total=3, sp={"Lucky": 1}), 3)
    # alternate Trait names are accepted: Intelligent = Sagacious
    assert grade_healing_check(HealingCheck(total=3, sp={"Intelligent": 1}), 3).level == (
        SuccessLevel.GREAT)


def test_f14_amb9_healing_spells_layer_by_default() -> None:
    """[F:L203] "Some magic spells will heal characters one or more levels instantly. It's up
    to the developer to determine whether healing spells can be layered, allowing a character to
    heal from Dying to Healthy almost immediately"."""
    out = heal_levels(pc(DYING), 2, now_seconds=0)
    assert out.character.health == WOUNDED and out.levels_healed == 2
    again = heal_levels(out.character, 5, now_seconds=10, last_healed_at=0)
    assert again.character.health == 0 and again.levels_healed == 3
    with pytest.raises(RulesError, match="Dead"):
        heal_levels(pc(DEAD), 1)


def test_f14_amb9_cooldown_alternative() -> None:
    """R2 `healing_spell_layering: cooldown(d)`: "an inherent \"cool-down\" time during which a
    character's body must acclimate to its new circumstances and can't receive more healing"."""
    cfg = RulesConfig(healing_spell_layering=False, healing_spell_cooldown_seconds=600)
    first = heal_levels(pc(INCAPACITATED), 1, config=cfg, now_seconds=100)
    assert first.healed_at == 100
    with pytest.raises(RulesError, match="acclimating"):
        heal_levels(first.character, 1, config=cfg, now_seconds=200, last_healed_at=100)
    later = heal_levels(first.character, 1, config=cfg, now_seconds=700, last_healed_at=100)
    assert later.character.health == BATTERED


def test_f14_magic_resets_the_level_clock_and_pips() -> None:
    """RULINGS F14 Amb-9: "the new level's timer starts fresh"; F11 Amb-2 under pips."""
    patient = pc(WOUNDED, heal_elapsed=5 * HOUR, heal_checked=True, heal_halved=True)
    out = heal_levels(patient, 1).character
    assert (out.health, out.heal_elapsed, out.heal_checked, out.heal_halved) == (
        BATTERED, 0, False, False)
    assert heal_levels(pc(WOUNDED, pips=6), 1, config=PIPS).character.pips == 0


@given(st.integers(0, 6), st.integers(0, 60 * DAY), st.integers(0, 60 * DAY))
def test_f14_healing_is_monotone_and_additive_in_time(start: int, a: int, b: int) -> None:
    """[F:L178] one level per heal time: healing never worsens, and time can be split."""
    stable = (Status(kind=StatusKind.STABILIZED),) if start == DYING else ()
    patient = pc(start, statuses=stable)
    once = heal(patient, a + b).character
    twice = heal(heal(patient, a).character, b).character
    assert once.health <= start
    assert once.health == twice.health


@given(st.sampled_from(["Battered", "Wounded", "Incapacitated", "Dying"]))
def test_f14_halving_is_exactly_half(name: str) -> None:
    """[F:L201] "cut the time to heal one level in half"."""
    assert heal_time(name, True) * 2 == heal_time(name, False)  # type: ignore[operator]


# ---- heal clocks advanced by resolving a turn (RULINGS Amendments 2026-12-01) ------------------
def test_f14_amb1_a_staggered_hit_heals_at_the_close_of_the_next_quiet_turn() -> None:
    """F14 Amb-1, F7 step 7 (amended): "resolving a turn advances heal timers by one turn (10
    seconds) ... a Staggered hit taken in turn N-1 heals at CLOSE(N) when turn N brings no new
    damage"."""
    kael = char("Kael", traits={"Nimble": 3}, skills={"Swordfighting": 3}, weapons=["Broadsword"])
    chief = char("Chief", traits={"Brawny": 3}, skills={"Swordfighting": 1},
                 weapons=["Broadsword"])
    # turn 1: Swordfighting 1 + 1 AP = 2 vs Kael's 3 - 1 = 2: bare -> 3 // 2 = 1 level, provisional
    first = run(state(kael, chief), order("Chief", {"kind": "attack", "ap": 1, "target": "Kael"}))
    assert health(first, "Kael") == "Staggered"
    assert next(c for c in first.state.characters if c.name == "Kael").heal_elapsed == 0
    # turn 2: the hit settles (Staggered) and no new damage comes: healed at this close
    second = run(first.state, order("Kael", {"kind": "defend", "ap": 2}))
    assert second.errors == ()
    assert health(second, "Kael") == "Healthy"
    assert any(e.kind == "healed" and e.character == "Kael" for e in second.events)


def test_f14_amb1_new_damage_restarts_the_clock_and_the_check_episode() -> None:
    """A level's timer starts in the turn its damage was dealt (amended F14 Amb-1): a hit this
    turn leaves no time banked and no Healing check used."""
    kael = char("Kael", traits={"Nimble": 3}, skills={"Swordfighting": 3}, weapons=["Broadsword"],
                health="Battered", heal_elapsed=590, heal_checked=True)
    chief = char("Chief", traits={"Brawny": 3}, skills={"Swordfighting": 3},
                 weapons=["Longsword"])
    result = run(state(kael, chief), order("Chief", {"kind": "attack", "ap": 1,
                                                     "target": "Kael"}))
    after = next(c for c in result.state.characters if c.name == "Kael")
    assert health(result, "Kael") != "Staggered"
    assert (after.heal_elapsed, after.heal_checked) == (0, False)
    quiet = run(state(kael, chief))
    assert health(quiet, "Kael") == "Staggered"  # 590 + 10 = 600 s: Battered healed
