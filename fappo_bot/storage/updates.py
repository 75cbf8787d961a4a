"""Versioned updates, batched: `UPDATE ... WHERE id = ? AND version = <read>` per row, sent together.

`update` of a versioned record checks the version the transaction read, puts the new values on
the row as kept for the transaction (`repositories.Kept`) and queues the UPDATE. The queue goes
out before the next statement and at commit, one `executemany` per table and column set, so a use
case that writes 60 characters sends one statement, not 60. A row that somebody else changed in
between matches no row: the count comes up short and the unit of work raises StaleVersion.
(asyncpg reports no count for an executemany, so on PostgreSQL a batch of several rows is one
`UPDATE ... FROM (VALUES ...)` whose single count says the same.)
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from typing import Any

from sqlalchemy import Table, bindparam, column, update, values

from fappo_bot.service.errors import StaleVersion
from fappo_bot.storage.driver import Link, Sql
from fappo_bot.storage.errors import STALE_MESSAGE
from fappo_bot.storage.values import utc

#: a queued update: (table, id, version read, new values)
Pending = tuple[Table, Any, int, dict[str, Any]]


def queue_update(pending: list[Pending], table: Table, row: Any, new: dict[str, Any]) -> None:
    """Put `new` on `row` (a row of `table` as read in this transaction, at `row.version`;
    `repositories.Kept`) and queue its UPDATE of the columns that changed (and `version`): a
    resolution changes a character's state, not its sheet, and the sheet need not travel."""
    read_version = row.version
    changed = {"id": new["id"]}
    for name, value in new.items():
        if name == "version" or (name != "id" and not _same(getattr(row, name), value)):
            changed[name] = value
            setattr(row, name, value)
    pending.append((table, new["id"], read_version, changed))


def _same(stored: Any, value: Any) -> bool:
    """Whether a column keeps its value (SQLite gives times back without their UTC offset)."""
    if isinstance(stored, datetime) and isinstance(value, datetime):
        return utc(stored) == utc(value)
    return bool(stored == value)


async def flush_updates(link: Link, pending: list[Pending]) -> None:
    """Send the queued updates (and empty the queue); StaleVersion when any row was changed by
    somebody else."""
    if not pending:
        return
    queued = list(pending)
    pending.clear()
    # a row updated twice in the transaction: one UPDATE from the version first read, with every
    # column either changed (PostgreSQL's UPDATE ... FROM would apply only one of two matching
    # source rows)
    merged: dict[tuple[Table, Any], tuple[int, dict[str, Any]]] = {}
    for table, key, read_version, new_values in queued:
        first = merged.get((table, key))
        if first is None:
            merged[(table, key)] = (read_version, new_values)
        else:
            merged[(table, key)] = (first[0], {**first[1], **new_values})
    batches: list[tuple[Table, tuple[str, ...], list[dict[str, Any]]]] = []
    for (table, key), (read_version, new_values) in merged.items():
        columns = tuple(name for name in new_values if name != "id")
        params = {f"new_{name}": new_values[name] for name in columns}
        params["match_id"], params["match_version"] = key, read_version
        if batches and batches[-1][0] is table and batches[-1][1] == columns:
            batches[-1][2].append(params)
        else:
            batches.append((table, columns, [params]))
    for table, columns, rows in batches:
        if link.dialect.name == "postgresql" and len(rows) > 1:
            count = await link.execute(_from_values(table, columns, len(rows)), _flat(columns, rows))
        elif len(rows) == 1:
            count = await link.execute(_by_id(table, columns), rows[0])
        else:
            count = await link.execute_many(_by_id(table, columns), rows) or 0
        if count != len(rows):
            raise StaleVersion(STALE_MESSAGE)


_STATEMENTS: OrderedDict[tuple[Any, ...], Sql] = OrderedDict()
#: compiled UPDATE forms kept (by table, column set and, on PostgreSQL, batch size)
_STATEMENTS_LIMIT = 256


def _remembered(key: tuple[Any, ...], build: Any) -> Sql:
    found = _STATEMENTS.get(key)
    if found is None:
        found = _STATEMENTS[key] = Sql(build())
        if len(_STATEMENTS) > _STATEMENTS_LIMIT:
            _STATEMENTS.popitem(last=False)
    else:
        _STATEMENTS.move_to_end(key)
    return found


def _by_id(table: Table, columns: tuple[str, ...]) -> Sql:
    return _remembered(
        (table.name, columns),
        lambda: update(table)
        .where(
            table.c.id == bindparam("match_id"),
            table.c.version == bindparam("match_version"),
        )
        .values({name: bindparam(f"new_{name}", type_=table.c[name].type) for name in columns}),
    )


def _from_values(table: Table, columns: tuple[str, ...], count: int) -> Sql:
    """PostgreSQL: `UPDATE t SET ... FROM (VALUES ...) v WHERE t.id = v.id AND t.version = v.read`,
    one statement (one round trip) whose row count says whether every row still had its version."""

    def build() -> Any:
        names = ("match_id", "match_version", *(f"new_{name}" for name in columns))
        types = (table.c.id.type, table.c.version.type, *(table.c[name].type for name in columns))
        rows = [
            tuple(bindparam(f"{name}_{i}", type_=kind)
                  for name, kind in zip(names, types, strict=True))
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

    return _remembered((table.name, columns, count), build)


def _flat(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> dict[str, Any]:
    names = ("match_id", "match_version", *(f"new_{name}" for name in columns))
    return {f"{name}_{i}": row[name] for i, row in enumerate(rows) for name in names}
