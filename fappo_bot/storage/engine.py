"""The database engine: SQLite (embedded, the default) or PostgreSQL, both async.

SQLite runs in WAL mode with foreign keys on and a busy timeout, and SQLAlchemy (not the sqlite3
module) emits BEGIN, so a write unit of work can begin `BEGIN IMMEDIATE`: it takes the database's
write lock at its first statement, and two resolutions of one turn queue up instead of both reading
the open turn and failing at the upgrade to a write lock (SQLITE_BUSY_SNAPSHOT cannot be retried by
the busy timeout). PostgreSQL runs at READ COMMITTED and locks rows with `SELECT ... FOR UPDATE`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from fappo_bot.settings import Settings

#: execution option naming how a SQLite transaction begins: "DEFERRED" (reads) or "IMMEDIATE"
SQLITE_BEGIN = "fappo_sqlite_begin"

#: how long a SQLite writer waits for the write lock before giving up, in milliseconds
SQLITE_BUSY_TIMEOUT_MS = 30_000


def is_sqlite(engine: AsyncEngine) -> bool:
    """Whether the engine talks to SQLite."""
    return engine.dialect.name == "sqlite"


#: the driver names a database URL may start with (the bare ones get the async driver)
SQLITE_DRIVERS = frozenset({"sqlite", "sqlite+aiosqlite"})
POSTGRES_DRIVERS = frozenset({"postgresql", "postgres", "postgresql+asyncpg"})

ACCEPTED_URLS = (
    "sqlite+aiosqlite:///path/to/file.sqlite3 or postgresql+asyncpg://user:password@host/database"
)

#: where the database URL comes from, when no command-line option gave it
URL_SETTING = "database.url (the settings file, or FAPPO_DATABASE__URL)"


class DatabaseUrlError(ValueError):
    """A database URL the bot cannot use. `str()` is one sentence: what is wrong, which setting
    gave it, and what is accepted."""


def checked_url(url: str | URL, setting: str = URL_SETTING) -> URL:
    """`url` parsed, or a `DatabaseUrlError` naming `setting` (where the URL came from)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseUrlError(
            f"The database URL {str(url)!r} in {setting} is not a URL; use {ACCEPTED_URLS}, "
            f"or leave it unset for the SQLite file in the data directory."
        ) from None
    if parsed.drivername not in SQLITE_DRIVERS | POSTGRES_DRIVERS:
        shown = parsed.render_as_string(hide_password=True)
        raise DatabaseUrlError(
            f"The database URL {shown!r} in {setting} names {parsed.drivername!r}, which FAPPO "
            f"Bot cannot use; use {ACCEPTED_URLS}, or leave it unset for the SQLite file in the "
            f"data directory."
        )
    return parsed


def database_url(settings: Settings, setting: str = URL_SETTING) -> URL:
    """The async URL of the settings' database (`DatabaseUrlError` naming `setting` when it
    cannot be used); the SQLite file's directory is created."""
    url = checked_url(settings.database_url, setting)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    return url


def create_engine(settings: Settings, **kwargs: Any) -> AsyncEngine:
    """The engine of the settings' database (SQLite in `data_dir` unless `database.url` is set)."""
    return create_engine_for_url(database_url(settings), echo=settings.database.echo, **kwargs)


def create_engine_for_url(
    url: str | URL,
    *,
    echo: bool = False,
    sqlite_inline: bool = True,
    sqlite_busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS,
    **kwargs: Any,
) -> AsyncEngine:
    """An async engine for `url`, configured for the unit of work's transactions and locks.

    SQLite runs its calls on the loop's thread (`sqlite_inline`, see `sqlite_inline.py`) unless
    `sqlite_inline=False`, which keeps aiosqlite's worker thread for every call.
    """
    from fappo_bot.storage.values import json_deserializer, json_serializer

    kwargs.setdefault("json_serializer", json_serializer)
    kwargs.setdefault("json_deserializer", json_deserializer)
    # A connection goes back to the pool with no transaction open: the unit of work commits or
    # rolls back itself (invalidating the connection when it cannot), and SQLAlchemy's own
    # `Connection` ends its transactions on close. The pool's "reset" ROLLBACK would be a
    # statement for nothing on every use case.
    kwargs.setdefault("pool_reset_on_return", None)
    url = checked_url(url, "the engine's URL")
    backend = url.get_backend_name()
    if backend == "sqlite":
        if url.drivername == "sqlite":
            url = url.set(drivername="sqlite+aiosqlite")
        inline = sqlite_inline and not _in_memory(url)
        if inline:
            from fappo_bot.storage.sqlite_inline import inline_creator

            kwargs.setdefault(
                "async_creator", inline_creator(str(url.database), sqlite_busy_timeout_ms)
            )
        engine = create_async_engine(url, echo=echo, **kwargs)
        _configure_sqlite(engine, sqlite_busy_timeout_ms, inline)
        return engine
    url = url.set(drivername="postgresql+asyncpg")
    kwargs.setdefault("pool_pre_ping", True)
    # the connection used last is used next: its prepared statements and type codecs are warm
    # (asyncpg prepares each statement once per connection; a FIFO pool made every connection
    # prepare every statement)
    kwargs.setdefault("pool_use_lifo", True)
    return create_async_engine(url, echo=echo, **kwargs)


def writer(engine: AsyncEngine) -> AsyncEngine:
    """The engine as a writer: on SQLite its transactions begin IMMEDIATE (the write lock)."""
    if is_sqlite(engine):
        return engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"})
    return engine


def _configure_sqlite(engine: AsyncEngine, busy_timeout_ms: int, inline: bool) -> None:
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # SQLAlchemy emits BEGIN itself (below); sqlite3 would begin lazily, at the first write.
        if dbapi_connection.isolation_level is not None:
            dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys = ON")
            if not inline:  # an inline connection waits for locks off the loop by itself
                cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if not _in_memory(engine.url):
                cursor.execute("PRAGMA journal_mode = WAL")
                # In WAL mode NORMAL survives a process crash (kill -9); only an OS crash or power
                # loss can drop the last commits, never corrupt the file.
                cursor.execute("PRAGMA synchronous = NORMAL")
        finally:
            cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(SQLITE_BEGIN, "DEFERRED")
        if mode not in {"DEFERRED", "IMMEDIATE", "EXCLUSIVE"}:
            raise ValueError(f"bad SQLite BEGIN mode {mode!r}")
        connection.exec_driver_sql(f"BEGIN {mode}")


def _in_memory(url: URL) -> bool:
    return not url.database or url.database == ":memory:" or "mode=memory" in str(url)
