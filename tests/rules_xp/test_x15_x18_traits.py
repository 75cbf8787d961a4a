"""RULINGS X3/X15 (the sources of SL; Luck, Passions, Flaws), X16 (ranks), X18 (missing content)."""

from __future__ import annotations

import pytest

from fappo_bot.rules_xp.config import XpConfig
from fappo_bot.rules_xp.errors import MISSING_CONTENT, NotSpecified, XpError, not_specified
from fappo_bot.rules_xp.traits import (
    SlSources,
    check_descriptor,
    deplete,
    invoke_flaw,
    invoke_passion,
    ranks,
    starting_advantages,
)

pytestmark = pytest.mark.unit


def test_x3_only_one_advantage_applies():
    """[X:L111] "Advantages generally provide a permanent increase in the Superiority Level that
    you use, but only one may apply at any time"; Impediments stack (Amb-3)."""
    assert SlSources(advantages=2, impediments=1, passions=1).sl == 1
    assert SlSources(impediments=2).sl == -2


def test_x15_passion_costs_luck_flaw_gives_luck():
    """[X:L107] "a Luck point must be discarded, the character then gains a degree of
    Superiority" / "a Luck point is gained at the expense of giving an opponent a SL"."""
    passion = invoke_passion(1)
    assert (passion.luck, passion.sl_to_self) == (0, 1)
    with pytest.raises(XpError) as none:
        invoke_passion(0)
    assert none.value.code == "luck-insufficient"
    flaw = invoke_flaw(0)
    assert (flaw.luck, flaw.sl_to_opponent) == (1, 1)


def test_x15_passions_are_two_to_six_words():
    """[X:L107] "word descriptors, from 2 to 6 words in length"."""
    assert check_descriptor("Protect my sister at all costs") == "Protect my sister at all costs"
    with pytest.raises(XpError):
        check_descriptor("Protect my little sister at all costs")
    with pytest.raises(XpError):
        check_descriptor("Greedy")


def test_x15_advantages_at_creation():
    """[X:L111] "one Advantage, plus one extra for each Impediment they take, upto a maximum of 3"."""
    assert [starting_advantages(i) for i in range(5)] == [1, 2, 3, 3, 3]


def test_x16_ranks():
    """X16 example: Robust (+2) human → Physical 6; Dim (−1) → Mental 3; Balanced (+1) → 5 and 5.
    [X:L97] "ranked from 1 to 9"; a current value may fall to -3 (CX-03)."""
    assert ranks(body=2, mind=-1, soul=1, size=0) == ranks(body=2, mind=-1, soul=1, size=0)
    r = ranks(body=2, mind=-1, soul=1, size=0)
    assert (r.physical, r.mental, r.elemental, r.spiritual) == (6, 3, 5, 5)
    assert ranks(body=3, mind=0, soul=0, size=5).physical == 9
    assert deplete(2, 9) == -3


def test_x18_missing_content_is_refused_not_invented():
    """RULINGS X18: "block the X18 features behind 'not specified' errors"."""
    for item in MISSING_CONTENT:
        error = not_specified(item)
        assert isinstance(error, NotSpecified) and "not specified" in str(error)
    with pytest.raises(NotSpecified):
        XpConfig(ones_cancel_successes=True)
