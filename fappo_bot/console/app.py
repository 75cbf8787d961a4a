"""The local table's composition root and its two ways to play: a replayed script, or a prompt.

`play(args)` builds the settings, upgrades the database (the table's games are ordinary games in
it), wires the service layer over the storage's unit of work, and sits a `LocalTable` down in
front of a rich console. Interactive input is read with the standard `input()` (readline line
editing and history where the platform has it): a post or a command's body runs to a blank line
or a lone `.`, exactly as in a transcript, and is parsed by the same transcript parser.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TextIO

from rich.console import Console

from fappo_bot.console.commands import HANDLERS
from fappo_bot.console.example import EXAMPLE, EXAMPLES
from fappo_bot.console.game_commands import use_game
from fappo_bot.console.help_command import HELP
from fappo_bot.console.runner import Replay, replay
from fappo_bot.console.seats import Shown
from fappo_bot.console.services import TableServices
from fappo_bot.console.table import LocalTable, TableError
from fappo_bot.console.transcript import (
    StepKind,
    TranscriptSyntaxError,
    is_command,
    load_transcript,
    parse_transcript,
    split_command,
    takes_body,
)
from fappo_bot.console.view import TableView, printable, styled
from fappo_bot.console.wiring import open_storage, table_settings
from fappo_bot.words import plural


def make_console(args: argparse.Namespace, file: TextIO | None = None) -> Console:
    """A rich console honouring --width and --no-color (NO_COLOR is honoured by rich itself)."""
    return Console(
        file=file,
        width=args.width,
        no_color=bool(args.no_color),
        color_system=None if args.no_color else "auto",
        highlight=False,
        soft_wrap=False,
    )


@asynccontextmanager
async def open_table(args: argparse.Namespace) -> AsyncIterator[LocalTable]:
    """Settings, database (upgraded), services and a table for them (the composition root);
    the storage is released when the block ends."""
    settings = table_settings(args)
    async with open_storage(settings) as storage:
        script = getattr(args, "script", None)
        yield LocalTable(TableServices(storage.uow_factory, storage.links,
                                       settings.web.base_url()), HANDLERS,
                         base_dir=script.parent if script else None)


def _print_what_cannot_be_shown_as_replaced() -> None:
    """A terminal whose encoding is not UTF-8 (ASCII: the C locale with Python's UTF-8 mode off)
    cannot show every character of a game: each one it cannot is shown as "?" instead of ending
    the table with a traceback."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding != "utf8" and reconfigure is not None:
            reconfigure(errors="replace")


async def play(args: argparse.Namespace) -> int:
    """`fappo-bot play`: replay a script and/or play at the prompt; the process exit code."""
    _print_what_cannot_be_shown_as_replaced()
    console = make_console(args)
    async with AsyncExitStack() as stack:
        try:
            table = await stack.enter_async_context(open_table(args))
        except (OSError, ValueError) as exc:  # on standard error, as every command's
            print(f"fappo-bot play: {exc}", file=sys.stderr)
            return 2
        return await _play(table, args, console)
    raise AssertionError("unreachable: the block returns")  # pragma: no cover


async def _play(table: LocalTable, args: argparse.Namespace, console: Console) -> int:
    script: Path | None = args.script
    interactive = script is None or bool(args.interactive)
    if script is None and (args.example or (args.game is None and await table.no_games())):
        if args.example or _offer_example(console):
            script = EXAMPLES[args.example] if args.example else EXAMPLE
            interactive = True
    code = 0
    if script is not None:
        code = await run_script(table, script, console)
        if code == 2:
            return code
    if args.game is not None or (interactive and table.game_id is None):
        games = await table.services.table_games()
        key = args.game if args.game is not None else (games[-1].id if games else None)
        if key is not None:  # sit down at the game asked for, else the newest one
            try:
                shown = await use_game(table, key)
            except TableError as exc:
                console.print(printable(str(exc)), style="bold red", markup=False)
                return 2
            TableView(console, table.book).show(shown, table.seat)
    if args.seat and script is None:
        table.sit(args.seat)
    if interactive:
        await prompt_loop(table, console)
    return code


def _offer_example(console: Console) -> bool:
    """Offer the example adventure on a fresh table (yes when stdin is not a terminal)."""
    if not sys.stdin.isatty():
        return True
    console.print(
        "No games here yet. Replay the example adventure (three heroes against goblins, rats "
        "and a goblin lieutenant), then play on?",
        markup=False,
    )
    try:
        answer = input("[Y/n] ")
    except EOFError:
        return False
    return answer.strip().casefold() in {"", "y", "yes"}


async def run_script(table: LocalTable, path: Path, console: Console) -> int:
    """Replay a transcript file; 0 when every step and assertion passed, 1 if not, 2 unreadable."""
    try:
        steps = load_transcript(path)
    except TranscriptSyntaxError as exc:
        console.print(printable(str(exc)), style="bold red", markup=False)
        return 2
    except OSError as exc:
        console.print(printable(f"cannot read the transcript {path}: {exc}"), style="bold red",
                      markup=False)
        return 2
    table.base_dir = path.resolve().parent  # files named in the transcript are beside it
    view = TableView(console, table.book, all_seats=True)
    view.note(f"Replaying {path} ({plural(len(steps), 'step')}); every seat's view is shown.")
    outcome = await replay(table, steps, view)
    _summary(console, path, outcome)
    return 0 if outcome.ok else 1


def _summary(console: Console, path: Path, outcome: Replay) -> None:
    if outcome.ok:
        console.print(
            f"✓ {path}: {plural(outcome.steps, 'step')}, "
            f"{plural(outcome.assertions, 'assertion')} passed",
            style="bold green",
            markup=False,
        )
        return
    console.print(
        f"✗ {path}: {plural(len(outcome.failures), 'failure')} in {plural(outcome.steps, 'step')} "
        f"({plural(outcome.assertions, 'assertion')}):",
        style="bold red",
        markup=False,
    )
    for failure in outcome.failures:
        console.print(printable(failure.report()), markup=False)


#: a lone surrogate: Python's stand-in for a byte the terminal's encoding cannot decode (stdin's
#: surrogateescape, which the C locale gets), which no database or JSON document can store
_UNDECODED = re.compile("[\ud800-\udfff]")

UNREADABLE = (
    "Not taken: the terminal sent bytes that are not UTF-8 (shown as \ufffd below), so nothing "
    "was posted or changed; type it again (a UTF-8 terminal, e.g. LANG=C.UTF-8, takes every "
    "character)."
)


def undecoded(text: str) -> str | None:
    """`text` as read, with each byte the terminal's encoding could not decode shown as U+FFFD;
    None when every byte was read."""
    if _UNDECODED.search(text) is None:
        return None
    return _UNDECODED.sub("\ufffd", text)


def _ended_by_eof(ask: Callable[[str], str]) -> Callable[[str], str]:
    """`ask`, with the end of the input read as a lone "." (the end of a block)."""

    def ended(prompt: str) -> str:
        try:
            return ask(prompt)
        except EOFError:
            return "."

    return ended


def read_block(first: str, ask: Callable[[str], str]) -> str:
    """The typed block that starts with `first`: a post or a body command runs to a blank line or
    a lone `.`; `/post` runs to a lone `.`; any other command is one line. The end of the input
    ends a block too (piped input whose last post has no blank line after it: the post counts;
    the prompt then sees the end of the input and leaves)."""
    ask = _ended_by_eof(ask)
    stripped = first.strip()
    if stripped.startswith("/") and not stripped.startswith("//"):
        name, args, _ = split_command(stripped)
        if name == "post":
            lines = [first]
            while True:
                line = ask("... ")
                lines.append(line)
                if line.strip() == ".":
                    return "\n".join(lines)
        if not takes_body(name, args):
            return first
    elif stripped.startswith(("?", ">", "#")):
        return first
    lines = [first]
    while True:
        line = ask("... ")
        if line.strip() in {"", "."}:
            return "\n".join(lines)
        if is_command(line):  # a command ends the post (and is read whole after it)
            return "\n".join([*lines, read_block(line, ask)])
        lines.append(line)


async def prompt_loop(
    table: LocalTable, console: Console, ask: Callable[[str], str] = input
) -> None:
    """Play at the prompt until /quit or end of input; each seat sees only its own."""
    view = TableView(console, table.book)
    #: private items that arrived for a seat while someone else sat at the terminal
    backlog: dict[str, list[Shown]] = {}
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:  # pragma: no cover - not on every platform
        pass
    console.print(styled(HELP), style="dim")
    while True:
        question = table.question
        try:
            first = ask("answer> " if question else view.prompt(table.seat))
        except EOFError:
            console.print()
            return
        except KeyboardInterrupt:
            console.print("\n(interrupted; /quit leaves the table)", markup=False, style="dim")
            continue
        if first.strip() in {"", "."} and question is None:
            continue  # nothing typed (a stray "." ends no block: it posts nothing)
        if question is not None and not first.strip().startswith("/"):  # empty: the default
            text = "> " + first.strip().removeprefix(">").strip()
        else:
            if question is not None:  # a command leaves the review; the answers given are kept
                table.review = None
                view.note("(review left; the answers given are kept: /resolve goes on from there)")
            try:
                text = read_block(first, ask)
            except EOFError:
                return
            except KeyboardInterrupt:
                console.print("\n(the post was dropped)", markup=False, style="dim")
                continue
        shown_as = undecoded(text)
        if shown_as is not None:  # refused whole: half a post is not what was meant
            view.failure(UNREADABLE)
            view.note(shown_as)
            continue
        if text.strip() in {"/quit", "/exit"}:
            return
        if text.strip() == "?":  # what a lost newcomer types; /help is the table's command
            console.print(styled(HELP))
            continue
        parsed = parse_transcript(text)
        if parsed.errors:
            for error in parsed.errors:
                view.failure(error.message)
            continue
        for step in parsed.steps:
            if step.kind is StepKind.SEAT:
                seat = table.sit(step.text)
                view.seat_change(seat)
                view.show(table.seat_notice(), seat)
                waiting = backlog.pop(seat, [])
                if waiting:
                    view.note(f"While you were away ({len(waiting)}):")
                    view.show(waiting, seat)
                continue
            if step.kind in (StepKind.EXPECT, StepKind.EXPECT_NOT):
                continue
            shown = await table.perform(step)
            view.show(shown, table.seat)
            for item in shown:
                for seat in sorted(item.seats or ()):
                    if seat != table.seat:
                        backlog.setdefault(seat, []).append(item)
