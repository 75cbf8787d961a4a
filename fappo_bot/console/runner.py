"""Replaying a transcript at the table, and checking its `?expect` assertions.

`?expect TEXT` passes when TEXT appears in what the current seat saw of the last step that did
something (a post, a DM, a command or an answer); `?expect-not TEXT` when it does not. Matching
ignores differences in whitespace (runs of spaces and line breaks count as one space), so an
assertion may quote part of a rendered line or span two lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from fappo_bot.console.seats import Kind, SeatBook, Shown, seen_by
from fappo_bot.console.transcript import Step, StepKind
from fappo_bot.console.view import TableView
from fappo_bot.spelling import nearest_lines


class Table(Protocol):
    """What the runner needs of the table (`fappo_bot.console.app.LocalTable`)."""

    book: SeatBook
    seat: str

    def sit(self, name: str) -> str:
        """Take the seat called `name` (a seat or a character's name); returns the seat key."""
        ...

    def seat_notice(self) -> list[Shown]:
        """What the seat just taken is told (that it is not in the game), if anything."""
        ...

    async def perform(self, step: Step) -> list[Shown]:
        """Do one post, DM, command or answer as the current seat; what it shows, to whom."""
        ...

    @property
    def question(self) -> str | None:
        """The review question waiting for an answer, if any."""
        ...


def normalise(text: str) -> str:
    """Text with every run of whitespace as one space (for matching)."""
    return " ".join(text.split())


@dataclass
class ReplayFailure:
    """A failed assertion or a step the table could not do."""

    line: int
    seat: str
    message: str
    seen: str = ""
    expected: str = ""

    def report(self) -> str:
        """The failure as a readable diff: what was expected and the nearest lines seen."""
        out = [f"line {self.line} [{self.seat}]: {self.message}"]
        if self.expected:
            seen_lines = [line.rstrip() for line in self.seen.splitlines() if line.strip()]
            near = nearest_lines(self.expected, seen_lines)
            out.append(f"  - expected: {self.expected}")
            for line in near:
                out.append(f"  + nearest:  {line.strip()}")
            if not seen_lines:
                out.append("  + (the seat saw nothing of the last step)")
            elif not near:
                out.append("  + what the seat saw:")
                out.extend(f"  |   {line}" for line in seen_lines[:40])
        return "\n".join(out)


@dataclass
class Replay:
    """The outcome of a replay."""

    steps: int = 0
    assertions: int = 0
    failures: list[ReplayFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every step done and every assertion held."""
        return not self.failures


async def replay(table: Table, steps: Sequence[Step], view: TableView) -> Replay:
    """Play `steps` at `table`, drawing what each seat sees; collect every failure."""
    outcome = Replay()
    last: list[Shown] = []
    for step in steps:
        outcome.steps += 1
        if step.kind is StepKind.SEAT:
            seat = table.sit(step.text)
            view.seat_change(seat)
            notice = table.seat_notice()
            if notice:  # shown, and part of what the next ?expect looks at
                view.show(notice, seat)
                last = [*last, *notice]
            continue
        if step.kind in (StepKind.EXPECT, StepKind.EXPECT_NOT):
            outcome.assertions += 1
            seen = seen_by(last, table.seat)
            found = normalise(step.text) in normalise(seen)
            wanted = step.kind is StepKind.EXPECT
            if found != wanted:
                verb = "does not show" if wanted else "shows what it must not"
                failure = ReplayFailure(
                    step.line,
                    table.seat,
                    f"{step.describe()}: the last step {verb}",
                    seen=seen,
                    expected=step.text,
                )
                outcome.failures.append(failure)
                view.failure("✗ " + failure.report())
            else:
                view.note(f"✓ {step.describe()}", style="green")
            continue
        if step.kind is not StepKind.ANSWER and table.question is not None:
            failure = ReplayFailure(
                step.line,
                table.seat,
                f"the review question is not answered (add a '> ANSWER' line): {table.question}",
            )
            outcome.failures.append(failure)
            view.failure("✗ " + failure.report())
            break
        view.echo(table.seat, step.describe())
        last = await table.perform(step)
        view.show(last, table.seat)
        for item in last:
            if item.kind is Kind.ERROR and item.title == "internal error":
                failure = ReplayFailure(step.line, table.seat, item.body)
                outcome.failures.append(failure)
    if table.question is not None:
        outcome.failures.append(
            ReplayFailure(
                steps[-1].line if steps else 0,
                table.seat,
                f"the transcript ends with a review question unanswered: {table.question}",
            )
        )
    return outcome
