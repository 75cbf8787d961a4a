"""Transactions and locks: SQLite's WAL/BEGIN IMMEDIATE set-up and `lock_turn` on both databases.

No sleeping: a statement hook tells the test when the second unit of work has asked for the lock,
and only then does the first one commit. Without the lock the second would read the turn as it was.
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from fappo_bot.service.records import TurnStatus
from fappo_bot.storage.engine import SQLITE_BUSY_TIMEOUT_MS, create_engine_for_url
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

from . import records as r


def _lock_requests(engine) -> tuple[asyncio.Queue, SqlUnitOfWorkFactory]:
    """A queue that gets an item each time a unit of work of the factory returned asks for a
    lock (BEGIN IMMEDIATE or FOR UPDATE): the factory's statement tap (`driver.Tap`)."""
    requests: asyncio.Queue = asyncio.Queue()

    def seen(what: str, statement: str, args: object) -> None:
        if "BEGIN IMMEDIATE" in statement or "FOR UPDATE" in statement:
            requests.put_nowait(statement)

    return requests, SqlUnitOfWorkFactory(engine, tap=seen)


async def _seed(uow_factory) -> None:
    async with uow_factory() as uow:
        await uow.games.add(r.game())
        await uow.turns.add(r.turn())
        await uow.commit()


async def _second_locker_sees_first_commit(first_factory, second_engine) -> None:
    requests, second_factory = _lock_requests(second_engine)
    async with first_factory() as first:
        turn = await first.lock_turn("t1")
        while not requests.empty():
            requests.get_nowait()

        async def second() -> TurnStatus:
            async with second_factory() as uow:
                locked = await uow.lock_turn("t1")
                return locked.status

        waiting = asyncio.create_task(second())
        await asyncio.wait_for(requests.get(), 30)  # the second has asked for the lock
        assert not waiting.done()
        closed = turn.model_copy(update={"status": TurnStatus.CLOSED, "version": 1})
        await first.turns.update(closed)
        await first.commit()
    assert await waiting == TurnStatus.CLOSED


async def test_lock_turn_serialises_two_units_of_work(uow_factory, engine):
    await _seed(uow_factory)
    await _second_locker_sees_first_commit(uow_factory, engine)


async def test_two_engines_on_one_database_serialise_on_the_turn(uow_factory, database_url):
    """Two bot processes (each with its own engine and pool) sharing one database."""
    await _seed(uow_factory)
    other = create_engine_for_url(database_url)
    try:
        await _second_locker_sees_first_commit(uow_factory, other)
    finally:
        await other.dispose()


async def test_a_reader_does_not_wait_for_a_writer(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as writer:
        await writer.lock_turn("t1")
        game = await writer.games.get("g1")
        await writer.games.update(game.model_copy(update={"name": "Renamed", "version": 1}))
        async with uow_factory.reader() as reader:
            assert (await reader.games.get("g1")).name == r.game().name
        await writer.commit()
    async with uow_factory.reader() as reader:
        assert (await reader.games.get("g1")).name == "Renamed"


@pytest.mark.integration
@pytest.mark.parametrize("inline", [True, False], ids=["inline", "aiosqlite-thread"])
async def test_sqlite_runs_in_wal_mode_with_foreign_keys_and_a_busy_timeout(tmp_path, inline):
    engine = create_engine_for_url(
        f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}", sqlite_inline=inline
    )
    try:
        async with engine.connect() as connection:
            pragma = lambda name: connection.scalar(text(f"PRAGMA {name}"))  # noqa: E731
            assert await pragma("journal_mode") == "wal"
            assert await pragma("foreign_keys") == 1
            assert await pragma("synchronous") == 1  # NORMAL
            raw = await connection.get_raw_connection()
            if inline:
                # statements never block the loop; a locked database is waited for in a thread
                assert await pragma("busy_timeout") == 0
                assert raw.driver_connection.busy_timeout_ms == SQLITE_BUSY_TIMEOUT_MS
            else:
                assert await pragma("busy_timeout") == SQLITE_BUSY_TIMEOUT_MS
    finally:
        await engine.dispose()


@pytest.mark.integration
async def test_aiosqlite_threads_serialise_writers_too(tmp_path):
    """The plain aiosqlite driver (`sqlite_inline=False`) keeps the same locking."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'thread.sqlite3'}"
    engine = create_engine_for_url(url, sqlite_inline=False)
    try:
        from fappo_bot.storage.tables import Base

        async with engine.begin() as connection:
            await connection.run_sync(Base.metadata.create_all)
        factory = SqlUnitOfWorkFactory(engine)
        await _seed(factory)
        await _second_locker_sees_first_commit(factory, engine)
    finally:
        await engine.dispose()


async def test_foreign_keys_are_enforced(uow_factory):
    from fappo_bot.service.errors import Conflict

    async with uow_factory() as uow:
        with pytest.raises(Conflict, match="does not exist"):
            await uow.turns.add(r.turn(game_id="no-such-game"))


@pytest.mark.unit
def test_the_settings_choose_the_database(tmp_path):
    from fappo_bot.settings import DatabaseSettings, Settings
    from fappo_bot.storage.engine import create_engine

    sqlite = create_engine(Settings(data_dir=tmp_path / "d"))
    assert sqlite.dialect.name == "sqlite" and sqlite.url.database.endswith("d/fappo.sqlite3")
    assert (tmp_path / "d").is_dir()
    pg = create_engine(
        Settings(database=DatabaseSettings(url="postgresql://postgres@127.0.0.1/x"))
    )
    assert (pg.dialect.name, pg.dialect.driver) == ("postgresql", "asyncpg")
    with pytest.raises(ValueError, match="names 'mysql', which FAPPO Bot cannot use"):
        create_engine(Settings(database=DatabaseSettings(url="mysql://x@y/z")))


@pytest.mark.integration
@pytest.mark.parametrize("inline", [True, False], ids=["inline", "aiosqlite-thread"])
async def test_a_write_lock_held_past_the_timeout_is_a_busy_message(tmp_path, inline):
    """Another process holds SQLite's write lock longer than the busy timeout: the use case is
    refused with a sentence to try again, not a traceback, and nothing is written."""
    import sqlite3

    from fappo_bot.service.errors import Conflict
    from fappo_bot.storage.tables import Base

    path = tmp_path / "busy.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    engine = create_engine_for_url(url, sqlite_inline=inline, sqlite_busy_timeout_ms=50)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(Base.metadata.create_all)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            async with SqlUnitOfWorkFactory(engine)() as uow:
                with pytest.raises(Conflict, match="busy with another command"):
                    await uow.games.add(r.game())
        finally:
            other.execute("ROLLBACK")
            other.close()
        async with SqlUnitOfWorkFactory(engine)() as uow:
            assert await uow.games.get("g1") is None
    finally:
        await engine.dispose()


@pytest.mark.integration
async def test_a_statement_that_meets_the_write_lock_waits_for_it_off_the_loop(tmp_path):
    """A statement of an inline connection that finds the database locked (not only a BEGIN)
    waits for the lock in a worker thread, and runs once it is free."""
    import asyncio
    import sqlite3

    from sqlalchemy import Column, Integer, MetaData, Table, bindparam, insert

    from fappo_bot.storage.driver import Sql, SqliteLink
    from fappo_bot.storage.sqlite_inline import InlineConnection

    path = tmp_path / "lock.sqlite3"
    sqlite3.connect(path, isolation_level=None).execute("CREATE TABLE t (x INTEGER)")
    table = Table("t", MetaData(), Column("x", Integer))
    engine = create_engine_for_url(f"sqlite+aiosqlite:///{path}")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    mine = InlineConnection(sqlite3.connect(path, isolation_level=None, timeout=0,
                                            check_same_thread=False), busy_timeout_ms=30_000)
    try:
        other.execute("BEGIN IMMEDIATE")
        link = SqliteLink(mine, engine.dialect)
        written = asyncio.create_task(
            link.execute(Sql(insert(table).values(x=bindparam("x"))), {"x": 1}))
        await asyncio.sleep(0)  # it met the lock and waits off the loop
        assert not written.done()
        other.execute("ROLLBACK")
        assert await written == 1
        assert other.execute("SELECT x FROM t").fetchall() == [(1,)]
    finally:
        other.close()
        await mine.close()
        await engine.dispose()
