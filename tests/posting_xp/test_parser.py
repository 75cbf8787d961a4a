"""The Xp post language: every form read into its action, the pool from the sheet
(RULINGS X1, X2, X8), and every problem with its line, what was expected and a hint."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.posting_xp import (
    GmRows,
    Route,
    XpKind,
    XpPostContext,
    is_table_talk,
    parse_xp_post,
    pool_of,
    render_xp_reply,
)
from fappo_bot.rules import ErrorCode
from fappo_bot.rules_xp.pools import PoolTest
from fappo_bot.rules_xp.tables import Characteristic
from fappo_bot.sheets import read_sheet
from fappo_bot.sheets.xp import XpSheetProblems, xp_sheet_from_dict

pytestmark = pytest.mark.unit
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "xp-adventure"


def sheet(name: str):
    path = EXAMPLES / f"{name}.yaml"
    return xp_sheet_from_dict(read_sheet(path.read_text(encoding="utf-8"), path.name))


NEFER, KHAI, GUARD = sheet("nefer"), sheet("khai"), sheet("guard")
CTX = XpPostContext(sheets={"Nefer": NEFER}, names=("Nefer", "Khai", "Guard"))


def one(text: str, ctx: XpPostContext = CTX):
    parsed = parse_xp_post(text, ctx)
    assert parsed.ok, parsed.problems
    (action,) = parsed.actions
    return action


def problem(text: str, ctx: XpPostContext = CTX):
    parsed = parse_xp_post(text, ctx)
    assert not parsed.ok and not parsed.actions
    return parsed.problems


def test_a_test_of_a_skill_and_its_pool():
    action = one("Nefer slips in.\n**roll stealth**: past the guard")
    assert (action.kind, action.skill, action.route, action.line) == (
        XpKind.TEST, "Stealth", Route.SKILL, 2)
    assert action.text == "past the guard" and action.heroic  # a PC is Heroic (X5 Amb-2)
    # 4 + Advanced 1 + BODY Healthy 1 (X2)
    assert pool_of(NEFER, action).pool == 6
    assert pool_of(NEFER, action, GmRows(difficulty=-2, dice=1)).pool == 5


def test_a_characteristic_a_mod_a_claim_and_heroic_dice():
    action = one("roll Lockpicking using BODY with bronze picks +2d not heroic")
    assert action.characteristic is Characteristic.BODY and action.mods == ("Bronze picks",)
    assert action.claim == 2 and not action.heroic
    assert pool_of(NEFER, action).pool == 4 + 0 + 1 + 1  # BODY instead of MIND, the Mod
    assert problem("roll Stealth heroic", XpPostContext({"Guard": GUARD}))[0].hint == \
        "leave out heroic"


def test_raw_tests_and_defaults():
    raw = one("roll BODY")
    assert (raw.route, raw.characteristic) == (Route.RAW, Characteristic.BODY)
    assert pool_of(NEFER, raw).pool == 5  # 4 + Healthy (X1)
    similar = one("roll Climbing via Acrobatics")
    assert (similar.route, similar.skill, similar.via) == (Route.DEFAULT, "Climbing",
                                                          "Acrobatics")
    # Acrobatics Master BODY: 4 + 2 + 1 = 7, similar -1, related -2 (X8)
    assert pool_of(NEFER, similar, GmRows(default=PoolTest.SIMILAR)).pool == 6
    assert pool_of(NEFER, similar, GmRows(default=PoolTest.RELATED)).pool == 5
    char = one("roll Survival using BODY")
    assert char.route is Route.CHARACTERISTIC and pool_of(NEFER, char).pool == 2  # 1 + 1
    assert pool_of(NEFER, char, GmRows(permitted=False)).pool is None


def test_a_contest_an_assist_a_group_roll():
    contest = one("roll Stealth against guard")
    assert (contest.kind, contest.target) == (XpKind.CONTEST, "Guard")
    assist = one("assist Khai with Stealth")
    assert (assist.kind, assist.target, assist.skill) == (XpKind.ASSIST, "Khai", "Stealth")
    group = one("group roll Stealth")
    assert (group.kind, group.skill) == (XpKind.GROUP, "Stealth")


def test_plot_points_passions_and_flaws():
    spend = one("spend 1 plot point on the gate")
    assert (spend.kind, spend.points, spend.text) == (XpKind.PLOT, 1, "the gate")
    passion = one("passion: protect my")
    assert (passion.kind, passion.text) == (XpKind.PASSION, "Protect my brother Khai")
    flaw = one("invoke flaw Cannot resist a wager")
    assert (flaw.kind, flaw.text) == (XpKind.FLAW, "Cannot resist a wager")


def test_every_problem_has_its_line_what_was_expected_and_a_hint():
    problems = problem("Story.\nroll Stelth\nroll Stealth against Gaurd\nattack the guard\n"
                       "spend 3 plot points\npassion: Gold opens every door\n"
                       "passion: Protect my brother Khai\nroll Stealth against Nefer")
    by_line = {p.line: p for p in problems}
    assert sorted(by_line) == [2, 3, 4, 5, 7, 8]
    assert by_line[2].code is ErrorCode.UNKNOWN_NAME and "Stealth" in by_line[2].message
    assert by_line[2].hint and "roll SKILL via" in by_line[2].hint
    assert by_line[3].candidates == ("Guard",)
    assert "X18" in by_line[4].message and by_line[4].expected == "a test of a skill"
    assert by_line[5].code is ErrorCode.OUT_OF_RANGE  # 1 plot point on the sheet
    assert "1 Luck" in by_line[7].message  # the second Passion of the post: Luck 1
    assert "their own opponent" in by_line[8].message
    reply = render_xp_reply(parse_xp_post("roll Stelth", CTX), {"Nefer": NEFER})
    assert reply.startswith("I couldn't use 1 line") and 'line 1 "roll Stelth"' in reply


def test_a_gm_names_the_character_of_the_lines():
    ctx = XpPostContext(sheets={"Guard": GUARD, "Nefer": NEFER}, names=("Nefer", "Guard"),
                        gm=True)
    (issue,) = problem("roll Spear", ctx)
    assert issue.expected == "a Character: NAME line first"
    parsed = parse_xp_post("Character: Guard\nroll Spear against Nefer", ctx)
    assert parsed.ok and parsed.actions[0].actor == "Guard"
    assert not parsed.actions[0].heroic  # an NPC is not Heroic
    assert pool_of(GUARD, parsed.actions[0]).pool == 4 + 1 + 2  # Veteran, Robust (X2 Amb-2)


def test_story_is_table_talk_and_replies_name_the_roll():
    assert is_table_talk("Nefer waits.\nThe group hugs.\nSpend the night here?")
    assert not is_table_talk("roll Stealth")
    parsed = parse_xp_post("roll Climbing via Acrobatics", CTX)
    reply = render_xp_reply(parsed, {"Nefer": NEFER})
    assert "6d if the GM rules Acrobatics similar, 5d if related (X8)" in reply


def test_a_bad_sheet_lists_every_fault():
    with pytest.raises(XpSheetProblems) as caught:
        xp_sheet_from_dict({"name": "X", "who": "god", "characteristics": {"SIZE": 2},
                            "skills": {"Stealth": "grandmaster BODY"}, "luck": -1,
                            "advantages": ["a", "b", "c"], "colour": "red"})
    text = " | ".join(caught.value.problems)
    for fragment in ("unknown field colour", "who: pc or npc", "SIZE", "grandmaster",
                     "luck:", "advantages:"):
        assert fragment in text, fragment


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_reads_without_an_exception(text):
    parsed = parse_xp_post(text, CTX)
    assert parsed.ok or parsed.problems
    render_xp_reply(parsed, {"Nefer": NEFER})


def test_what_the_rules_leave_out_is_refused_with_a_hint():
    for line, words in (("cast Fireball at the guard", "Magic"), ("attack: the guard", "Combat")):
        (issue,) = problem(line)
        assert words in issue.message and "X18" in issue.message and issue.hint, line
    assert problem("roll Stealth using SIZE")[0].hint == "SIZE has no scale in the rules (X18)"


def test_a_cut_is_asked_of_the_gm_with_what_it_does():
    """X17: a Cut! line is a request the GM grants and prices in Luck in the review."""
    parsed = parse_xp_post("Nefer grins.\nCut!: I swing down on the chandelier rope", CTX)
    (action,) = parsed.actions
    assert action.kind is XpKind.CUT and action.text == "I swing down on the chandelier rope"
    reply = render_xp_reply(parsed, {"Nefer": NEFER})
    assert 'asks for a Cut! "I swing down on the chandelier rope" (Luck 1)' in reply
    assert "names its Luck price (X17)" in reply
    (empty,) = problem("Cut!")
    assert "a Cut! of what?" in empty.message and "Cut!: I cut the rope" in empty.hint
    (twice,) = problem("Cut! one thing\ncut! another")
    assert "one Cut! a post" in twice.message


def test_rerolls_over_time_and_augments_are_read_from_a_roll_line():
    """X9: `over time`; X12: `augmented by A, B` (the roller's own skills or characteristics,
    each once)."""
    parsed = parse_xp_post("roll Lockpicking over time with Bronze picks: the tomb door\n"
                           "roll Stealth augmented by Acrobatics and MIND: past the guard", CTX)
    assert parsed.ok, parsed.problems
    first, second = parsed.actions
    assert first.over_time and first.skill == "Lockpicking" and first.mods == ("Bronze picks",)
    assert not second.over_time and second.augments == ("Acrobatics", "MIND")
    reply = render_xp_reply(parsed, {"Nefer": NEFER})
    assert "over time: each unit rerolls the dice that did not succeed, 1s are lost (X9)" in reply
    assert "augmented by Acrobatics, MIND: rolled first, their successes add dice (X12)" in reply
    for line, words in (("roll Stealth augmented by Acrobatics, acrobatics", "twice"),
                        ("roll Stealth augmented by Sailing", "Sailing"),
                        ("roll Stealth augmented by", "augmented by what?"),
                        ("roll Stealth against Khai augmented by Acrobatics", "adds dice to a test")):
        (issue,) = problem(line)
        assert words in issue.message, (line, issue.message)
