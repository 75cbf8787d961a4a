"""Statements SQLAlchemy compiled once, executed on the pooled driver connection.

SQLAlchemy owns the schema (`tables.py`, typed ORM declarations), builds every statement
(`queries.py`), compiles it for the dialect and supplies the type conversions (its bind and result
processors: times, booleans, JSON) and the connection pool; alembic migrates. What it does not do
on the hot path is execute: its execution layer (session, compiled-cache lookup, cache keys,
result objects, the greenlet bridge of the async extension) cost more a statement than SQLite
takes to run one, and a post is seven statements. So a statement is compiled once per
dialect into a `Compiled` (the driver's SQL text, its parameters in order with their bind
processors, its result columns with their result processors) and a `Link` runs it on the
connection the pool handed out: sqlite3 (called on the loop's thread, `sqlite_inline.py`), aiosqlite,
or asyncpg (which prepares each statement once per connection). What this reads of SQLAlchemy
below its documented surface is in `sqla.py`. docs/storage.md has the figures.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, Protocol

from sqlalchemy.engine import Dialect

from fappo_bot.storage.sqla import CompiledParts

Processor = Callable[[Any], Any] | None
Params = Mapping[str, Any]
NO_PARAMS: Params = {}

Tap = Callable[[str, str, Any], None]
"""Called before the driver runs anything: (what, the SQL, its arguments), where `what` is "sql",
"many" (an executemany: a list of argument tuples) or "commit". For tests and benchmarks: the
crash test stops a process there, the storage benchmark records the writes."""


class Compiled:
    """One statement compiled for one dialect."""

    __slots__ = ("sql", "_params", "_binds", "_results", "_positions", "_layouts", "_named")

    def __init__(self, statement: Any, dialect: Dialect) -> None:
        parts = CompiledParts(statement, dialect)
        self.sql: str = parts.sql
        #: (name, the statement's own value) of each positional parameter, in order
        self._params: tuple[tuple[str, Any], ...] = tuple(zip(parts.names, parts.values, strict=True))
        #: the parameters' values in order, taken from a mapping that names every one of them
        #: (an INSERT's row, most statements' parameters) in one call; None: none to take
        self._named: Callable[[Params], tuple[Any, ...]] | None = None
        if any(value is not None for value in parts.values):  # a LIMIT's: not in the params
            self._named = self._given
        elif len(parts.names) == 1:
            (only,) = parts.names
            self._named = lambda params: (params[only],)
        elif parts.names:
            self._named = itemgetter(*parts.names)
        #: (position, bind processor) of the parameters that have one
        self._binds: tuple[tuple[int, Callable[[Any], Any]], ...] = tuple(
            (position, bind) for position, bind in enumerate(parts.binds) if bind is not None
        )
        columns = parts.columns
        #: (position, result processor) of the columns that have one
        self._results: tuple[tuple[int, Callable[[Any], Any]], ...] = tuple(
            (position, process) for position, process in enumerate(parts.results)
            if process is not None
        )
        self._positions: dict[Any, int] = {}
        for position, column in enumerate(columns):
            self._positions.setdefault(column, position)
        self._layouts: dict[Any, tuple[tuple[str, ...], tuple[int, ...] | None]] = {}

    def args(self, params: Params) -> list[Any]:
        """The driver's positional arguments for `params` (names the statement does not bind
        are ignored; a LIMIT's own value, or a name `params` leaves out, comes from the
        statement)."""
        try:
            values = list(self._named(params)) if self._named is not None else []
        except KeyError:  # a name left out: the statement's own value (None)
            values = list(self._given(params))
        for position, bind in self._binds:
            value = values[position]
            if value is not None:
                values[position] = bind(value)
        return values

    def _given(self, params: Params) -> tuple[Any, ...]:
        """Each parameter's value in `params`, or the statement's own when it names none."""
        get = params.get
        return tuple([get(name, default) for name, default in self._params])

    def rows(self, raw: list[Any]) -> list[Sequence[Any]]:
        """Result rows with SQLAlchemy's conversions applied (times, booleans, JSON)."""
        results = self._results
        if not results:
            return raw
        converted: list[Sequence[Any]] = []
        for row in raw:
            values = list(row)
            for position, process in results:
                value = values[position]
                if value is not None:
                    values[position] = process(value)
            converted.append(values)
        return converted

    def position(self, column: Any) -> int:
        """Where `column` (a Column or label of the statement) is in each row."""
        return self._positions[column]

    def layout(self, table: Any) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
        """The names of `table`'s columns and where each is in a row (None: the row starts
        with them, in order)."""
        found = self._layouts.get(table)
        if found is None:
            positions = tuple(self._positions[c] for c in table.c)
            names = tuple(c.name for c in table.c)
            leading = positions == tuple(range(len(positions)))
            found = self._layouts[table] = (names, None if leading else positions)
        return found

    def columns(self, table: Any, row: Sequence[Any]) -> dict[str, Any]:
        """`table`'s columns of a row, by name."""
        names, positions = self._layouts.get(table) or self.layout(table)
        if positions is None:
            return dict(zip(names, row, strict=False))
        return {name: row[p] for name, p in zip(names, positions, strict=True)}


class Sql:
    """A statement built once, compiled at first use for each dialect.

    `statement` is a Core statement, or a function of the dialect's name giving one (for
    dialect-specific forms such as `INSERT ... ON CONFLICT`)."""

    __slots__ = ("_statement", "_compiled")

    def __init__(self, statement: Any) -> None:
        self._statement = statement
        self._compiled: dict[str, Compiled] = {}
        _MADE.append(self)  # statements are made once each, at import or once per column set

    @property
    def statement(self) -> Any:
        return self._statement

    def compiled(self, dialect: Dialect) -> Compiled:
        found = self._compiled.get(dialect.name)
        if found is None:
            statement = self._statement
            if callable(statement) and not hasattr(statement, "compile"):
                statement = statement(dialect.name)
            found = self._compiled[dialect.name] = Compiled(statement, dialect)
        return found


#: every statement made so far (`compile_all`)
_MADE: list[Sql] = []


def compile_all(dialect: Dialect) -> int:
    """Compile for `dialect` every statement made so far; how many there are. A composition
    root calls it once at start: SQLAlchemy takes about a millisecond to compile a statement
    (several on a loaded machine), which the first posts after a start paid otherwise, a
    dozen statements at once in the middle of the load, and what it leaves behind then was
    made after the bot froze its start-up heap (`startup.tune_collector`), so every full
    collection walked it."""
    for sql in list(_MADE):
        sql.compiled(dialect)
    return len(_MADE)


class Link(Protocol):
    """One connection's transaction, at the driver."""

    dialect: Dialect

    async def begin(self, write: bool) -> None: ...
    async def commit(self) -> None: ...
    async def rollback(self) -> None: ...
    def lost(self) -> bool:
        """Whether the connection is gone (the server ended it, the socket broke)."""
        ...

    async def fetch(self, sql: Sql, params: Params = NO_PARAMS) -> list[Sequence[Any]]: ...
    async def execute(self, sql: Sql, params: Params = NO_PARAMS) -> int:
        """Run a statement; how many rows it changed."""
        ...

    async def execute_many(self, sql: Sql, rows: Sequence[Params]) -> int | None:
        """Run a statement once per row; how many rows changed (None: the driver cannot say)."""
        ...


class SqliteLink:
    """sqlite3 under SQLAlchemy's aiosqlite dialect: an inline connection (`sqlite_inline.py`) is
    called directly, and waits off the loop only when the database is locked; a plain aiosqlite
    connection runs every call in its worker thread."""

    def __init__(self, driver: Any, dialect: Dialect, tap: Tap | None = None) -> None:
        self.dialect = dialect
        self._driver = driver
        self._inline = getattr(driver, "inline", False)
        self._tap = tap
        #: an inline connection's `execute`, for the statements to call with no layer between
        #: (None: through `_run`, which taps and serves aiosqlite's connection too)
        self._execute: Callable[..., Any] | None = (
            driver._live().execute if self._inline and tap is None else None)

    async def _run(self, sql: str, args: Any, many: bool = False) -> Any:
        driver = self._driver
        if self._tap is not None:
            self._tap("commit" if sql == "COMMIT" else "many" if many else "sql", sql, args)
        if self._inline:  # runs now; waits in a worker thread only while the database is locked
            connection: sqlite3.Connection = driver._live()
            return await driver.call(connection.executemany if many else connection.execute,
                                     sql, args)
        if many:
            return await driver.executemany(sql, args)
        return await driver.execute(sql, args)

    def _statement(self, sql: str, args: Any) -> Awaitable[Any]:
        """One statement's cursor, to await: an inline connection's `execute` called with no
        layer between when nothing taps it, else through `_run`."""
        if self._execute is not None:
            called: Awaitable[Any] = self._driver.call(self._execute, sql, args)
            return called
        return self._run(sql, args)

    async def begin(self, write: bool) -> None:
        await self._run("BEGIN IMMEDIATE" if write else "BEGIN DEFERRED", ())

    def lost(self) -> bool:
        return False  # a file: nothing can end the connection under it

    async def commit(self) -> None:
        await self._run("COMMIT", ())
        if self._inline:
            self._driver.committed()

    async def rollback(self) -> None:
        if self._inline:
            connection: sqlite3.Connection = self._driver._live()
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            return
        await self._driver.rollback()

    async def fetch(self, sql: Sql, params: Params = NO_PARAMS) -> list[Sequence[Any]]:
        compiled = sql.compiled(self.dialect)
        cursor = await self._statement(compiled.sql, compiled.args(params))
        return compiled.rows(cursor.fetchall() if self._inline else await cursor.fetchall())

    async def execute(self, sql: Sql, params: Params = NO_PARAMS) -> int:
        compiled = sql.compiled(self.dialect)
        cursor = await self._statement(compiled.sql, compiled.args(params))
        return int(cursor.rowcount)

    async def execute_many(self, sql: Sql, rows: Sequence[Params]) -> int | None:
        compiled = sql.compiled(self.dialect)
        cursor = await self._run(compiled.sql, [compiled.args(row) for row in rows], many=True)
        return int(cursor.rowcount)


class AsyncpgLink:
    """asyncpg: the statements are prepared once per connection (asyncpg's statement cache)."""

    def __init__(self, driver: Any, dialect: Dialect, tap: Tap | None = None) -> None:
        self.dialect = dialect
        self._driver = driver
        self._tap = tap

    async def begin(self, write: bool) -> None:
        if self._tap is not None:
            self._tap("sql", "BEGIN", ())
        await self._driver.execute("BEGIN")

    async def commit(self) -> None:
        if self._tap is not None:
            self._tap("commit", "COMMIT", ())
        await self._driver.execute("COMMIT")

    def lost(self) -> bool:
        return bool(self._driver.is_closed())

    async def rollback(self) -> None:
        # a lost connection has nothing to roll back: the server ended its transaction
        if not self._driver.is_closed() and self._driver.is_in_transaction():
            await self._driver.execute("ROLLBACK")

    async def fetch(self, sql: Sql, params: Params = NO_PARAMS) -> list[Sequence[Any]]:
        compiled = sql.compiled(self.dialect)
        args = compiled.args(params)
        if self._tap is not None:
            self._tap("sql", compiled.sql, args)
        return compiled.rows(await self._driver.fetch(compiled.sql, *args))

    async def execute(self, sql: Sql, params: Params = NO_PARAMS) -> int:
        compiled = sql.compiled(self.dialect)
        args = compiled.args(params)
        if self._tap is not None:
            self._tap("sql", compiled.sql, args)
        return _count(await self._driver.execute(compiled.sql, *args))

    async def execute_many(self, sql: Sql, rows: Sequence[Params]) -> int | None:
        compiled = sql.compiled(self.dialect)
        many = [compiled.args(row) for row in rows]
        if self._tap is not None:
            self._tap("many", compiled.sql, many)
        await self._driver.executemany(compiled.sql, many)
        return None


def _count(status: str) -> int:
    """The row count of a PostgreSQL command status ("UPDATE 3", "INSERT 0 1", "DELETE 0")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def link_for(driver: Any, dialect: Dialect, tap: Tap | None = None) -> Link:
    """The link for a pooled connection's driver connection."""
    if dialect.name == "sqlite":
        return SqliteLink(driver, dialect, tap)
    if dialect.name == "postgresql":
        return AsyncpgLink(driver, dialect, tap)
    raise ValueError(f"unsupported database {dialect.name!r}")
