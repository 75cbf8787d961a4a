"""The local table's transcript format: a game written down the way it is typed at the table.

A transcript is plain text, read top-down. Each step is one of:

- ``# a comment`` (a line starting with ``#`` outside a post) and blank lines: ignored.
- ``/as NAME``: change seat (``/as gm``, ``/as alice``, or a character's name: its player's seat).
- ``/dm TEXT``: a direct message to the bot (secret orders, F29). The text may go on over the
  next lines, up to a blank line or a lone ``.``.
- ``/COMMAND ARGS``: a command with the same name and options as the slash command. Commands that
  take a body (``/addchar``, ``/sheet``, ``/enemy``, ``/group`` with an inline sheet, ``/npc``,
  ``/edit``) take the following lines up to a blank line or a lone ``.``.
- ``> ANSWER``: an answer to the question the last command asked (``/resolve``'s review).
- ``?expect TEXT`` / ``?expect-not TEXT``: the text must (must not) appear in what the current
  seat saw of the last step.
- anything else: a post, exactly as typed in the channel, up to a blank line or a lone ``.``. A
  post that needs blank lines inside starts with a lone ``/post`` line and ends with a lone ``.``.

A post or a command's body also ends where an ``?expect`` line starts (the assertion is kept); a
post also ends where a ``/command`` line starts (the command is kept).

Parsing is pure and reports every malformed line with its line number.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from fappo_bot.console.files import read_text
from fappo_bot.spelling import nearest

#: commands whose following lines (to a blank line or a lone ".") are part of the command
BODY_COMMANDS: frozenset[str] = frozenset(
    {"addchar", "sheet", "enemy", "group", "npc", "edit", "dm", "post", "editsheet"}
)

#: every command of the table (the slash commands plus the table's own), for clear errors
COMMANDS: frozenset[str] = frozenset(
    {
        "as", "dm", "post", "help", "seats", "quit", "who",
        "newgame", "addchar", "sheet", "enemy", "group", "open", "calltime", "extend",
        "pause", "resume", "npc", "pass", "status", "review", "resolve", "undo", "rest", "endscene",
        "endadventure", "advance", "endcombat", "edit", "delete", "export", "import", "link", "games", "use",
        "transfer", "retire", "reveal", "odds", "xp", "settings", "set", "remind", "away",
        "back", "digest", "spend", "approve", "refuse", "changes", "ledger", "editsheet",
        "handover", "items", "bind", "trait",
    }
)


class StepKind(StrEnum):
    """What a transcript step does."""

    SEAT = "seat"
    POST = "post"
    DM = "dm"
    COMMAND = "command"
    ANSWER = "answer"
    EXPECT = "expect"
    EXPECT_NOT = "expect-not"


@dataclass(frozen=True)
class Step:
    """One step of a transcript, with the line it starts on (1-based)."""

    kind: StepKind
    line: int
    #: the post or DM text; the command's body; the expected text; the answer; the seat
    text: str = ""
    #: the command name (without the slash) and its arguments (shell-style split)
    name: str = ""
    args: tuple[str, ...] = ()

    def describe(self) -> str:
        """The step as it was typed (for echoes and failure messages)."""
        if self.kind is StepKind.SEAT:
            return f"/as {self.text}"
        if self.kind is StepKind.COMMAND:
            head = "/" + " ".join([self.name, *(shlex.quote(a) for a in self.args)])
            return head + ("\n" + self.text if self.text else "")
        if self.kind is StepKind.DM:
            return "/dm " + self.text
        if self.kind is StepKind.ANSWER:
            return "> " + self.text
        if self.kind is StepKind.EXPECT:
            return "?expect " + self.text
        if self.kind is StepKind.EXPECT_NOT:
            return "?expect-not " + self.text
        return self.text


@dataclass(frozen=True)
class TranscriptError:
    """A line of the transcript that cannot be read."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class Transcript:
    """A parsed transcript: its steps, and every problem found (nothing is run when there is one)."""

    steps: list[Step] = field(default_factory=list)
    errors: list[TranscriptError] = field(default_factory=list)


class TranscriptSyntaxError(ValueError):
    """A transcript with problems; `str()` lists them all with their line numbers."""

    def __init__(self, source: str, errors: Iterable[TranscriptError]) -> None:
        self.errors = list(errors)
        lines = "\n".join(f"  {source}:{e}" for e in self.errors)
        super().__init__(f"{source}: cannot read the transcript:\n{lines}")


#: commands that read a sheet: from a FILE given first, else from the body
SHEET_COMMANDS: frozenset[str] = frozenset({"addchar", "sheet", "enemy", "group"})


def takes_body(name: str, args: tuple[str, ...]) -> bool:
    """Whether the command reads the following lines: a sheet command only without a FILE
    (the file comes first: `/addchar kael.yaml --player alice`)."""
    if name in SHEET_COMMANDS:
        return not args or args[0].startswith("-")
    if name == "edit":  # the new text of message N: no number, nothing to read
        return bool(args)
    if name == "editsheet":  # NAME, then a FILE or the sheet on the following lines
        return len(args) == 1
    return name in BODY_COMMANDS


def _is_end(line: str) -> bool:
    """A block ends at a blank line or a lone "."; an assertion line also ends it (and stays)."""
    return line.strip() in {"", "."}


def is_command(line: str) -> bool:
    """A `/command` line (`//` starts ordinary text)."""
    stripped = line.strip()
    return stripped.startswith("/") and not stripped.startswith("//")


def _is_assertion(line: str) -> bool:
    return line.strip().startswith(("?expect ", "?expect-not "))


def unknown_command(name: str, known: Iterable[str]) -> str:
    """`unknown command /resolv: did you mean /resolve? (see /help)`."""
    near = nearest(name, sorted(known), 1)
    hint = f": did you mean /{near[0]}?" if near else ""
    return f"unknown command /{name}{hint} (see /help)"


def split_command(line: str) -> tuple[str, tuple[str, ...], str | None]:
    """`/name args...` -> (name, args, error). Arguments split like a shell (quotes allowed)."""
    body = line.strip()[1:]
    try:
        words = shlex.split(body)
    except ValueError as exc:
        return "", (), f"cannot split the command's arguments: {exc}"
    if not words:
        return "", (), "a lone '/' is not a command"
    return words[0].casefold(), tuple(words[1:]), None


def parse_transcript(text: str) -> Transcript:
    """Read a transcript into steps; collect every problem rather than stopping at the first."""
    result = Transcript()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        number = i + 1
        if stripped == "" or stripped.startswith("#"):
            i += 1
            continue
        if stripped.startswith("?"):
            _assertion(stripped, number, result)
            i += 1
            continue
        if stripped.startswith(">"):
            result.steps.append(Step(StepKind.ANSWER, number, text=stripped[1:].strip()))
            i += 1
            continue
        if stripped.startswith("/") and not stripped.startswith("//"):
            i = _command(lines, i, result)
            continue
        # a post, exactly as typed in the channel; a command line ends it (a word typed at the
        # prompt never swallows the command after it)
        body = []
        while (i < len(lines) and not _is_end(lines[i]) and not _is_assertion(lines[i])
               and not is_command(lines[i])):
            body.append(lines[i])
            i += 1
        if i < len(lines) and _is_end(lines[i]):
            i += 1
        if body:  # a stray "." ends nothing and posts nothing
            result.steps.append(Step(StepKind.POST, number, text="\n".join(body)))
    return result


def _assertion(stripped: str, number: int, result: Transcript) -> None:
    """A `?expect TEXT` or `?expect-not TEXT` line as its step, or its problem."""
    head, _, rest = stripped.partition(" ")
    if head == "?expect":
        result.steps.append(Step(StepKind.EXPECT, number, text=rest.strip()))
    elif head == "?expect-not":
        result.steps.append(Step(StepKind.EXPECT_NOT, number, text=rest.strip()))
    else:
        result.errors.append(
            TranscriptError(
                number, f"unknown assertion {head!r}: use ?expect or ?expect-not"
            )
        )
    if head in {"?expect", "?expect-not"} and not rest.strip():
        result.errors.append(TranscriptError(number, f"{head} needs the text to look for"))


def _command(lines: list[str], i: int, result: Transcript) -> int:
    """The `/command` at line index `i`, with the body it takes, as its step (or its problem);
    the index of the line after it."""
    stripped = lines[i].strip()
    number = i + 1
    name, args, error = split_command(stripped)
    if error:
        result.errors.append(TranscriptError(number, error))
        return i + 1
    if name not in COMMANDS:
        result.errors.append(TranscriptError(number, unknown_command(name, COMMANDS)))
        return i + 1
    i += 1
    if name == "as":
        if len(args) != 1:
            result.errors.append(
                TranscriptError(number, "/as takes one seat name: /as gm, /as Kael")
            )
        else:
            result.steps.append(Step(StepKind.SEAT, number, text=args[0]))
        return i
    body: list[str] = []
    if name == "post":
        # a post with blank lines inside: up to a lone "."
        while i < len(lines) and lines[i].strip() != ".":
            body.append(lines[i])
            i += 1
        if i >= len(lines):
            result.errors.append(
                TranscriptError(number, "/post is not closed by a lone '.' line")
            )
        result.steps.append(Step(StepKind.POST, number, text="\n".join(body)))
        return i + 1
    if takes_body(name, args):
        # the body runs to a blank line, a lone "." or an assertion; a command line ends
        # it too (a forgotten "." never swallows the command typed after the body)
        while (i < len(lines) and not _is_end(lines[i]) and not _is_assertion(lines[i])
               and not is_command(lines[i])):
            body.append(lines[i])
            i += 1
        if i < len(lines) and _is_end(lines[i]):
            i += 1  # the terminator
    if name == "dm":
        first = stripped[len("/dm") :].strip()
        text_lines = ([first] if first else []) + body
        if not text_lines:
            result.errors.append(TranscriptError(number, "/dm needs the message text"))
            return i
        result.steps.append(Step(StepKind.DM, number, text="\n".join(text_lines)))
        return i
    result.steps.append(
        Step(StepKind.COMMAND, number, text="\n".join(body), name=name, args=args)
    )
    return i


def load_transcript(path: Path) -> list[Step]:
    """Read and parse a transcript file; raise `TranscriptSyntaxError` listing every problem."""
    transcript = parse_transcript(read_text(path))
    if transcript.errors:
        raise TranscriptSyntaxError(str(path), transcript.errors)
    return transcript.steps
