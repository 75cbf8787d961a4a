"""The table's composition root for storage: settings from the options, the database upgraded,
and a unit-of-work factory over it (`play`, `export` and `import` share it)."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fappo_bot.service.ports import UowFactory
from fappo_bot.settings import DatabaseSettings, Settings, load_settings


def table_settings(args: argparse.Namespace) -> Settings:
    """The settings, with `--data-dir` and `--database-url` applied (they win over the file).
    A database URL the bot cannot use is a `ValueError` saying so in one sentence."""
    from fappo_bot.storage.engine import URL_SETTING, checked_url

    settings = load_settings(getattr(args, "config", None))
    updates: dict[str, object] = {}
    if getattr(args, "data_dir", None) is not None:
        updates["data_dir"] = args.data_dir
    if getattr(args, "database_url", None):
        updates["database"] = DatabaseSettings(url=args.database_url, echo=settings.database.echo)
    settings = settings.model_copy(update=updates) if updates else settings
    checked_url(settings.database_url, "--database-url" if "database" in updates else URL_SETTING)
    return settings


@dataclass(frozen=True)
class Storage:
    """The opened database: its settings and a unit-of-work factory."""

    settings: Settings
    uow_factory: UowFactory


@asynccontextmanager
async def open_storage(settings: Settings) -> AsyncIterator[Storage]:
    """Create the data directory, upgrade the database to the newest schema, and yield a unit of
    work factory; the engine is disposed of on the way out."""
    from fappo_bot.storage.engine import create_engine
    from fappo_bot.storage.migrate import upgrade_database
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

    if not settings.database.url:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    await upgrade_database(settings)
    engine = create_engine(settings)
    try:
        factory: UowFactory = SqlUnitOfWorkFactory(engine)
        yield Storage(settings, factory)
    finally:
        await engine.dispose()
