"""Versioned updates, batched: `UPDATE ... WHERE id = ? AND version = <read>` per row, sent together.

`update` of a versioned record checks the version the transaction read, puts the new values on
the row in the session (as committed values: the ORM itself never writes them) and queues the
UPDATE. The queue goes out, one `executemany` per table and column set, before the next statement
that reads, and at commit; so a use case that writes 60 characters sends one statement, not 60.
A row that somebody else changed in between matches no row: the count comes up short and the
unit of work raises StaleVersion. (PostgreSQL's asyncpg reports no count for an executemany, so
there each row is its own statement, still without the ORM's per-row bookkeeping.)
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, bindparam, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from fappo_bot.service.errors import StaleVersion
from fappo_bot.storage.errors import STALE_MESSAGE

#: `AsyncSession.info` key of the queued updates: (table, id, version read, new values)
PENDING = "fappo_pending_updates"


def queue_update(session: AsyncSession, row: Any, values: dict[str, Any]) -> None:
    """Put `values` on `row` (read in this transaction at `row.version`) and queue its UPDATE."""
    read_version = row.version
    for name, value in values.items():
        if name != "id":
            set_committed_value(row, name, value)
    table = cast(Table, type(row).__table__)
    session.info.setdefault(PENDING, []).append((table, values["id"], read_version, values))


async def flush_updates(session: AsyncSession) -> None:
    """Send the queued updates; StaleVersion when any row was changed by somebody else."""
    pending = session.info.pop(PENDING, None)
    if not pending:
        return
    batches: list[tuple[Table, tuple[str, ...], list[dict[str, Any]]]] = []
    for table, key, read_version, values in pending:
        columns = tuple(name for name in values if name != "id")
        params = {f"new_{name}": values[name] for name in columns}
        params["match_id"], params["match_version"] = key, read_version
        if batches and batches[-1][0] is table and batches[-1][1] == columns:
            batches[-1][2].append(params)
        else:
            batches.append((table, columns, [params]))
    many = session.bind is not None and session.bind.dialect.supports_sane_multi_rowcount
    for table, columns, rows in batches:
        statement = (
            update(table)
            .where(
                table.c.id == bindparam("match_id"),
                table.c.version == bindparam("match_version"),
            )
            .values({name: bindparam(f"new_{name}") for name in columns})
        )
        groups = [rows] if many else [[row] for row in rows]
        for group in groups:
            result = await session.execute(statement, group)
            assert isinstance(result, CursorResult)
            if result.rowcount != len(group):
                raise StaleVersion(STALE_MESSAGE)
