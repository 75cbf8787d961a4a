"""Schema migrations: alembic, driven from code (the bot and the local table upgrade on start).

The alembic scripts live in `migrations/` at the repository root (`alembic.ini` points there too,
for the alembic command line). Upgrades run inside one transaction; on PostgreSQL they first take
an advisory lock, so several bot processes starting at once upgrade one after the other, and on
SQLite the transaction begins IMMEDIATE for the same reason.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from fappo_bot.resources import resource
from fappo_bot.storage.engine import create_engine, writer

if TYPE_CHECKING:
    from alembic.config import Config

    from fappo_bot.settings import Settings

#: where the alembic scripts are: inside the installed package, else in the checkout
MIGRATIONS_DIR = resource("migrations")


def migrations_dir() -> Path:
    """The alembic scripts: `$FAPPO_MIGRATIONS_DIR`, else those shipped with the package (the
    wheel carries them; a checkout has them beside the package), else `./migrations`."""
    candidates = (
        [Path(os.environ["FAPPO_MIGRATIONS_DIR"])] if "FAPPO_MIGRATIONS_DIR" in os.environ else []
    )
    candidates += [MIGRATIONS_DIR, Path.cwd() / "migrations"]
    for candidate in candidates:
        if (candidate / "env.py").exists():
            return candidate
    raise FileNotFoundError(
        "the migration scripts are missing: looked in "
        + ", ".join(str(c) for c in candidates)
        + " (set FAPPO_MIGRATIONS_DIR to the migrations directory)"
    )


#: pg_advisory_xact_lock key for schema upgrades ("FAPPO" in ASCII)
_MIGRATION_LOCK_KEY = 0x4641505050


def alembic_config(url: str | None = None) -> Config:
    """An alembic configuration for the scripts in `migrations/` (and `url`, if given)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", migrations_dir().as_posix())
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head_revision() -> str:
    """The newest revision of the scripts."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError("no migration scripts found")
    return head


async def upgrade_database(settings: Settings) -> str:
    """Upgrade the settings' database to the newest schema; returns the revision it is at."""
    engine = create_engine(settings)
    try:
        return await upgrade_engine(engine)
    finally:
        await engine.dispose()


async def upgrade_engine(engine: AsyncEngine, revision: str = "head") -> str:
    """Upgrade the engine's database to `revision` (default: the newest)."""
    async with writer(engine).begin() as connection:
        await _lock(connection)
        await connection.run_sync(_run, "upgrade", revision)
        current = await connection.run_sync(_current)
    return current or "base"


async def downgrade_engine(engine: AsyncEngine, revision: str = "base") -> str:
    """Downgrade the engine's database to `revision` (default: no tables at all)."""
    async with writer(engine).begin() as connection:
        await _lock(connection)
        await connection.run_sync(_run, "downgrade", revision)
        current = await connection.run_sync(_current)
    return current or "base"


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    async with engine.connect() as connection:
        return await connection.run_sync(_current)


async def _lock(connection: AsyncConnection) -> None:
    # On SQLite BEGIN IMMEDIATE holds the write lock already; on PostgreSQL an advisory lock,
    # released at commit, makes concurrent upgrades queue up.
    if connection.dialect.name == "postgresql":
        await connection.execute(
            text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY}
        )


def _run(connection: Connection, direction: str, revision: str) -> None:
    from alembic import command

    config = alembic_config()
    config.attributes["connection"] = connection
    if direction == "upgrade":
        command.upgrade(config, revision)
    else:
        command.downgrade(config, revision)


def _current(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()
