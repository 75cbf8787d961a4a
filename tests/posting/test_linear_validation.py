"""Validation was quadratic in the number of lines that spend SP (10k, 20k, 40k such
lines took 1.4, 4.0 and 14.9 s): each line's label was looked up in a list of every earlier
line's. `sp_overruns` is linear: eight times the lines cost about eight times the work.

Measured as tests/posting/test_fuzz.py measures the parser: CPU time of this process, best of
five, garbage collection off. For 32 times the lines the bound is 160 times the time: five
times what linear needs; the quadratic code took 519 times (the linear one 53 here)."""

from __future__ import annotations

import gc
import time

import pytest

from fappo_bot.posting.validate import sp_overruns
from tests.posting.helpers import parse, state_of

pytestmark = pytest.mark.unit

STATE = state_of()
SPENDING = ["1 AP attack Goblin 1 with Broadsword, 1 SP Nimble"]


def _block(lines: int):  # type: ignore[no-untyped-def]
    post = parse("\n".join((SPENDING * lines)[:lines]), state=STATE)
    (block,) = post.blocks
    return block


def _seconds(block) -> float:  # type: ignore[no-untyped-def]
    kael = STATE.character("Kael")
    assert kael is not None
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            start = time.process_time()
            problems = sp_overruns(kael, block)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    assert problems  # every pool runs out: the labels of the earlier lines are named
    return best


@pytest.mark.slow
def test_the_sp_lines_of_a_post_are_checked_in_linear_time() -> None:
    small, large = _block(1_000), _block(32_000)
    assert _seconds(large) < 160 * _seconds(small)


def test_an_overrun_still_names_every_earlier_line_once() -> None:
    kael = STATE.character("Kael")
    assert kael is not None
    post = parse("2 AP attack Goblin 1 with Broadsword, 1 SP Nimble\n"
                 "Guard: 1 SP Nimble against Troll\nGuard: 1 SP Nimble against Goblin 2\n"
                 "1 AP attack Goblin 2 with Broadsword, 1 SP Nimble", state=STATE)
    (problem,) = sp_overruns(kael, post.blocks[0])
    assert problem.line == 4
    assert problem.message == "Kael has 0 SP left in Nimble (3 spent on line 1 and Guard)"
