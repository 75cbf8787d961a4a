"""Counts in what players and GMs read take the noun their number asks ("1 Range", "2 Ranges"),
never a hand-typed "(s)": the GM's turn summary, the rules' own messages (worded in the rules
core, which keeps no outer layer's helpers) and the Xp sheet's."""

from __future__ import annotations

import pytest

from fappo_bot.posting.render_results import render_gm_summary
from fappo_bot.rules import ActionResult, ErrorCode, OrderError, SuccessLevel, TurnResult
from fappo_bot.sheets.xp import XpSheetProblems, xp_sheet_from_dict
from tests.posting.helpers import SKIRMISH, parse, state_of

pytestmark = pytest.mark.unit


def test_the_gm_summary_counts_one_as_one() -> None:
    result = TurnResult(
        turn=2, state=state_of(),
        actions=(ActionResult(actor="Kael", index=0, kind="attack", target="Goblin 1", total=5,
                              difficulty=2, margin=3, level=SuccessLevel.SOLID, damage=1),),
        errors=(OrderError(actor="Mira", code=ErrorCode.AP_OVER_BUDGET, message="too much"),))
    assert render_gm_summary(result).splitlines()[0] == (
        "Turn 2: 1 action, 1 level of damage, 0 eliminated, 1 order refused.")


def test_a_target_one_range_away_is_one_range_away() -> None:
    near = [c if c["name"] != "Goblin Archer" else {**c, "position": 1} for c in SKIRMISH]
    for where, said in ((near, "Goblin Archer is 1 Range away"),
                        (SKIRMISH, "Goblin Archer is 3 Ranges away")):
        post = parse("2 AP attack Goblin Archer with Broadsword", state=state_of(where))
        [problem] = post.problems
        assert problem.code is ErrorCode.OUT_OF_RANGE and said in problem.message


def test_an_xp_sheet_counts_its_impediments() -> None:
    with pytest.raises(XpSheetProblems) as refused:
        xp_sheet_from_dict({"name": "Nefer", "advantages": ["Rich", "Lucky", "Tall"],
                            "impediments": ["Lame"]})
    assert "3 with 1 Impediment is too many" in str(refused.value)
