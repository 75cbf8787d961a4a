"""RULINGS F8 (AP allocation), F10, F13, F16 and the error codes of spec/cases.md, through
`validate_order`: every problem of an order is reported, with the words at fault and a hint."""

from __future__ import annotations

import pytest
from engine_helpers import char, codes, order, run, state

from fappo_bot.rules.orders import PendingHit
from fappo_bot.rules.results import ErrorCode, Where
from fappo_bot.rules.validate import validate_order

pytestmark = pytest.mark.unit

KAEL = char("Kael", traits={"Nimble": 3, "Tireless": 1}, skills={"Swordfighting": 3,
                                                                 "Mechanics": 2},
            weapons=["Broadsword", "Long Bow"], position=0)
GOB = char("Goblin 1", skills={"Knife Fighting": 2}, weapons=["Dagger"], position=0)
GOB2 = char("Goblin 2", skills={"Knife Fighting": 2}, weapons=["Dagger"], position=4)
ST = state(KAEL, GOB, GOB2)


def errs(o, st=ST):
    return {e.code for e in validate_order(st, o)}


def test_valid_order_has_no_errors():
    """[F:L68] "2 APs into attacking a goblin and 1 AP into defending"."""
    assert validate_order(ST, order("Kael", {"kind": "attack", "ap": 2, "target": "Goblin 1"},
                                    {"kind": "defend", "ap": 1})) == []


def test_f8_ap_over_budget_names_the_numbers():
    """F8: "sum(ap_i) + def_ap + run_ap <= B"."""
    problems = validate_order(ST, order("Kael", {"kind": "attack", "ap": 3, "target": "Goblin 1"},
                                        {"kind": "defend", "ap": 1}))
    assert [p.code for p in problems] == [ErrorCode.AP_OVER_BUDGET]
    assert "4 AP" in problems[0].message and "3" in problems[0].message
    assert problems[0].hint


def test_f8_every_action_but_drop_and_free_move_needs_ap():
    """F8 Amb-1: "Every declared action needs >= 1 AP"; stand costs 2 [F:L255]."""
    assert errs(order("Kael", {"kind": "attack", "target": "Goblin 1"})) == {
        ErrorCode.AP_REQUIRED}
    assert errs(order("Kael", {"kind": "stand", "ap": 1})) == {ErrorCode.AP_REQUIRED}
    assert errs(order("Kael", {"kind": "drop", "item": "Long Bow"},
                      {"kind": "move", "ranges": 1})) == set()


def test_f16_move_ap_must_match_ranges():
    """Amendment F16: "moving N Ranges in a turn costs N - 1 AP"."""
    assert errs(order("Kael", {"kind": "move", "ranges": 3, "ap": 1})) == {ErrorCode.AP_MISMATCH}
    assert errs(order("Kael", {"kind": "move", "ranges": 3, "ap": 2})) == set()


def test_f16_one_free_range_a_turn_not_one_per_move_line():
    """[F:L225] "A character can move one Range per turn without penalty": two move lines of 2
    Ranges cover 4 Ranges, which cost 3 AP, not 1 + 1."""
    two_moves = order("Kael", {"kind": "move", "ranges": 2}, {"kind": "move", "ranges": 2},
                      {"kind": "defend", "ap": 1})
    problems = validate_order(ST, two_moves)
    assert [p.code for p in problems] == [ErrorCode.AP_OVER_BUDGET]
    assert "one Range a turn is free" in (problems[0].hint or "")
    assert errs(order("Kael", {"kind": "move", "ranges": 2}, {"kind": "move", "ranges": 2})) == set()
    assert errs(order("Kael", {"kind": "move", "ranges": 4}, {"kind": "defend", "ap": 1})) == {
        ErrorCode.AP_OVER_BUDGET}


def test_f4_sp_shared_across_actions_guard_reduce_endure():
    """F4/F5: SP on actions and Guard lines come out of the same pools."""
    o = order("Kael", {"kind": "attack", "ap": 1, "target": "Goblin 1", "sp": {"Nimble": 2}},
              guard=[{"against": "any", "sp": {"Nimble": 2}}])
    problems = validate_order(ST, o)
    assert [p.code for p in problems] == [ErrorCode.SP_INSUFFICIENT]
    assert problems[0].where is Where.GUARD


def test_names_unknown_and_ambiguous():
    """spec/cases.md: names match case-insensitively; `unknown-name` / `ambiguous-name`."""
    assert errs(order("Kael", {"kind": "attack", "ap": 1, "target": "Goblin"})) == {
        ErrorCode.AMBIGUOUS_NAME}
    assert errs(order("Kael", {"kind": "attack", "ap": 1, "target": "Orc"})) == {
        ErrorCode.UNKNOWN_NAME}
    assert errs(order("Kael", {"kind": "attack", "ap": 1, "target": "goblin 1",
                               "weapon": "Katana"})) == {ErrorCode.UNKNOWN_NAME}
    assert errs(order("Kael", {"kind": "skill", "ap": 1, "skill": "Juggling",
                               "difficulty": 3})) == {ErrorCode.UNKNOWN_NAME}
    assert errs(order("Nobody")) == {ErrorCode.UNKNOWN_NAME}


def test_f1_uncanny_skill_forbidden():
    """[F:L158] "Characters without the Traits Uncanny or Fantastical may not buy or use skills
    that have those Suggested Traits."."""
    assert errs(order("Kael", {"kind": "skill", "ap": 1, "skill": "Spellcasting",
                               "difficulty": 4})) == {ErrorCode.SKILL_FORBIDDEN}


def test_f16_melee_beyond_reach_is_out_of_range_unless_moving_toward():
    """F16: "melee weapons: only at d == 0"; a move toward the target closes the distance."""
    assert errs(order("Kael", {"kind": "attack", "ap": 1, "target": "Goblin 2"})) == {
        ErrorCode.OUT_OF_RANGE}
    assert errs(order("Kael", {"kind": "move", "ranges": 3, "toward": "Goblin 2"},
                      {"kind": "attack", "ap": 1, "target": "Goblin 2"})) == {
        ErrorCode.OUT_OF_RANGE}
    assert errs(order("Kael", {"kind": "move", "ranges": 4, "ap": 3, "toward": "Goblin 2"})
                ) == set()


def test_f19_plaser_without_ammo():
    """F19 Amb-4: "A shot needs ammo >= setting; otherwise it is invalid", refused with
    `no-ammo` (RULINGS Amendments 2026-12-01)."""
    gunner = char("Gun", traits={"Clever": 3}, skills={"Firearms": 3},
                  weapons=["Plaser 4"], ammo=3)
    st = state(gunner, GOB)
    assert errs(order("Gun", {"kind": "attack", "ap": 1, "target": "Goblin 1"}), st) == {
        ErrorCode.NO_AMMO}


def test_f13_reduce_over_limit_and_unknown_hit():
    """[F:L199] "up to two levels per attack"."""
    hit = PendingHit(id="h1", target="Kael", levels=3)
    st = state(KAEL, GOB, pending=(hit,))
    assert errs(order("Kael", reduce=[{"hit": "h1", "sp": {"Nimble": 3}}]), st) == {
        ErrorCode.REDUCE_OVER_LIMIT}
    assert errs(order("Kael", reduce=[{"hit": "h9", "sp": {"Nimble": 1}}]), st) == {
        ErrorCode.UNKNOWN_NAME}


def test_f7_budget_after_own_reductions():
    """F7 step 2/3: a fully reduced hit gives no shock, so the full 3 AP are available."""
    hit = PendingHit(id="h1", target="Kael", levels=2)
    st = state(KAEL, GOB, pending=(hit,))
    full = order("Kael", {"kind": "defend", "ap": 3}, reduce=[{"hit": "h1", "sp": {"Nimble": 2}}])
    partial = order("Kael", {"kind": "defend", "ap": 3},
                    reduce=[{"hit": "h1", "sp": {"Nimble": 1}}])
    assert errs(full, st) == set()
    assert errs(partial, st) == {ErrorCode.AP_OVER_BUDGET}


def test_f10_cannot_act_reports_each_allocation_and_no_budget_error():
    """spec: "An actor that cannot act reports `cannot-act` for its allocations and no budget
    error besides"; its Guard and Reduce lines stand."""
    dying = char("Dy", health="Dying", traits={"Nimble": 3})
    st = state(dying, GOB)
    problems = validate_order(st, order("Dy", {"kind": "attack", "ap": 5, "target": "Goblin 1"},
                                        {"kind": "defend", "ap": 1},
                                        guard=[{"against": "any", "sp": {"Nimble": 1}}]))
    assert [(p.code, p.index) for p in problems] == [(ErrorCode.CANNOT_ACT, 0),
                                                     (ErrorCode.CANNOT_ACT, 1)]


def test_f10_cannot_act_replaces_only_the_ap_budget_error():
    """RULINGS Amendments 2026-12-01: "`cannot-act` replaces `ap-over-budget` only;
    `sp-insufficient` and the other problems are still reported"."""
    dying = char("Dy", health="Dying", traits={"Nimble": 3})
    st = state(dying, GOB)
    attack = {"kind": "attack", "ap": 5, "target": "Goblin 1", "sp": {"Nimble": 3}}
    problems = validate_order(st, order("Dy", attack, guard=[{"against": "any", "sp": {"Nimble": 2}}]))
    assert [p.code for p in problems] == [ErrorCode.CANNOT_ACT, ErrorCode.SP_INSUFFICIENT]
    within = validate_order(st, order("Dy", {**attack, "sp": {"Nimble": 1}},
                                      guard=[{"against": "any", "sp": {"Nimble": 2}}]))
    assert [(p.code, p.index) for p in within] == [(ErrorCode.CANNOT_ACT, 0)]
    incap = char("In", health="Incapacitated", traits={"Nimble": 1, "Tireless": 1})
    problems = validate_order(state(incap, GOB), order("In", {**attack, "target": "Nobody"}))
    assert {p.code for p in problems} == {ErrorCode.CANNOT_ACT, ErrorCode.SP_INSUFFICIENT,
                                          ErrorCode.UNKNOWN_NAME}


def test_f10_incapacitated_acts_with_endure():
    """F10 Amb-7 amendment: the Tireless SP "is declared with an `Endure:` line"."""
    incap = char("In", health="Incapacitated", traits={"Tireless": 1}, skills={"Fisticuffs": 2})
    st = state(incap, GOB)
    attack = {"kind": "attack", "ap": 1, "target": "Goblin 1"}
    assert errs(order("In", attack), st) == {ErrorCode.CANNOT_ACT}
    assert errs(order("In", attack, endure=True), st) == set()
    assert errs(order("In", {"kind": "move", "ranges": 1}), st) == set()
    broke = char("Br", health="Incapacitated", traits={"Nimble": 1})
    assert errs(order("Br", attack, endure=True), state(broke, GOB)) == {
        ErrorCode.SP_INSUFFICIENT}


def test_f8_concentration_conflict():
    """[F:L72] "actions that require concentration or attention to detail are usually exclusive
    in a turn unless the player can make a good case for it"."""
    lock = {"kind": "skill", "ap": 1, "skill": "Mechanics", "difficulty": 4}
    attack = {"kind": "attack", "ap": 1, "target": "Goblin 1"}
    assert errs(order("Kael", lock, attack)) == {ErrorCode.CONCENTRATION_CONFLICT}
    assert errs(order("Kael", lock, {"kind": "defend", "ap": 1},
                      {"kind": "move", "ranges": 1})) == set()
    assert errs(order("Kael", {**lock, "concentration_ok": True}, attack)) == set()
    assert errs(order("Kael", lock, {**attack, "if": "a goblin comes"})) == set()


def test_every_error_is_explained():
    """STYLE: errors a player can act on: message, words, expected, hint."""
    for problem in validate_order(ST, order("Kael", {"kind": "attack", "ap": 9, "target": "X"},
                                            {"kind": "skill", "ap": 1, "skill": "Spellcasting",
                                             "difficulty": 3})):
        assert problem.message and problem.expected and problem.hint and problem.words


def test_f13_ambiguous_hit_id():
    """spec/cases.md: names (hits too) that could mean several things are `ambiguous-name`."""
    hits = (PendingHit(id="h10", target="Kael", levels=1), PendingHit(id="h11", target="Kael",
                                                                       levels=1))
    st = state(KAEL, GOB, pending=hits)
    assert errs(order("Kael", reduce=[{"hit": "h1", "sp": {"Nimble": 1}}]), st) == {
        ErrorCode.AMBIGUOUS_NAME}


def test_f9_watch_adds_to_the_awareness_defense():
    """F9: "be watchful": "its APs are added to the character's awareness totals this turn,
    i.e. to the defense vs Stealth/Pickpocket"; F5: the defender's relevant skill defaults to
    the actor's. Rogue: Stealth 3 + 2 AP = 5 vs the guard's Stealth 2 + 1 watch AP = 3."""
    from engine_helpers import act, run

    rogue = char("Rogue", traits={"Nimble": 3}, skills={"Stealth": 3})
    guard = char("Guard", traits={"Vigilant": 3}, skills={"Stealth": 2, "Searching": 4})
    result = run(state(rogue, guard),
                 order("Rogue", {"kind": "skill", "ap": 2, "skill": "Stealth", "target": "Guard"}),
                 order("Guard", {"kind": "watch", "ap": 1}))
    a = act(result, "Rogue")
    assert (a.total, a.difficulty, a.margin) == (5, 3, 2)


def test_f4_gm_difficulty_wins_over_a_target():
    """F4 Amb-10: "GM input per action: difficulty"; a Healing check on a patient is unopposed
    (Battered: difficulty 3, F14)."""
    from engine_helpers import act, run

    sela = char("Sela", traits={"Sagacious": 3}, skills={"Healing": 2})
    kael = char("Kael", health="Battered", skills={"Healing": 5})
    result = run(state(sela, kael), order("Sela", {"kind": "skill", "ap": 1, "skill": "Healing",
                                                   "target": "Kael", "difficulty": 3}))
    assert (act(result, "Sela").difficulty, act(result, "Sela").margin) == (3, 0)


def test_f8_amb3_a_concentration_skill_written_as_a_prefix_still_needs_concentration():
    """Names are exact, else a unique prefix: `pick` is Pickpocket, a concentration skill, so an
    attack beside it is a concentration conflict (a prefix slipped past the check)."""
    mira = char("Mira", traits={"Clever": 3}, skills={"Pickpocket": 3, "Knife Fighting": 2},
                weapons=["Dagger"])
    guard = char("Guard", skills={"Swordfighting": 2}, weapons=["Broadsword"])
    result = run(state(mira, guard), order(
        "Mira", {"kind": "skill", "ap": 1, "skill": "pick", "difficulty": 2},
        {"kind": "attack", "ap": 1, "target": "Guard"}))
    assert codes(result, "Mira") == {"concentration-conflict"}
