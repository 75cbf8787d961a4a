"""alembic environment: the app's metadata, async engines, and a connection passed in by code.

The database is, in order: a connection handed over by `fappo_bot.storage.migrate` (the bot and
`fappo-bot migrate`), the `sqlalchemy.url` of the alembic config (`alembic -x url=...` or the ini),
else the settings' database (`FAPPO_DATABASE__URL`, the config file, or the SQLite file in data_dir).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.pool import NullPool

from fappo_bot.storage.tables import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    if url:
        return url
    from fappo_bot.settings import load_settings

    return load_settings().database_url


def _configure(**kwargs: object) -> None:
    context.configure(
        target_metadata=target_metadata,
        compare_type=True,
        # SQLite cannot ALTER most things: batch mode copies the table instead.
        render_as_batch=True,
        **kwargs,  # type: ignore[arg-type]
    )


def run_migrations_offline() -> None:
    """Emit the SQL instead of running it (`alembic upgrade head --sql`)."""
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def _run_on(connection: Connection) -> None:
    _configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    from fappo_bot.storage.engine import create_engine_for_url, writer

    engine = create_engine_for_url(_url(), poolclass=NullPool)
    try:
        async with writer(engine).connect() as connection:
            await connection.run_sync(_run_on)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    """Run against a connection given by code, else against a new async engine."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_on(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
