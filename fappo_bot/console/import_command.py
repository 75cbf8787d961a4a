"""`fappo-bot import FILE`: store a game exported with `fappo-bot export` (whole, or nothing).

Heavy imports happen inside `run`, so building the CLI stays cheap.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fappo_bot.console.command import add_database_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `fappo-bot import`."""
    parser.add_argument("file", type=Path, help="a JSON file written by `fappo-bot export`")
    parser.add_argument(
        "--copy",
        action="store_true",
        help="import under new ids and a new channel, next to the original game",
    )
    parser.add_argument(
        "--channel", default=None, help="the channel key of the copy (default: a new table key)"
    )
    add_database_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Import one game; 0 on success, 1 when refused (nothing written), 2 on a bad setting."""
    import asyncio

    from fappo_bot.console.wiring import open_storage, table_settings
    from fappo_bot.service.clock import uuid_ids
    from fappo_bot.service.errors import ServiceError
    from fappo_bot.service.facade import Services
    from fappo_bot.service.transfer import copied, loads

    try:
        settings = table_settings(args)
        text = args.file.read_text(encoding="utf-8")
    except (FileNotFoundError, ValueError, OSError) as exc:
        print(f"fappo-bot import: {exc}", file=sys.stderr)
        return 2

    async def _go() -> str:
        document = loads(text)
        if args.copy or args.channel:
            channel = args.channel or f"table:{uuid_ids()[:12]}"
            document = copied(document, uuid_ids, channel)
        async with open_storage(settings) as storage:
            game = await Services(storage.uow_factory).transfer.import_game(document)
        return f'imported "{game.name}" (game {game.id}, channel {game.channel_key})'

    try:
        print(asyncio.run(_go()))
    except ServiceError as exc:
        print(f"fappo-bot import: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"fappo-bot import: {exc}", file=sys.stderr)
        return 1
    return 0
