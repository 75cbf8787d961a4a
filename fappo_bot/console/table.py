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
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NoReturn

from fappo_bot.console.files import read_text
from fappo_bot.console.seats import GM_SEAT, Kind, SeatBook, Shown, only, seat_user_id
from fappo_bot.console.transcript import Step, StepKind
from fappo_bot.service.errors import ServiceError
from fappo_bot.sheets import SheetError, read_sheet

log = logging.getLogger(__name__)

TABLE_CHANNEL_PREFIX = "table:"
"""Channel keys of games played at the local table (the outbox messages the table delivers)."""


class TableError(Exception):
    """A command the table cannot read (bad options, a missing file): shown to the seat."""


class _Args(argparse.ArgumentParser):
    """An argument parser that raises `TableError` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise TableError(f"/{self.prog}: {message} (usage: {self.format_usage().strip()})")

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


class LocalTable:
    """One terminal table: the current seat, the current game, and the commands."""

    def __init__(self, services: Any, base_dir: Path | None = None) -> None:
        self.services = services
        self.book = SeatBook()
        self.seat = GM_SEAT
        self.base_dir = base_dir or Path.cwd()
        self.game_id: str | None = None
        #: the current game's GM seats (enemies' sheets and the review go to them only)
        self.gm_seats: frozenset[str] = frozenset({GM_SEAT})
        #: the GM's review in progress (`fappo_bot.console.review.ReviewSession`)
        self.review: Any = None
        #: this session's messages by number: (channel, message key, seat, secret)
        self.messages: dict[int, tuple[str, str, str, bool]] = {}
        self._closers: list[Callable[[], Awaitable[None]]] = []

    # ---- the runner's interface ----------------------------------------------------------------
    def sit(self, name: str) -> str:
        """Take a seat by its name or a character's; an unknown name is a new seat (a new user)."""
        self.seat = self.book.resolve(name) or self.book.add(name.strip())
        return self.seat

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
                shown = await self.post(step.text, secret=False)
            elif step.kind is StepKind.DM:
                shown = await self.post(step.text, secret=True)
            elif step.kind is StepKind.ANSWER:
                shown = await self.answer(step.text)
            elif step.kind is StepKind.COMMAND:
                handler = COMMANDS.get(step.name)
                if handler is None:
                    raise TableError(f"/{step.name} is not a table command (see /help).")
                shown = await handler(self, step)
            else:
                shown = []
            return shown + await self.deliver()
        except (ServiceError, TableError) as exc:
            return [Shown(Kind.ERROR, "refused", str(exc), only(self.seat))] + await self.deliver()
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

    async def use_game(self, key: str) -> list[Shown]:
        """Sit down at an existing game (by id, channel or name)."""
        from fappo_bot.console.game_commands import use_game

        return await use_game(self, key)

    async def close(self) -> None:
        """Release the storage."""
        for closer in reversed(self._closers):
            await closer()

    # ---- helpers for the command modules -------------------------------------------------------
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

    async def deliver(self) -> list[Shown]:
        """Deliver the outbox messages of the table's games to their seats (then marked sent)."""
        from fappo_bot.console.delivery import deliver_outbox

        return await deliver_outbox(self)

    async def refresh_seats(self) -> None:
        """Seats for the game's members, with the characters each one runs."""
        if self.game_id is None:
            return
        view = await self.services.games.show(self.game_id)
        for user in (*view.gms, *view.players):
            self.book.add(user)
        self.gm_seats = only(*view.gms)
        for character in await self.services.characters.list(self.game_id):
            if character.runner:
                self.book.add(character.runner, [character.name])

    async def post(self, text: str, *, secret: bool) -> list[Shown]:
        """A post in the channel, or a DM to the bot (secret orders)."""
        from fappo_bot.console.turn_commands import post

        return await post(self, text, secret=secret)

    async def answer(self, text: str) -> list[Shown]:
        """An answer to the current review question."""
        from fappo_bot.console.turn_commands import answer

        return await answer(self, text)


COMMANDS: dict[str, Handler] = {}


def command(*names: str) -> Callable[[Handler], Handler]:
    """Register a table command under its slash-command names."""

    def register(handler: Handler) -> Handler:
        for name in names:
            COMMANDS[name] = handler
        return handler

    return register


async def open_table(args: argparse.Namespace) -> LocalTable:
    """Settings, database (upgraded), services and a table for them (the composition root)."""
    from fappo_bot.console.wiring import open_storage, table_settings

    settings = table_settings(args)
    storage_cm = open_storage(settings)
    storage = await storage_cm.__aenter__()
    from fappo_bot.console import (  # noqa: F401  (importing registers the commands)
        game_commands,
        scene_commands,
        turn_commands,
    )
    from fappo_bot.console.services import build_services

    script = getattr(args, "script", None)
    table = LocalTable(
        build_services(storage.uow_factory), base_dir=script.parent if script else None
    )

    async def close_storage() -> None:
        await storage_cm.__aexit__(None, None, None)

    table._closers.append(close_storage)
    return table
