"""The parser never breaks (BRIEF: "Bad user input always gets a clear, specific message, never a
traceback"): arbitrary and mutated posts give a ParsedPost with their problems, never raise, and
the time grows linearly with the post."""

from __future__ import annotations

import gc
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fappo_bot.posting import ParsedPost
from fappo_bot.posting.render import render_reply
from tests.posting.helpers import parse, state_of

pytestmark = pytest.mark.unit

STATE = state_of()
GOOD = [
    "2 AP attack Goblin 1 with Broadsword, 1 SP Nimble, +1 (high ground)",
    "1 AP defend against Goblin Archer",
    "Guard: 1 SP Tireless against each goblin",
    "Reduce: 1 SP Nimble on the dagger hit (ow)",
    "Kael vaults the cart [2 AP attack Goblin 2 with Broadsword] and [move 2]",
    "If anything comes through: 1 AP attack it with Broadsword",
    "Endure: 1 SP Tireless",
    "Intent: hold the line",
    "OOC: back Monday",
    "**Kael**",
    "Character: Kael",
    "- > **3 AP** cast Fireball -> Goblins at 3 ranges +2 accuracy, to hit 1 SP floating",
    "move 3 away from Troll",
    "drop Long Bow",
]
NASTY = st.sampled_from([
    "[", "]", "(", ")", "**", "||", "`", "```", "\x00", "\u202e", "\u200f", "🗡️", "👨‍👩‍👧",
    "\r", "\t", "\x0b", "\u2028", "@everyone", "<@&1>", ":", ",", "+", "-", "->", "→", "@",
    "2 AP", "SP", "1 SP", "If", "Guard:", "Reduce:", "٣", "ⅷ", "99999999999999999999", "-0",
    "\\", "\ud7ff", "ﬀ", "İ", "ß",
])


def check(text: str, poster: str = "Kael") -> ParsedPost:
    post = parse(text, poster=poster, state=STATE)  # raising is a failure of the test
    render_reply(post, STATE)
    for problem in post.problems:
        assert problem.line >= 1
        assert problem.code.value
    return post


@given(st.text(max_size=400))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_arbitrary_text(text: str) -> None:
    check(text)


@given(st.lists(st.sampled_from(GOOD), max_size=12), st.lists(
    st.tuples(st.integers(min_value=0, max_value=10_000), NASTY), max_size=8))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_posts(lines: list[str], edits: list[tuple[int, str]]) -> None:
    text = "\n".join(lines)
    for at, insert in edits:
        at = at % (len(text) + 1)
        text = text[:at] + insert + text[at:]
    check(text)
    check(text, poster="gm")


@given(st.lists(st.sampled_from(GOOD), min_size=1, max_size=8), st.integers(0, 2000))
@settings(max_examples=100, deadline=None)
def test_truncated_posts(lines: list[str], cut: int) -> None:
    text = "\n".join(lines)
    check(text[: cut % (len(text) + 1)])


@pytest.mark.parametrize("text", [
    "[" * 5000, "]" * 5000, "(" * 5000 + "2 AP", "[2 AP (" * 2000, "*" * 10_000,
    "2 AP attack " + "Goblin " * 5000, "Guard: " + "1 SP Nimble, " * 3000,
    "a" * 100_000, "\u202e2 AP attack Goblin 1\u202c", "2 AP attack Göblin 1", "\x00" * 1000,
    "If " * 3000 + ":", "Reduce: 1 SP Nimble " + "- why " * 3000, "1 AP " * 5000,
    "[move 1]" * 3000, "|" * 10_000, "_" * 10_000, "> " * 5000, "1. " * 5000,
])
def test_pathological_posts(text: str) -> None:
    check(text)


def _seconds(text: str) -> float:
    """The CPU time this process spends parsing `text`, best of five: other processes on the
    machine (CI jobs, a benchmark) do not count, and no garbage collection lands in one run."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            start = time.process_time()
            parse(text, state=STATE)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


@pytest.mark.slow
def test_linear_time() -> None:
    """A 10,000-line post takes less than 20 times the 1,000-line post (linear, generously)."""
    block = "\n".join(GOOD[:5] + ["Kael ducks [1 AP defend] and waits.", "", "plain prose line"])
    lines = block.split("\n")
    small = "\n".join((lines * (1000 // len(lines) + 1))[:1000])
    large = "\n".join((lines * (10_000 // len(lines) + 1))[:10_000])
    assert _seconds(large) < 20 * _seconds(small)


@pytest.mark.slow
def test_one_huge_line_is_linear_too() -> None:
    """The lexer on one line (bracket scans, parentheses, markdown); no orders, so that the
    rules validator's own cost stays out of it."""
    unit = "[OOC: hi (there] **and** [sic] (then ||x|| "
    small = unit * 1000
    large = unit * 10_000
    assert _seconds(large) < 20 * _seconds(small)
