"""Where a unit of work's transaction comes from: its own connection (`Solo`), or, for SQLite
writers, a share of one transaction that several units of work commit together (`WriteGroup`).

SQLite lets one writer in at a time, and what a writer pays per transaction (BEGIN IMMEDIATE and
COMMIT, each dirty page written to the WAL, a connection from the pool) is as much as a post's own
statements. When posts arrive together (many games active), the writers of one process queue up
anyway: `WriteGroup` runs them one after another inside one `BEGIN IMMEDIATE` transaction, each in
its own SAVEPOINT (the first needs none: its rollback is the transaction's), and commits once no
writer is waiting (or `limit` have joined; a writer that finds nobody waiting first lets the
tasks that are ready run, one turn of the event loop). A unit of work's `commit()` returns only after that
COMMIT: nothing is answered before it is durable, a crash loses only writers nobody was answered
for, and a failed COMMIT fails every writer of the group (each gets the error; the service
answers each as it would a failed transaction). A writer alone commits at once, as before.
Units of work that only read (`reader()`) and PostgreSQL (row locks, real concurrency) use `Solo`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import greenlet_spawn

from fappo_bot.service.errors import Conflict, StaleVersion
from fappo_bot.storage.driver import Link, Tap, link_for
from fappo_bot.storage.engine import SQLITE_BUSY_TIMEOUT_MS
from fappo_bot.storage.errors import BUSY_MESSAGE, STALE_MESSAGE

#: the most writers one group commit holds (bounds how long the first of them waits)
GROUP_LIMIT = 32


class Source(Protocol):
    """Where a unit of work's transactions come from."""

    dialect: Dialect

    async def begin(self) -> Link: ...
    async def commit(self) -> None: ...
    async def rollback(self) -> None:
        """Undo what is not committed (nothing when nothing is)."""
        ...

    async def close(self, broken: bool = False) -> None:
        """The unit of work is over (`broken`: its connection is in an unknown state)."""
        ...

    def renewed(self) -> Source:
        """The source of the unit of work's next transaction."""
        ...


class Pooled:
    """A connection from the engine's pool and its link (`engine.dispose()` replaces the pool, so
    it is looked up at each checkout)."""

    def __init__(self, engine: AsyncEngine, tap: Tap | None) -> None:
        self._engine, self._tap = engine, tap
        self._fairy: Any = None
        self.link: Link | None = None

    async def checkout(self) -> Link:
        if self.link is None:
            fairy = await greenlet_spawn(self._engine.sync_engine.pool.connect)
            try:
                self.link = link_for(fairy.driver_connection, self._engine.dialect, self._tap)
            except BaseException:
                await greenlet_spawn(fairy.close)
                raise
            self._fairy = fairy
        return self.link

    async def checkin(self, broken: bool = False) -> None:
        """Give the connection back (`broken`: in an unknown state, so the pool drops it)."""
        fairy, self._fairy, self.link = self._fairy, None, None
        if fairy is not None:
            if broken:
                await greenlet_spawn(fairy.invalidate)
            await greenlet_spawn(fairy.close)


class Solo:
    """A unit of work's own transaction on its own connection."""

    def __init__(self, engine: AsyncEngine, tap: Tap | None, write: bool) -> None:
        self.dialect: Dialect = engine.dialect
        self._connection = Pooled(engine, tap)
        self._write = write
        self._begun = False

    async def begin(self) -> Link:
        link = await self._connection.checkout()
        try:
            await link.begin(self._write)
        except BaseException:  # failed or cancelled while waiting for a lock: in doubt
            await self._connection.checkin(broken=True)
            raise
        self._begun = True
        return link

    async def commit(self) -> None:
        assert self._connection.link is not None
        await self._connection.link.commit()
        self._begun = False

    async def rollback(self) -> None:
        link = self._connection.link
        if self._begun and link is not None:
            self._begun = False
            await link.rollback()

    async def close(self, broken: bool = False) -> None:
        await self._connection.checkin(broken)

    def renewed(self) -> Solo:
        """The source of the unit of work's next transaction (the same connection)."""
        return self


class WriteGroup:
    """The SQLite writers of one unit-of-work factory, committed together (see the module)."""

    def __init__(
        self,
        engine: AsyncEngine,
        tap: Tap | None,
        limit: int = GROUP_LIMIT,
        wait_seconds: float = SQLITE_BUSY_TIMEOUT_MS / 1000,
    ) -> None:
        self.dialect: Dialect = engine.dialect
        self._connection = Pooled(engine, tap)
        self._limit = limit
        #: how long a writer waits for the writers before it (as long as SQLite would wait for
        #: another process's lock), then gets the same "busy" refusal instead of waiting forever
        self.wait_seconds = wait_seconds
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[Any] | None = None
        #: writers waiting for the lock or holding it
        self._queued = 0
        #: whether the group's transaction is open, and how many writers are in it
        self._begun = False
        self._members = 0
        #: the writers in the transaction waiting for its COMMIT
        self._waiting: list[asyncio.Future[None]] = []

    async def join(self) -> tuple[Link, bool]:
        """Wait for the writers before this one, then join the transaction (beginning it when
        there is none). Returns the link and whether this writer has a savepoint of its own."""
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            raise RuntimeError("a write unit of work inside another in the same task would wait "
                               "for itself; finish the first one")
        self._queued += 1
        try:
            async with asyncio.timeout(self.wait_seconds):
                await self._lock.acquire()
        except TimeoutError:
            self._queued -= 1
            raise Conflict(BUSY_MESSAGE) from None
        except BaseException:
            self._queued -= 1
            raise
        self._holder = task
        try:
            link = await self._connection.checkout()
            if not self._begun:
                await link.begin(True)
                self._begun, self._members = True, 0
            own = self._members > 0
            if own:
                await link.savepoint()
            self._members += 1
        except BaseException:
            # a BEGIN that failed or was cancelled (while waiting for another process's lock)
            # leaves the connection in doubt: the pool drops it
            await self._leave(None, broken=not self._begun)
            raise
        return link, own

    async def leave(self, committed: bool, own: bool) -> None:
        """This writer is done: its work stays in the group's transaction (`committed`) or is
        undone; returns when the transaction it joined is committed (or raises its error)."""
        link = self._connection.link
        done: asyncio.Future[None] | None = None
        try:
            if link is not None and self._begun:
                if committed:
                    if own:
                        await link.release()
                    done = asyncio.get_running_loop().create_future()
                elif own:
                    await link.rollback_savepoint()
                else:  # the first writer undoes the whole transaction (there is no other yet)
                    await self._end(lambda: link.rollback(), [])
        except BaseException:
            await self._leave(None, broken=True)
            raise
        if done is not None and self._queued == 1:
            # Nobody waits yet: let the tasks that are ready run up to their first statement
            # (one turn of the loop), so writers that arrived together commit together.
            try:
                await asyncio.sleep(0)
            except BaseException:  # cancelled: its work is in the transaction, which goes on
                await self._leave(done)
                raise
        await self._leave(done)
        if done is not None:
            await asyncio.shield(done)

    async def _leave(self, done: asyncio.Future[None] | None, broken: bool = False) -> None:
        """Give the lock to the next writer; commit first when none is waiting (or the group is
        full). Called holding the lock."""
        try:
            if done is not None:
                self._waiting.append(done)
            self._queued -= 1
            if broken:
                await self._end(None, self._waiting, broken=True)
            elif self._begun and (self._queued == 0 or len(self._waiting) >= self._limit):
                link = self._connection.link
                assert link is not None
                if self._waiting:
                    await self._end(lambda: link.commit(), self._waiting)
                else:
                    await self._end(lambda: link.rollback(), [])
            elif not self._begun and self._queued == 0:
                await self._connection.checkin()
        finally:
            self._holder = None
            self._lock.release()

    async def _end(
        self,
        finish: Callable[[], Any] | None,
        waiting: list[asyncio.Future[None]],
        broken: bool = False,
    ) -> None:
        """End the group's transaction with `finish` (COMMIT or ROLLBACK), tell the writers
        waiting for it, and give the connection back."""
        self._waiting = []
        self._begun, self._members = False, 0
        # a writer whose work was undone by another's broken connection lost nothing of its own:
        # the service runs its use case again (one transaction, rolled back whole)
        error: BaseException | None = StaleVersion(STALE_MESSAGE)
        if not broken and finish is not None:
            try:
                await finish()
                error = None
            except BaseException as exc:  # every writer of the group gets the failure
                error = exc
                broken = True
        for future in waiting:
            if not future.done():
                if error is None:
                    future.set_result(None)
                else:
                    future.set_exception(error)
        if broken:
            link = self._connection.link
            try:
                if link is not None:
                    await link.rollback()
            except BaseException:  # the connection cannot even roll back: the pool drops it
                pass
            await self._connection.checkin(broken=True)
        elif self._queued == 0:
            await self._connection.checkin()


class Member:
    """A unit of work's transaction as a member of a `WriteGroup`."""

    def __init__(self, group: WriteGroup) -> None:
        self.dialect: Dialect = group.dialect
        self._group = group
        self._joined = False
        self._own = False

    async def begin(self) -> Link:
        link, self._own = await self._group.join()
        self._joined = True
        return link

    async def commit(self) -> None:
        self._joined = False
        await self._group.leave(True, self._own)

    async def rollback(self) -> None:
        if self._joined:
            self._joined = False
            await self._group.leave(False, self._own)

    async def close(self, broken: bool = False) -> None:
        """Nothing to give back: the group holds the connection."""

    def renewed(self) -> Member:
        """The source of the unit of work's next transaction (it joins the group again)."""
        return Member(self._group)
