"""`fappo-bot export GAME --out FILE`: a game (found by id, channel or name) as JSON.

Heavy imports happen inside `run`, so building the CLI stays cheap.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fappo_bot.console.command import add_database_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `fappo-bot export`."""
    parser.add_argument("game", help="the game: its id, its channel key, or its name")
    parser.add_argument(
        "--out", type=Path, default=None, help="the JSON file to write (default: standard output)"
    )
    parser.add_argument(
        "--secrets",
        action="store_true",
        help="include the secrets of a turn not resolved yet (secret orders, NPC orders, salt)",
    )
    add_database_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Export one game; 0 on success, 1 when the game is not there, 2 on a bad setting."""
    import asyncio

    from fappo_bot.console.wiring import open_storage, table_settings
    from fappo_bot.service.errors import ServiceError
    from fappo_bot.service.facade import Services
    from fappo_bot.service.transfer import dumps

    try:
        settings = table_settings(args)
    except (FileNotFoundError, ValueError) as exc:
        print(f"fappo-bot export: {exc}", file=sys.stderr)
        return 2

    async def _go() -> str:
        async with open_storage(settings) as storage:
            services = Services(storage.uow_factory)
            document = await services.transfer.export_as_operator(args.game,
                                                                  secrets=args.secrets)
            return dumps(document)

    try:
        text = asyncio.run(_go())
    except ServiceError as exc:
        print(f"fappo-bot export: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"fappo-bot export: {exc}", file=sys.stderr)
        return 1
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"fappo-bot export: cannot write {args.out}: {exc}", file=sys.stderr)
        return 1
    print(f"exported the game to {args.out}", file=sys.stderr)
    return 0
