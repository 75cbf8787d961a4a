"""Versioned updates, batched: `UPDATE ... WHERE id = ? AND version = <read>` per row, sent together.

`update` of a versioned record checks the version the transaction read, puts the new values on
the row as kept for the transaction (`repositories.Kept`, not an ORM instance: the ORM never
writes these tables) and queues the UPDATE. The queue goes out, one `executemany` per table and column set, before the next statement
that reads, and at commit; so a use case that writes 60 characters sends one statement, not 60.
A row that somebody else changed in between matches no row: the count comes up short and the
unit of work raises StaleVersion. (PostgreSQL's asyncpg reports no count for an executemany, so
there a batch is one `UPDATE ... FROM (VALUES ...)` whose single count says the same.)
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, bindparam, column, update, values
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession

from fappo_bot.service.errors import StaleVersion
from fappo_bot.storage.errors import STALE_MESSAGE

#: `AsyncSession.info` key of the queued updates: (table, id, version read, new values)
PENDING = "fappo_pending_updates"


def queue_update(session: AsyncSession, table: Table, row: Any, values: dict[str, Any]) -> None:
    """Put `values` on `row` (a row of `table` as read in this transaction, at `row.version`;
    `repositories.Kept`) and queue its UPDATE."""
    read_version = row.version
    for name, value in values.items():
        if name != "id":
            setattr(row, name, value)
    session.info.setdefault(PENDING, []).append((table, values["id"], read_version, values))


async def flush_updates(session: AsyncSession) -> None:
    """Send the queued updates; StaleVersion when any row was changed by somebody else."""
    pending = session.info.pop(PENDING, None)
    if not pending:
        return
    # a row updated twice in the transaction: one UPDATE from the version first read to the last
    # values (PostgreSQL's UPDATE ... FROM would apply only one of two matching source rows)
    merged: dict[tuple[Table, Any], tuple[int, dict[str, Any]]] = {}
    for table, key, read_version, new_values in pending:
        first = merged.get((table, key))
        merged[(table, key)] = (first[0] if first else read_version, new_values)
    batches: list[tuple[Table, tuple[str, ...], list[dict[str, Any]]]] = []
    for (table, key), (read_version, new_values) in merged.items():
        columns = tuple(name for name in new_values if name != "id")
        params = {f"new_{name}": new_values[name] for name in columns}
        params["match_id"], params["match_version"] = key, read_version
        if batches and batches[-1][0] is table and batches[-1][1] == columns:
            batches[-1][2].append(params)
        else:
            batches.append((table, columns, [params]))
    dialect = session.bind.dialect if session.bind is not None else None
    for table, columns, rows in batches:
        if dialect is not None and dialect.name == "postgresql" and len(rows) > 1:
            statement = _from_values(table, columns, len(rows))
            result = await session.execute(statement, _flat(columns, rows))
            matched = [result]
        elif dialect is not None and dialect.supports_sane_multi_rowcount:
            matched = [await session.execute(_by_id(table, columns), rows)]
        else:
            matched = [await session.execute(_by_id(table, columns), [row]) for row in rows]
        count = 0
        for result in matched:
            assert isinstance(result, CursorResult)
            count += result.rowcount
        if count != len(rows):
            raise StaleVersion(STALE_MESSAGE)


def _by_id(table: Table, columns: tuple[str, ...]) -> Any:
    return (
        update(table)
        .where(
            table.c.id == bindparam("match_id"),
            table.c.version == bindparam("match_version"),
        )
        .values({name: bindparam(f"new_{name}") for name in columns})
    )


def _from_values(table: Table, columns: tuple[str, ...], count: int) -> Any:
    """PostgreSQL: `UPDATE t SET ... FROM (VALUES ...) v WHERE t.id = v.id AND t.version = v.read`,
    one statement (one round trip) whose row count says whether every row still had its version."""
    names = ("match_id", "match_version", *(f"new_{name}" for name in columns))
    types = (table.c.id.type, table.c.version.type, *(table.c[name].type for name in columns))
    rows = [
        tuple(bindparam(f"{name}_{i}", type_=kind) for name, kind in zip(names, types, strict=True))
        for i in range(count)
    ]
    data = values(
        *(column(name, kind) for name, kind in zip(names, types, strict=True)), name="v"
    ).data(rows)
    return (
        update(table)
        .where(table.c.id == data.c.match_id, table.c.version == data.c.match_version)
        .values({name: data.c[f"new_{name}"] for name in columns})
    )


def _flat(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> dict[str, Any]:
    names = ("match_id", "match_version", *(f"new_{name}" for name in columns))
    return {f"{name}_{i}": row[name] for i, row in enumerate(rows) for name in names}
