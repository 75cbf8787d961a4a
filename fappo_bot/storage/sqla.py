"""Every use of SQLAlchemy below its documented surface, in one place.

The statement layer (`driver.py`) runs SQLAlchemy's compiled statements on the pooled driver
connection itself, so it reads what SQLAlchemy's own execution layer reads: a compiled statement's
positional parameter names and bound values, the bind and result processors of each type for a
dialect, a pooled connection's driver connection, and the greenlet bridge of the async extension.
None of it is private (no leading underscore), but none of it is promised to stay either, so it is
all here, and `tests/storage/test_sqla.py` checks how each piece behaves (not which version is
installed): a new SQLAlchemy that changes one fails that test. The versions installed are those of
constraints.txt; pyproject.toml allows the minor version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import greenlet_spawn

Processor = Callable[[Any], Any]


class CompiledParts:
    """What the driver needs of a statement compiled for a dialect."""

    __slots__ = ("sql", "names", "values", "binds", "columns", "results")

    def __init__(self, statement: Any, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        #: the SQL in the driver's own parameter style
        self.sql: str = compiled.string
        #: the positional parameters' names, in order, and the statement's own value of each
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        # `params` is a property that builds the whole dict anew at each read: read once, or a
        # statement of n parameters costs n dicts of n entries
        params = compiled.params
        self.values: tuple[Any, ...] = tuple(params[n] for n in self.names)
        #: each positional parameter's bind processor (None: the value goes as it is)
        self.binds: tuple[Processor | None, ...] = tuple(
            compiled.binds[n].type.dialect_impl(dialect).bind_processor(dialect)
            for n in self.names
        )
        #: the columns a SELECT returns, and the result processor of each
        self.columns: Sequence[Any] = list(statement.selected_columns) if statement.is_select else []
        self.results: tuple[Processor | None, ...] = tuple(
            c.type.dialect_impl(dialect).result_processor(dialect, None) for c in self.columns
        )


async def checkout(engine: AsyncEngine) -> tuple[Any, Any]:
    """A connection from the engine's pool (`engine.dispose()` replaces the pool, so it is looked
    up now): the pool's handle, and the driver's connection under it (sqlite3 or aiosqlite's, or
    asyncpg's)."""
    pooled = await greenlet_spawn(engine.sync_engine.pool.connect)
    return pooled, pooled.driver_connection


async def give_back(pooled: Any, broken: bool = False) -> None:
    """Return a connection to its pool (`broken`: in an unknown state, so the pool drops it)."""
    if broken:
        await greenlet_spawn(pooled.invalidate)
    await greenlet_spawn(pooled.close)

