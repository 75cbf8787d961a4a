"""An aiosqlite-compatible connection that runs SQLite calls on the event loop's thread.

aiosqlite sends every call (cursor, execute, fetch, close) through a worker thread and back, four
thread hops per statement: with SQLite's own cost in microseconds, the hops are most of the time
a post takes. Here a call runs at once, with SQLite's busy timeout at 0 so it can never block the
loop on a lock; when SQLite answers "database is locked" (another writer holds the lock), that one
call is retried in a worker thread with the real busy timeout, so the loop keeps serving other
tasks while this one waits (the same waiting aiosqlite does, only when there is something to wait
for). In WAL mode the only statement that waits is the writer's `BEGIN IMMEDIATE`.

SQLAlchemy's aiosqlite dialect drives it through `create_async_engine(..., async_creator=...)`.

A write transaction runs from BEGIN to COMMIT without giving the loop away, so the writers of one
process never wait for each other. The WAL is checkpointed by a `Checkpointer` in a worker
thread, not by SQLite in the COMMIT that crosses its 1,000-page mark: that COMMIT copied the WAL
into the database and waited for two fsyncs on the loop's thread, and was the bot's slowest
statement (docs/benchmarks.md, "The bot through a fake Discord"). SQLite's own checkpoint stays
as a safety net, at a mark the background ones keep the WAL far under.

What SQLAlchemy's adapter expects of this class (its `_connection` check before COMMIT
included) is below its documented surface, like `sqla.py`; `tests/storage/test_sqla.py` drives
it through SQLAlchemy's own adapter.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)

#: commits between two background checkpoints (a post's commits write 5-6 pages each, so about
#: SQLite's own 1,000-page mark)
CHECKPOINT_EVERY = 160

#: SQLite's own checkpoint (in a COMMIT, on the loop) only past this many WAL pages (40 MB), should
#: the background checkpoints fall behind
FALLBACK_AUTOCHECKPOINT = 10_000

#: whether inline connections checkpoint in the background (False: SQLite's own checkpoints at
#: its default mark; for the benchmarks' comparison)
BACKGROUND_CHECKPOINTS = True


#: the most WAL frames the passive passes may leave for a last pass that holds the write lock
FINISH_FRAMES = 256

#: how long that last pass waits for the write lock (and then for the readers of the WAL), ms
FINISH_WAIT_MS = 20


class Checkpointer:
    """Checkpoints one database's WAL in a worker thread, every `every` commits.

    PASSIVE first: it copies what no reader still needs and never waits for or blocks a writer
    or a reader. The WAL starts over (stops growing) only at the first write after a checkpoint
    that copied every frame, and a commit that lands while it copies adds frames it did not see,
    so it checkpoints again until one finds nothing new (up to four times). Under a steady
    stream of commits the passes never catch the last frames: the WAL then grew to SQLite's own
    safety net, whose checkpoint copied the whole of it in one COMMIT on the loop (a burst of
    slow posts).

    So when the passes leave a short tail (`FINISH_FRAMES`), one RESTART pass copies it. It
    takes the write lock, waiting for it a little (`FINISH_WAIT_MS`: when posts queue, the
    loop's transactions follow each other closely and the lock is rarely free at the instant it
    is asked for), so no frame can land while it copies, and the next writer starts the WAL
    over. The loop's writers that come meanwhile wait off the loop (`InlineConnection.call`),
    for the copy of a short tail, never of a whole WAL: a RESTART over the whole WAL held them
    for seconds on the loaded machine. Once the WAL is half way to the safety net (a loop that
    cannot keep up, its transactions back to back), the last pass copies whatever tail is left:
    its writers then wait off the loop, where the safety net's checkpoint would stop the loop.

    A WAL that was not checkpointed loses nothing: it is the durable log, read through and
    recovered by SQLite."""

    def __init__(self, path: str, uri: bool, every: int) -> None:
        self.path, self.uri, self.every = path, uri, every
        self._commits = 0
        #: the checkpoint running now, if any (tests await it)
        self.running: asyncio.Future[None] | None = None

    def committed(self) -> None:
        """Count a commit; start a checkpoint when it is time and none is running."""
        self._commits += 1
        if self._commits < self.every or (self.running is not None and not self.running.done()):
            return
        self._commits = 0
        self.running = asyncio.get_running_loop().run_in_executor(None, self.checkpoint)

    @staticmethod
    def _passive(connection: sqlite3.Connection) -> tuple[int, int, int]:
        """The passive passes: (busy, frames in the WAL, frames copied) of the last."""
        seen = -1
        for _ in range(4):
            busy, frames, copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if busy or frames == seen:  # nothing was committed while it copied
                break
            seen = frames
        return int(busy), int(frames), int(copied)

    def checkpoint(self) -> None:
        """One checkpoint, on this thread (a connection of its own, closed after)."""
        try:
            connection = sqlite3.connect(self.path, uri=self.uri, timeout=0,
                                         isolation_level=None, check_same_thread=False)
            try:
                busy, frames, copied = self._passive(connection)
                if not busy and copied < frames and (
                        frames - copied <= FINISH_FRAMES
                        or frames >= FALLBACK_AUTOCHECKPOINT // 2):
                    connection.execute(f"PRAGMA busy_timeout = {FINISH_WAIT_MS}")
                    connection.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
            finally:
                connection.close()
        except sqlite3.Error as error:  # busy, or the file is gone: the next one will do
            log.debug("WAL checkpoint of %s skipped: %s", self.path, error)


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
        checkpointer: Checkpointer | None = None,
    ) -> None:
        self.sqlite: sqlite3.Connection | None = sqlite
        self.busy_timeout_ms = busy_timeout_ms
        self.checkpointer = checkpointer
        sqlite.execute("PRAGMA busy_timeout = 0")
        if checkpointer is not None:
            sqlite.execute(f"PRAGMA wal_autocheckpoint = {FALLBACK_AUTOCHECKPOINT}")

    def committed(self) -> None:
        """A transaction of this connection committed (its WAL pages may want a checkpoint)."""
        if self.checkpointer is not None:
            self.checkpointer.committed()

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
        self.committed()

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
    """The `async_creator` of an engine whose SQLite connections run inline (and share one
    `Checkpointer`)."""
    uri = path.startswith("file:")
    checkpointer = Checkpointer(path, uri, CHECKPOINT_EVERY) if BACKGROUND_CHECKPOINTS else None

    async def connect() -> InlineConnection:
        if not uri:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, uri=uri, timeout=0
        )
        return InlineConnection(connection, busy_timeout_ms, checkpointer)

    return connect
