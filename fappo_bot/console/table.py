"""The local table: seats, posts and GM commands turned into the service's use cases.

This is an adapter, like the Discord one: it holds no rules. A post goes to the same use case as a
channel message, a `/dm` to the same one as a direct message, each GM command to the same use case
as its slash command; the replies, the sealed commitment and the results are the texts the service
returns or queues in its outbox (`fappo_bot.posting.render`), delivered here to the seats they are
addressed to (F29: secret orders and private results reach only their own seat).
"""

from __future__ import annotations

import argparse
import logging
import traceback
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from fappo_bot.console.files import read_text
from fappo_bot.console.review import Confirmation, ReviewSession
from fappo_bot.console.seats import GM_SEAT, Kind, SeatBook, Shown, only, seat_user_id
from fappo_bot.console.services import TableServices
from fappo_bot.console.transcript import Step, StepKind, unknown_command
from fappo_bot.posting.safety import no_rule_codes
from fappo_bot.service.errors import NoOpenTurn, ServiceError
from fappo_bot.sheets import SheetError, read_sheet

log = logging.getLogger(__name__)


class TableError(Exception):
    """A command the table cannot read (bad options, a missing file): shown to the seat."""


class _Args(argparse.ArgumentParser):
    """An argument parser that raises `TableError` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise TableError(f"/{self.prog}: {message} ({self.format_usage().strip()})")

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        """As argparse's, with a value of the wrong type (`--count x`) refused like any other
        mistake: with `exit_on_error` off, argparse raises it rather than calling `error`."""
        try:
            return super().parse_known_args(*args, **kwargs)
        except argparse.ArgumentError as exc:
            self.error(str(exc))

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise TableError(message or f"/{self.prog}")


def command_parser(name: str) -> _Args:
    """The option parser of one table command (named like the slash command)."""
    return _Args(prog=name, add_help=False, exit_on_error=False)


def slug(name: str) -> str:
    """A channel-key-friendly form of a game name."""
    kept = "".join(c if c.isalnum() else "-" for c in name.casefold())
    return "-".join(part for part in kept.split("-") if part) or "game"


Handler = Callable[["LocalTable", Step], Awaitable[list[Shown]]]
"""A table command: the table and the typed step -> what it shows, to whom."""


@dataclass(frozen=True)
class Handlers:
    """What the table does with each kind of step: the explicit command table (slash-command
    name -> handler), posts and DMs, review answers, and the outbox delivery after each step.
    Built once by `fappo_bot.console.commands`; the table itself imports no command module."""

    commands: Mapping[str, Handler]
    post: Callable[[LocalTable, str, bool], Awaitable[list[Shown]]]
    answer: Callable[[LocalTable, str], Awaitable[list[Shown]]]
    deliver: Callable[[LocalTable], Awaitable[list[Shown]]]


class LocalTable:
    """One terminal table: the current seat, the current game, and the commands."""

    def __init__(
        self, services: TableServices, handlers: Handlers, base_dir: Path | None = None
    ) -> None:
        self.services = services
        self.handlers = handlers
        self.book = SeatBook()
        self.seat = GM_SEAT
        self.base_dir = base_dir or Path.cwd()
        self.game_id: str | None = None
        self.game_name = ""
        #: the current game's GM seats (enemies' sheets and the review go to them only)
        self.gm_seats: frozenset[str] = frozenset({GM_SEAT})
        #: the current game's players
        self.player_seats: frozenset[str] = frozenset()
        #: the GM's review in progress
        self.review: ReviewSession | Confirmation | None = None
        #: this session's messages by number: (channel, message key, seat, secret)
        self.messages: dict[int, tuple[str, str, str, bool]] = {}
        #: the numbers of this session's deleted messages
        self.deleted: set[int] = set()

    # ---- the runner's interface ----------------------------------------------------------------
    def sit(self, name: str) -> str:
        """Take a seat by its name or a character's; an unknown name is a new seat (a new user)."""
        self.seat = self.book.resolve(name) or self.book.add(name.strip())
        return self.seat

    def seat_notice(self) -> list[Shown]:
        """A word to a seat that is not in the current game (a name from another game, a typo):
        what it types will be refused, and who is in this game."""
        if self.game_id is None or self.user in self.gm_seats | self.player_seats:
            return []
        members = ", ".join(self.book.label(s) for s in self.book.names()
                            if s in self.gm_seats | self.player_seats)
        return [Shown(Kind.INFO, "seat",
                      f'{self.seat} is not in the game "{self.game_name}": its posts there are '
                      f"refused. In this game: {members} (/seats). A GM adds someone new with "
                      f"/addchar FILE --new-player {self.user}; /use GAME goes to another game.",
                      only(self.seat))]

    @property
    def question(self) -> str | None:
        """The review question the GM must answer next (during /resolve), if any."""
        if self.review is None:
            return None
        return str(self.review.question())

    async def perform(self, step: Step) -> list[Shown]:
        """Do one step as the current seat. A refusal is shown to the seat; never a traceback."""
        try:
            if step.kind is StepKind.POST:
                shown = await self.handlers.post(self, step.text, False)
            elif step.kind is StepKind.DM:
                shown = await self.handlers.post(self, step.text, True)
            elif step.kind is StepKind.ANSWER:
                shown = await self.handlers.answer(self, step.text)
            elif step.kind is StepKind.COMMAND:
                handler = self.handlers.commands.get(step.name)
                if handler is None:
                    raise TableError(unknown_command(step.name, self.handlers.commands))
                shown = await handler(self, step)
            else:
                shown = []
            return shown + await self.handlers.deliver(self)
        except (ServiceError, TableError) as exc:
            text = exc.with_command("/open") if isinstance(exc, NoOpenTurn) else str(exc)
            refused = Shown(Kind.ERROR, "refused", self.for_seat(text), only(self.seat))
            return [refused, *await self.handlers.deliver(self)]
        except Exception as exc:  # the one error boundary of the table (STYLE practice 5)
            ref = uuid.uuid4().hex[:8]
            log.error("table error %s\n%s", ref, traceback.format_exc())
            return [
                Shown(
                    Kind.ERROR,
                    "internal error",
                    f"Something went wrong at the table (ref {ref}): {type(exc).__name__}: {exc}",
                    only(self.seat),
                )
            ]

    async def no_games(self) -> bool:
        """Whether no game has been played at a table with this database yet."""
        return not await self.services.table_games()

    # ---- helpers for the command modules -------------------------------------------------------
    def for_seat(self, text: str) -> str:
        """`text` as the current seat is shown it: the rule codes (`(F13)`) and the rulebook's
        line tags (`[F:L158]`) are a GM's reference, kept out of what a player reads (the words
        around them say the rule)."""
        return text if self.user in self.gm_seats else no_rule_codes(text)

    @property
    def user(self) -> str:
        """The current seat's user id in the service's records."""
        return seat_user_id(self.seat)

    def need_game(self) -> str:
        """The current game's id, or a clear refusal."""
        if self.game_id is None:
            raise TableError("No game at this table yet: the GM starts one with /newgame NAME.")
        return self.game_id

    def path(self, name: str) -> Path:
        """A file named in a command: relative to the transcript's folder, else the cwd."""
        given = Path(name).expanduser()
        for candidate in (given, self.base_dir / given):
            if candidate.is_file():
                return candidate
        raise TableError(f"There is no file {name} (looked in {self.base_dir} and here).")

    def sheet_data(self, step: Step, file: str | None) -> dict[str, Any]:
        """A character sheet in the case-file format, from a file or the command's body."""
        if file is not None:
            try:
                text = read_text(self.path(file))
            except OSError as exc:
                raise TableError(f"Cannot read {file}: {exc}") from exc
            where = file
        elif step.text.strip():
            text, where = step.text, "the sheet"
        else:
            raise TableError(f"/{step.name} needs a sheet: a YAML file, or the sheet on the next lines.")
        try:
            return read_sheet(text, where)
        except SheetError as exc:
            raise TableError(str(exc)) from exc

    async def set_game(self, game_id: str) -> None:
        """Sit down at the game `game_id`: the seats become its members and their characters
        (no label of another game's characters stays behind)."""
        self.game_id = game_id
        self.book.clear(keep=self.seat)
        await self.refresh_seats()

    async def refresh_seats(self) -> None:
        """Seats for the game's members, with the characters each one runs."""
        if self.game_id is None:
            return
        view = await self.services.games.show(self.game_id)
        self.game_name = view.name
        for user in (*view.gms, *view.players):
            self.book.add(user)
        self.gm_seats = only(*view.gms)
        self.player_seats = only(*view.players)
        for character in await self.services.characters.list(self.game_id):
            if character.runner:
                self.book.add(character.runner, [character.name])
