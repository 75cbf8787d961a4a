"""`render_xp` is the one rendering of an Xp roll: the GM's rolls and a turn's results
show the same dice, successes, level and outcome, and the post language keeps no renderer of its
own."""

from __future__ import annotations

import pytest

import fappo_bot.posting_xp
import fappo_bot.posting_xp.render
from fappo_bot.render_xp import faces_text, render_roll, roll_text
from fappo_bot.rules_xp.dice import DiceStream
from fappo_bot.rules_xp.roll import roll

pytestmark = pytest.mark.unit


def test_a_rolled_roll_shows_every_die_and_what_it_made() -> None:
    """X0, X3-X5: Advantage (4-6), a natural 6 gives a heroic die, 1s that are not a fumble are
    exposures, successes beyond the need are extra (special)."""
    record = roll(4, 1, heroic=True, dice=DiceStream([6, 1, 4, 2, 5]))
    assert roll_text(record) == ("4d at Advantage (4-6): [6 1 4 2] + heroic [5] -> 3 successes, "
                                 "1 one: success, 2 extra, 1 exposure")
    assert render_roll("Nefer", record) == f"Nefer: {roll_text(record)}"


def test_need_not_heroic_a_contest_side_and_a_fumble() -> None:
    record = roll(3, 0, heroic=False, dice=DiceStream([5, 1, 1]), need=2)
    assert roll_text(record, heroic=False) == (
        "3d at Normal (5-6), need 2, not heroic: [5 1 1] -> 1 success, 2 ones: "
        "FUMBLE (2 ones against 1 success)")
    # a contest's side: the contest decides, so neither the need nor an outcome is shown (X7)
    assert roll_text(record, outcome=False) == "3d at Normal (5-6): [5 1 1] -> 1 success, 2 ones"


def test_a_roll_without_dice_says_why_with_its_rule() -> None:
    record = roll(0, 0, heroic=True, dice=DiceStream([]))
    assert roll_text(record) == ("0d at Normal (5-6): no dice to roll: an automatic failure "
                                 "(X2 Amb-4) -> failure")


def test_dice_lists_read_alike_everywhere() -> None:
    assert faces_text((5, 2, 6)) == "[5 2 6]"


def test_the_post_language_has_no_roll_renderer_of_its_own() -> None:
    assert not hasattr(fappo_bot.posting_xp.render, "render_roll")
    assert "render_roll" not in fappo_bot.posting_xp.__all__
