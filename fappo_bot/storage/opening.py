"""Opening the database for an adapter: the data directory made, the schema upgraded, a
unit-of-work factory over it, and the engine disposed of on the way out (the local table and the
Discord bot share it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fappo_bot.service.ports import UowFactory
from fappo_bot.settings import Settings


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
