"""The replay runner: `?expect` checks what the current seat saw of the last step, with a diff."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from fappo_bot.console.runner import normalise, replay
from fappo_bot.console.seats import Kind, SeatBook, Shown, only
from fappo_bot.console.transcript import Step, StepKind, parse_transcript
from fappo_bot.console.view import TableView

pytestmark = pytest.mark.unit


class EchoTable:
    """A stand-in table: a post is echoed to everyone, a DM only to its sender, /resolve asks."""

    def __init__(self) -> None:
        self.book = SeatBook()
        self.book.add("alice", ["Kael"])
        self.seat = "gm"
        self._question: str | None = None

    def sit(self, name: str) -> str:
        self.seat = self.book.resolve(name) or self.book.add(name)
        return self.seat

    def seat_notice(self) -> list[Shown]:
        return []

    @property
    def question(self) -> str | None:
        return self._question

    async def perform(self, step: Step) -> list[Shown]:
        if step.kind is StepKind.POST:
            return [Shown(Kind.REPLY, "reply", f"{self.seat} said:\n{step.text}")]
        if step.kind is StepKind.DM:
            return [Shown(Kind.REPLY, "DM", f"secret {step.text}", only(self.seat))]
        if step.kind is StepKind.COMMAND and step.name == "resolve":
            self._question = "Difficulty of Mira's Stealth?"
            return [Shown(Kind.QUESTION, "review", self._question, only("gm"))]
        if step.kind is StepKind.ANSWER:
            self._question = None
            return [Shown(Kind.RESULTS, "Turn 1", f"difficulty {step.text}")]
        return []


async def run(text: str):
    out = io.StringIO()
    table = EchoTable()
    view = TableView(Console(file=out, width=100, color_system=None), table.book, all_seats=True)
    outcome = await replay(table, parse_transcript(text).steps, view)
    return outcome, out.getvalue()


async def test_expectations_pass_and_whitespace_is_ignored():
    outcome, screen = await run(
        "/as Kael\nhello   there\nsecond line\n\n?expect hello there second line\n"
        "/dm my plan\n?expect secret my plan\n/as gm\n?expect-not secret my plan\n"
    )
    assert outcome.ok, [f.report() for f in outcome.failures]
    assert outcome.assertions == 3
    assert "✓ ?expect hello there" in screen


async def test_a_failing_expectation_is_reported_with_the_nearest_line():
    outcome, _ = await run("/as alice\nKael attacks the goblin\n\n?expect Kael attacks the troll\n")
    assert not outcome.ok
    report = outcome.failures[0].report()
    assert "line 4 [alice]" in report
    assert "expected: Kael attacks the troll" in report
    assert "nearest:  Kael attacks the goblin" in report


async def test_a_secret_seen_by_the_wrong_seat_fails_expect_not():
    outcome, _ = await run("/as alice\n/dm plan\n?expect-not secret plan\n")
    assert len(outcome.failures) == 1
    assert "shows what it must not" in outcome.failures[0].message


async def test_review_questions_must_be_answered():
    outcome, _ = await run("/resolve\n> 4\n?expect difficulty 4\n")
    assert outcome.ok
    outcome, _ = await run("/resolve\n/status\n")
    assert "not answered" in outcome.failures[0].message
    outcome, _ = await run("/resolve\n")
    assert "unanswered" in outcome.failures[0].message


def test_normalise_collapses_whitespace():
    assert normalise(" a\n  b\tc ") == "a b c"
