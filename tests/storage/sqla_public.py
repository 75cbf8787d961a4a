"""The storage's statements run through SQLAlchemy's public API, to weigh `storage/driver.py`.

`driver.py` compiles each statement once and runs it on the pooled driver connection, below
SQLAlchemy's documented surface (`storage/sqla.py`). This is the same unit of work with that layer
taken out: each transaction is an `AsyncConnection` (`engine.connect()`, `begin()`, `commit()`),
each statement `connection.execute(statement, params)`, SQLAlchemy's compiled cache, result
objects and greenlet bridge included; the same statements (`queries.py`), the same BEGIN
IMMEDIATE (the engine's "begin" listener), the same connections (inline SQLite). `install()`
swaps it in for `connection.Transactions`; `bench_bot.py` and `bench_post_path.py` take
`--sqla-public`, and `test_sqla.py` checks that both store the same rows.

The rows' column positions are still read from the driver's `Compiled` (the same SELECT, the
same order): the cost measured is the execution, which is what `driver.py` replaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from fappo_bot.storage.driver import NO_PARAMS, Params, Sql, Tap
from fappo_bot.storage.engine import SQLITE_BEGIN


def _statement(sql: Sql, dialect: Dialect) -> Any:
    statement = sql.statement
    if callable(statement) and not hasattr(statement, "compile"):
        statement = statement(dialect.name)
    return statement


class PublicLink:
    """A `driver.Link` over an `AsyncConnection`."""

    def __init__(self, connection: AsyncConnection, dialect: Dialect) -> None:
        self.connection, self.dialect = connection, dialect
        self._statements: dict[int, Any] = {}

    def _of(self, sql: Sql) -> Any:
        found = self._statements.get(id(sql))
        if found is None:
            found = self._statements[id(sql)] = _statement(sql, self.dialect)
        return found

    async def begin(self, write: bool) -> None:
        await self.connection.begin()

    async def commit(self) -> None:
        await self.connection.commit()

    async def rollback(self) -> None:
        await self.connection.rollback()

    def lost(self) -> bool:
        return self.connection.invalidated

    async def fetch(self, sql: Sql, params: Params = NO_PARAMS) -> list[Sequence[Any]]:
        result = await self.connection.execute(self._of(sql), dict(params))
        return list(result.all())

    async def execute(self, sql: Sql, params: Params = NO_PARAMS) -> int:
        result = await self.connection.execute(self._of(sql), dict(params))
        return int(result.rowcount)

    async def execute_many(self, sql: Sql, rows: Sequence[Params]) -> int | None:
        result = await self.connection.execute(self._of(sql), [dict(row) for row in rows])
        return int(result.rowcount)


class PublicTransactions:
    """`connection.Transactions` through SQLAlchemy's public API."""

    def __init__(self, engine: AsyncEngine, tap: Tap | None, write: bool) -> None:
        self.dialect: Dialect = engine.dialect
        self._engine = engine.execution_options(
            **{SQLITE_BEGIN: "IMMEDIATE" if write else "DEFERRED"})
        self._connection: AsyncConnection | None = None
        self._link: PublicLink | None = None
        self._begun = False

    async def begin(self) -> PublicLink:
        if self._connection is None:
            self._connection = await self._engine.connect()
            self._link = PublicLink(self._connection, self.dialect)
        assert self._link is not None
        await self._link.begin(True)
        self._begun = True
        return self._link

    async def commit(self) -> None:
        assert self._link is not None
        await self._link.commit()
        self._begun = False

    async def rollback(self) -> None:
        if self._begun and self._link is not None:
            self._begun = False
            await self._link.rollback()

    async def close(self, broken: bool = False) -> None:
        connection, self._connection, self._link, self._begun = (
            self._connection, None, None, False)
        if connection is not None:
            if broken:
                await connection.invalidate()
            await connection.close()


def install() -> None:
    """Every unit of work made from now on runs through SQLAlchemy's public API."""
    from fappo_bot.storage import unit_of_work

    unit_of_work.Transactions = PublicTransactions  # type: ignore[misc,assignment]
