"""`fappo-bot migrate`: upgrade the database to the newest schema (or show where it stands).

SQLAlchemy and alembic are imported inside `run`, so building the CLI stays cheap.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `fappo-bot migrate`."""
    parser.add_argument(
        "--config", type=Path, default=None, help="settings file (TOML); default: config.toml"
    )
    parser.add_argument(
        "--url",
        default=None,
        help="database URL (overrides the settings), e.g. postgresql+asyncpg://user@host/db",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="only report the database's revision; exit 1 when it is behind the newest",
    )


def run(args: argparse.Namespace) -> int:
    """Upgrade (or check) the configured database; returns the exit code."""
    import asyncio

    from fappo_bot.settings import DatabaseSettings, load_settings
    from fappo_bot.storage.engine import create_engine
    from fappo_bot.storage.migrate import current_revision, head_revision, upgrade_engine
    from fappo_bot.storage.opening import checked_storage, location, reach

    settings = load_settings(args.config)  # a ConfigError is said by `fappo-bot` itself
    if args.url:
        settings = settings.model_copy(
            update={"database": DatabaseSettings(url=args.url, echo=settings.database.echo)}
        )
    try:
        where = location(checked_storage(settings, "--url" if args.url else None))
    except ValueError as exc:
        print(f"fappo-bot migrate: {exc}", file=sys.stderr)
        return 2

    async def _go() -> int:
        engine = create_engine(settings)
        try:
            await reach(engine, where)
            head = head_revision()
            if args.check:
                current = await current_revision(engine)
                print(f"database ({where}) at {current or 'base (empty)'}; newest is {head}")
                return 0 if current == head else 1
            before = await current_revision(engine)
            after = await upgrade_engine(engine)
            if before == after:
                print(f"database ({where}) already at the newest schema ({after})")
            else:
                print(f"database ({where}) upgraded from {before or 'base (empty)'} to {after}")
            return 0
        finally:
            await engine.dispose()

    try:
        return asyncio.run(_go())
    except FileNotFoundError as exc:
        print(f"fappo-bot migrate: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"fappo-bot migrate: cannot reach the database: {exc}", file=sys.stderr)
        return 1
