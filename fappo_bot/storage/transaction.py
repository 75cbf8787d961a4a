"""One transaction (`Tx`) and what every repository does over it (`Repository`).

Every statement is a prebuilt `queries` statement run through the transaction's `driver.Link`.
The versioned tables (games, characters, turns, posts) keep the rows they read for the
transaction (`Kept`, the identity map's rule: the first read of a row is what later reads return,
so `update` checks the version the use case decided on); `update` queues
`UPDATE ... WHERE id = ? AND version = <read>` (`updates.py`), sent before the next statement and
at commit, and a row somebody else changed in between makes it StaleVersion instead of a lost
update. The other tables are read afresh and written at once. `add` is an INSERT run at once, so
a unique key clash is a Conflict at the call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table
from sqlalchemy.engine import Dialect

from fappo_bot.service.errors import NotFound, StaleVersion
from fappo_bot.storage import queries as q
from fappo_bot.storage.driver import NO_PARAMS, Link, Params, Sql
from fappo_bot.storage.errors import STALE_MESSAGE, reraise
from fappo_bot.storage.updates import Pending, flush_updates, queue_update
from fappo_bot.storage.values import current as current_remembered

if TYPE_CHECKING:
    from fappo_bot.storage.connection import Transactions


class Kept:
    """A row as read: the columns as attributes (the mappers read it like an ORM row). A row of a
    versioned table is kept for the transaction; an update puts its new values on it."""

    def __init__(self, columns: dict[str, Any]) -> None:
        self.__dict__.update(columns)


class Tx:
    """One transaction: where it runs (`connection.Transactions`), its link to the database
    once begun, and what it remembers until it ends. It begins at its first statement
    (`BEGIN IMMEDIATE` on SQLite when it may write)."""

    def __init__(self, source: Transactions) -> None:
        self.source = source
        self.dialect: Dialect = source.dialect
        self.sqlite = self.dialect.name == "sqlite"
        self.begun = False
        self._link: Link | None = None
        #: the versioned rows read in this transaction: {(table name, id): Kept}
        self.kept: dict[tuple[str, Any], Kept] = {}
        #: the versioned updates not sent yet
        self.pending: list[Pending] = []
        #: (channel_key, message_key) pairs known to have no post (read along by `at_play`)
        self.no_post: set[tuple[str, str]] = set()
        #: what a repository must still write before the transaction commits, by name, run in
        #: the order registered (`posts.py`: the orders in force of the turns an edit changed)
        self.before_commit: dict[str, Callable[[], Awaitable[None]]] = {}
        #: the turns whose orders in force an edit or a deletion may have changed (`posts.py`)
        self.stale_in_force: set[str] = set()
        #: row sets read once per transaction, until the repository that keeps one writes to
        #: its table: {(what, key): rows} (a game's characters, a turn's orders in force)
        self.row_sets: dict[tuple[str, str], Any] = {}
        #: the versioned tables this transaction wrote rows of (added or updated): a row set
        #: it reads of one of them may hold what it has not committed (`_load_versioned`)
        self.written: set[str] = set()
        #: the versioned rows it updated, by (table, id): once committed, the unit-of-work
        #: factory's row sets take them (`values.Remembered.committed`)
        self.updated: dict[tuple[str, Any], Kept] = {}
        #: whether an outbox message was added: its commit wakes the adapter's delivery
        self.queued = False

    @property
    def link(self) -> Link:
        if self._link is None:
            raise RuntimeError("the transaction has not begun")
        return self._link

    def _ready_now(self) -> Link | None:
        """The link, when a statement may go at once: begun, nothing queued (most of a
        transaction's statements); None when `_ready` has something to do first."""
        return self._link if self.begun and not self.pending else None

    async def _ready(self) -> Link:
        """Begin, if this is the first statement; send the queued updates before a statement
        that could read what they change."""
        if not self.begun:
            self._link = await self.source.begin()
            self.begun = True
        link = self.link
        if self.pending:
            await flush_updates(link, self.pending)
        return link

    async def fetch(self, sql: Sql, params: Params = NO_PARAMS) -> list[Sequence[Any]]:
        try:
            link = self._ready_now() or await self._ready()
            return await link.fetch(sql, params)
        except Exception as exc:
            reraise(exc, self._lost())

    async def execute(self, sql: Sql, params: Params = NO_PARAMS) -> int:
        try:
            link = self._ready_now() or await self._ready()
            return await link.execute(sql, params)
        except Exception as exc:
            reraise(exc, self._lost())

    async def insert(self, sql: Sql, rows: Sequence[Params]) -> None:
        """INSERT `rows` (one statement; nothing when there are none)."""
        if not rows:
            return
        try:
            link = self._ready_now() or await self._ready()
            if len(rows) == 1:
                await link.execute(sql, rows[0])
            else:
                await link.execute_many(sql, rows)
        except Exception as exc:
            reraise(exc, self._lost())

    async def commit(self) -> None:
        """Send what is queued and commit; StaleVersion when a versioned row lost its race."""
        if not self.begun:
            return
        while self.before_commit:
            name = next(iter(self.before_commit))
            await self.before_commit.pop(name)()
        try:
            await self._ready()
        except Exception as exc:
            reraise(exc, self._lost())
        self.begun = False  # from here on, a failure is the source's to clean up
        try:
            await self.source.commit()
        except Exception as exc:  # a connection lost now may have kept the COMMIT: in doubt
            reraise(exc, self._lost(), committing=True)
        cache = current_remembered.get()
        if self.updated and cache is not None:
            cache.committed(self.updated)

    def _lost(self) -> bool:
        return self._link is not None and self._link.lost()

    async def rollback(self) -> None:
        self.begun = False
        self.pending.clear()
        self.before_commit.clear()
        self.stale_in_force.clear()
        self.row_sets.clear()
        await self.source.rollback()


class Repository:
    """A port over one transaction (`Tx`): reads of rows, kept or fresh, and versioned updates."""

    def __init__(self, tx: Tx) -> None:
        self._tx = tx

    async def _rows(self, sql: Sql, table: Table, **params: Any) -> list[Any]:
        """The rows of a SELECT of `table`'s columns, read now."""
        compiled = sql.compiled(self._tx.dialect)
        return [Kept(compiled.columns(table, row)) for row in await self._tx.fetch(sql, params)]

    async def _first(self, sql: Sql, table: Table, **params: Any) -> Any:
        rows = await self._rows(sql, table, **params)
        return rows[0] if rows else None

    # ---- the versioned tables: rows kept for the transaction ----
    async def _load(self, table: Table, key: Any) -> Any:
        """The row with that id (None if there is none): read once per transaction."""
        kept = self._tx.kept.get((table.name, key))
        if kept is not None:  # read in this transaction already: no statement
            return kept
        return await self._load_first(table, q.BY_ID[table], id=key)

    async def _load_rows(
        self, table: Table, sql: Sql, *, fresh: bool = False, **params: Any
    ) -> list[Any]:
        """The rows of a SELECT of `table`, each as first read in this transaction (with
        `fresh`, as read now: SELECT ... FOR UPDATE)."""
        compiled = sql.compiled(self._tx.dialect)
        return [self._kept(table, compiled.columns(table, row), fresh)
                for row in await self._tx.fetch(sql, params)]

    async def _load_first(
        self, table: Table, sql: Sql, *, fresh: bool = False, **params: Any
    ) -> Any:
        rows = await self._load_rows(table, sql, fresh=fresh, **params)
        return rows[0] if rows else None

    def _kept(self, table: Table, columns: dict[str, Any], fresh: bool = False) -> Any:
        """The row with these column values as kept for the transaction: the first read of it
        (with `fresh`, these values)."""
        key = (table.name, columns["id"])
        kept = self._tx.kept.get(key)
        if kept is None:
            kept = self._tx.kept[key] = Kept(columns)
        elif fresh:
            kept.__dict__.update(columns)
        return kept

    async def _load_versioned(
        self, table: Table, what: tuple[str, str], versions: Sql, sql: Sql, **params: Any
    ) -> list[Any]:
        """`_load_rows(table, sql)` of a versioned table, where `versions` selects the same
        rows' ids and versions, in the same order: when they are those this unit-of-work
        factory last read `what` at (`values.Remembered.rows`), the rows are taken from that
        read, and only the ids and versions travel (not the sheets and states)."""
        name = table.name
        if self._remembered(what) is not None:
            kept = self._remembered(what, tuple(
                (name, key, version) for key, version in await self._tx.fetch(versions, params)))
            if kept is not None:
                return [self._kept(table, columns) for columns in kept]
        compiled = sql.compiled(self._tx.dialect)
        read = [compiled.columns(table, row) for row in await self._tx.fetch(sql, params)]
        self._remember(what, (name,), [(name, row) for row in read])
        return [self._kept(table, columns) for columns in read]

    @staticmethod
    def _remembered(what: tuple[str, str], now: tuple[tuple[str, Any, int], ...] | None = None
                    ) -> list[dict[str, Any]] | None:
        """The columns of the rows this unit-of-work factory keeps as `what`, when it keeps
        them at the (table, id, version) of each in `now` (without `now`: at any versions)."""
        cache = current_remembered.get()
        found = None if cache is None else cache.rows.get(what)
        if found is None or (now is not None and found[0] != now):
            return None
        return found[1]

    def _remember(self, what: tuple[str, str], of: tuple[str, ...],
                  rows: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Keep the rows just read as `what` (each with its table's name), a read of the tables
        `of`, for the factory's next read, unless this transaction wrote one of those tables:
        its read may hold what it has not committed, and it may roll back."""
        cache = current_remembered.get()
        if cache is not None and self._tx.written.isdisjoint(of):
            cache.keep_rows(what, (tuple((table, row["id"], row["version"]) for table, row in rows),
                                   [row for _table, row in rows]))

    async def _update(self, table: Table, values: dict[str, Any], what: str) -> None:
        self._tx.written.add(table.name)
        row = await self._load(table, values["id"])
        if row is None:
            raise NotFound(f"That {what} does not exist (any more).")
        if row.version != values["version"] - 1:
            raise StaleVersion(STALE_MESSAGE)
        queue_update(self._tx.pending, table, row, values)
        self._tx.updated[(table.name, values["id"])] = row
