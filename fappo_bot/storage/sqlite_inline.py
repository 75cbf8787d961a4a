"""An aiosqlite-compatible connection that runs SQLite calls on the event loop's thread.

aiosqlite sends every call (cursor, execute, fetch, close) through a worker thread and back, four
thread hops per statement: with SQLite's own cost in microseconds, the hops are most of the time
a post takes. Here a call runs at once, with SQLite's busy timeout at 0 so it can never block the
loop on a lock; when SQLite answers "database is locked" (another writer holds the lock), that one
call is retried in a worker thread with the real busy timeout, so the loop keeps serving other
tasks while this one waits (the same waiting aiosqlite does, only when there is something to wait
for). In WAL mode the only statement that waits is the writer's `BEGIN IMMEDIATE`.

SQLAlchemy's aiosqlite dialect drives it through `create_async_engine(..., async_creator=...)`.

At the load a bot sees (50 posts a second) this kept the slowest posts several times faster than
aiosqlite's thread did, at half the CPU per post (`benchmarks/bench_load.py`; the figures are in
docs/benchmarks.md). A write transaction runs from BEGIN to COMMIT without giving the loop away,
so the writers of one process never wait for each other. The WAL is checkpointed by SQLite
itself, in the commit that crosses its 1,000-page mark (a checkpoint in a worker thread measured
no better at that load). What SQLAlchemy's adapter expects of this class (its `_connection`
check before COMMIT included) is below its documented surface, like `sqla.py`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def _busy(error: sqlite3.OperationalError) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return bool(code & 0xFF == sqlite3.SQLITE_BUSY)
    return "database is locked" in str(error)


class InlineCursor:
    """The async cursor API SQLAlchemy's adapter calls, over a sqlite3 cursor."""

    def __init__(self, connection: InlineConnection) -> None:
        self._connection = connection
        self._cursor = connection._live().cursor()

    async def __aenter__(self) -> InlineCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._cursor.close()

    async def execute(self, sql: str, parameters: Any = ()) -> InlineCursor:
        await self._connection.call(self._cursor.execute, sql, parameters)
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> InlineCursor:
        await self._connection.call(self._cursor.executemany, sql, list(parameters))
        return self

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cursor.fetchmany(size if size is not None else self._cursor.arraysize)

    async def close(self) -> None:
        self._cursor.close()

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value


class InlineConnection:
    """The async connection API SQLAlchemy's aiosqlite adapter calls."""

    inline = True

    def __init__(
        self,
        sqlite: sqlite3.Connection,
        busy_timeout_ms: int,
    ) -> None:
        self.sqlite: sqlite3.Connection | None = sqlite
        self.busy_timeout_ms = busy_timeout_ms
        sqlite.execute("PRAGMA busy_timeout = 0")

    @property
    def _connection(self) -> sqlite3.Connection | None:  # SQLAlchemy checks it before COMMIT
        return self.sqlite

    @property
    def isolation_level(self) -> str | None:
        return self._live().isolation_level

    def _live(self) -> sqlite3.Connection:
        if self.sqlite is None:
            raise ValueError("no active connection")
        return self.sqlite

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """Run one SQLite call now; if the database is locked, wait for it off the loop."""
        try:
            return function(*args)
        except sqlite3.OperationalError as error:
            if not _busy(error):
                raise
        return await asyncio.to_thread(self._waiting, function, *args)

    def _waiting(self, function: Callable[..., T], *args: Any) -> T:
        connection = self._live()
        connection.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        try:
            return function(*args)
        finally:
            connection.execute("PRAGMA busy_timeout = 0")

    def cursor(self) -> InlineCursor:
        return InlineCursor(self)

    async def execute(self, sql: str, parameters: Any = ()) -> InlineCursor:
        cursor = InlineCursor(self)
        return await cursor.execute(sql, parameters)

    async def commit(self) -> None:
        await self.call(self._live().commit)

    async def rollback(self) -> None:
        await self.call(self._live().rollback)

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        self._live().create_function(*args, **kwargs)

    async def close(self) -> None:
        if self.sqlite is not None:
            self.sqlite.close()
            self.sqlite = None

    def stop(self) -> None:
        if self.sqlite is not None:
            self.sqlite.close()
            self.sqlite = None


def inline_creator(path: str, busy_timeout_ms: int) -> Callable[[], Any]:
    """The `async_creator` of an engine whose SQLite connections run inline."""
    uri = path.startswith("file:")

    async def connect() -> InlineConnection:
        if not uri:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, uri=uri, timeout=0
        )
        return InlineConnection(connection, busy_timeout_ms)

    return connect
