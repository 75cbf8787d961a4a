"""The table's pace commands, a seat's own (Discord's `/me` group): `/remind`, `/away`,
`/back`, `/digest`. The same use cases (`service/pace.py`); times are read and shown in UTC."""

from __future__ import annotations

from typing import Any

from fappo_bot.console.seats import Kind, Shown
from fappo_bot.console.table import LocalTable, TableError, command_parser
from fappo_bot.console.transcript import Step
from fappo_bot.service.pace import absence_time
from fappo_bot.service.records import RemindBy

REMIND_USAGE = "/remind dm|ping|none [--game GAME] (without --game: all your games)"


def _parse(step: Step, parser: Any) -> Any:
    return parser.parse_args(list(step.args))


def _said(text: str) -> list[Shown]:
    return [Shown(Kind.REPLY, "bot · you", text)]


async def remind(table: LocalTable, step: Step) -> list[Shown]:
    """/remind dm|ping|none [--game GAME]: how your reminders reach you."""
    parser = command_parser("remind")
    parser.add_argument("how", nargs="?")
    parser.add_argument("--game", nargs="*", default=None)
    args = _parse(step, parser)
    try:
        how = RemindBy((args.how or "").casefold())
    except ValueError:
        raise TableError(f"/remind takes dm, ping or none: {REMIND_USAGE}.") from None
    game_id = None
    if args.game:
        name = " ".join(args.game).casefold()
        mine = await table.services.games.games_of(table.user)
        found = [g for g in mine if g.name.casefold() == name or g.id == name]
        if not found:
            names = ", ".join(g.name for g in mine) or "none yet"
            raise TableError(f'You play in no game named "{" ".join(args.game)}" (yours: '
                             f"{names}).")
        game_id = found[0].id
    return _said(await table.services.pace.remind(table.user, how, game_id))


async def away(table: LocalTable, step: Step) -> list[Shown]:
    """/away [--from WHEN] [--to WHEN]: away (UTC; `2026-12-05`, `"2026-12-05 18:00"`, `3d`)."""
    parser = command_parser("away")
    parser.add_argument("--from", dest="start", nargs="*", default=None)
    parser.add_argument("--to", dest="end", nargs="*", default=None)
    args = _parse(step, parser)
    now = table.services.pace.now()
    start = absence_time(" ".join(args.start), now) if args.start else None
    end = (absence_time(" ".join(args.end), now, end=True, start=start) if args.end
           else None)
    return _said(await table.services.pace.away(table.user, start, end))


async def back(table: LocalTable, step: Step) -> list[Shown]:
    """/back: back from an absence."""
    return _said(await table.services.pace.back(table.user))


async def digest(table: LocalTable, step: Step) -> list[Shown]:
    """/digest on|off [--hour H]: one private message a day at hour H (UTC)."""
    parser = command_parser("digest")
    parser.add_argument("state", nargs="?")
    parser.add_argument("--hour", type=int, default=None)
    args = _parse(step, parser)
    if args.state not in ("on", "off"):
        raise TableError("/digest takes on or off: /digest on --hour 8, /digest off.")
    return _said(await table.services.pace.digest(table.user, args.state == "on", args.hour))
