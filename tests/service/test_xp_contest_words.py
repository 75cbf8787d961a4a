"""How a turn's Xp contest reads (X7): the verdict names the fact that decided it (a fumble
that counts none, the tie-breaks, a tie awarded), and each tie-break says what was rolled
again, in words rather than arrows."""

from __future__ import annotations

import pytest

from fappo_bot.rules_xp.config import Who
from fappo_bot.rules_xp.contest import contested
from fappo_bot.rules_xp.dice import DiceStream
from fappo_bot.rules_xp.rollers import Roller
from fappo_bot.service.xp_contest_words import contest_side, contest_verdict

pytestmark = pytest.mark.unit


def roller(name: str, faces: list[int], pool: int, who: Who = Who.PC) -> Roller:
    return Roller(name, DiceStream(faces), pool, who=who, heroic=False)


def test_a_fumble_that_decides_a_contest_is_said() -> None:
    """One success each, but the guard's two ones make his roll a fumble: it counts 0 (Amb-3),
    and the verdict says so instead of a bare "wins by 1"."""
    result = contested(roller("Nefer", [5, 2, 3], 3), roller("Guard", [6, 1, 1], 3, Who.NPC))
    assert result.winner == "Nefer" and result.net == 1
    verdict = contest_verdict(result)
    assert verdict == ("Nefer wins by 1 (1 to 0 successes; Guard's roll is a fumble (more ones "
                       "than successes), so its 1 success counts for nothing)")
    guard = next(s for s in result.sides if s.name == "Guard")
    assert contest_side(guard).endswith("-> 1 success, 2 ones: a fumble, it counts 0")


def test_a_tie_break_reads_as_words() -> None:
    """Tied at 1: each side rolls the dice that failed again, until one is ahead."""
    result = contested(roller("Nefer", [5, 2, 3, 6, 4], 3), roller("Khai", [6, 2, 3, 2, 1], 3))
    assert result.decided_by == "tiebreak"
    assert contest_verdict(result) == "Nefer wins by 1 after 1 tie-break (2 to 1 successes in all)"
    nefer = next(s for s in result.sides if s.name == "Nefer")
    assert contest_side(nefer).endswith(
        "; tie-break 1: the dice that failed again [6 4]: 2 successes in all")
    assert "->" not in contest_side(nefer).split(";", 1)[1]
