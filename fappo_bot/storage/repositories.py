"""SQLAlchemy repositories: the ports of `fappo_bot.service.ports` over one `AsyncSession`.

Reads keep the rows they load for the transaction, so a row read once is found again without a
statement: the versioned tables (games, characters, turns, posts) by Core SELECTs into `Kept`
rows (cheaper than ORM instances), the others as ORM rows. `add` is a Core INSERT executed at
once, so a unique key clash is a Conflict at the call. `update` checks the version the service expects against the row as read, puts the new
values on the row and queues `UPDATE ... WHERE id = ? AND version = <read>` (`updates.py`): the
queue goes out in batches before the next read and at commit, and a row somebody else changed
in between makes it StaleVersion instead of a lost update.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from fappo_bot.service.errors import NotFound, StaleVersion
from fappo_bot.service.ports import GameAtPlay
from fappo_bot.service.records import (
    AuditEntry,
    CharacterRecord,
    Game,
    GameStatus,
    LedgerEntry,
    Membership,
    OutboxMessage,
    Post,
    PostRevision,
    Resolution,
    Role,
    Turn,
    TurnStatus,
)
from fappo_bot.storage import mappers as m
from fappo_bot.storage import queries as q
from fappo_bot.storage.errors import STALE_MESSAGE, database_errors
from fappo_bot.storage.tables import (
    AuditRow,
    Base,
    CharacterRow,
    GameRow,
    LedgerRow,
    MembershipRow,
    OrderRow,
    OutboxRow,
    PostRevisionRow,
    PostRow,
    ResolutionRow,
    TurnRow,
)
from fappo_bot.storage.updates import flush_updates, queue_update
from fappo_bot.storage.values import to_db_time

#: `AsyncSession.info` key of the ORM rows read in the current transaction (cleared at its end)
KEPT_ROWS = "fappo_kept_rows"
#: `AsyncSession.info` key of the versioned rows (games, characters, turns, posts) read by Core in
#: the current transaction: {(table name, id): Kept} (cleared at its end)
READ_ROWS = "fappo_read_rows"
#: `AsyncSession.info` key of the (channel_key, message_key) pairs known to have no post in the
#: current transaction (read along by `SqlGames.at_play` on SQLite; cleared at its end)
NO_POST = "fappo_no_post"


class Kept:
    """A versioned row as read in this transaction: the columns as attributes (the mappers read
    it like an ORM row). The first read of a row is kept for the transaction, like the ORM's
    identity map: a later read of the same row returns it unchanged, so `update` checks the
    version the use case decided on. An update puts its new values on it."""

    def __init__(self, columns: Any) -> None:
        self.__dict__.update(columns)


class _Repository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def _add(self, row_type: type[Base], *rows: dict[str, Any]) -> None:
        await self._add_all((row_type, rows))

    async def _add_all(self, *batches: tuple[type[Base], Sequence[dict[str, Any]]]) -> None:
        """Core INSERTs, executed now and in order: no ORM flush bookkeeping on the hot path, and
        one call into SQLAlchemy's async layer for all of them (the post, its revision and its
        orders). A row added here is read from the database when it is next read."""
        work = [
            (q.insert_into(row_type), rows[0] if len(rows) == 1 else list(rows))
            for row_type, rows in batches
            if rows
        ]
        if not work:
            return
        await self._flush()

        def insert(session: Session) -> None:
            for statement, params in work:
                session.execute(statement, params)

        async with database_errors():
            await self._session.run_sync(insert)

    async def _update(self, table: Table, values: dict[str, Any], what: str) -> None:
        row = await self._load(table, values["id"])
        if row is None:
            raise NotFound(f"That {what} does not exist (any more).")
        if row.version != values["version"] - 1:
            raise StaleVersion(STALE_MESSAGE)
        queue_update(self._session, table, row, values)

    async def _flush(self) -> None:
        """Send the queued updates before a statement that could read what they change."""
        async with database_errors():
            await flush_updates(self._session)

    def _keep(self, rows: Sequence[Any]) -> None:
        # The identity map holds rows weakly; holding them for the transaction lets `update` and
        # `lock` (SQLite) find a row read earlier without reading it again.
        self._session.info.setdefault(KEPT_ROWS, []).extend(rows)

    async def _get(self, row_type: type[Any], key: Any) -> Any:
        ident = key if isinstance(key, tuple) else (key,)
        row = self._session.sync_session.identity_map.get(identity_key(row_type, ident))
        if row is not None:  # read in this transaction already: no statement, no flush
            return row
        await self._flush()
        async with database_errors():
            row = await self._session.get(row_type, key)
        if row is not None:
            self._keep([row])
        return row

    async def _rows(self, statement: Any, **params: Any) -> Sequence[Any]:
        await self._flush()
        async with database_errors():
            rows = (await self._session.scalars(statement, params)).all()
        self._keep(rows)
        return rows

    # ---- the versioned tables, read by Core (queries.py) ----
    def _read(self) -> dict[tuple[str, Any], Kept]:
        read: dict[tuple[str, Any], Kept] = self._session.info.setdefault(READ_ROWS, {})
        return read

    async def _load(self, table: Table, key: Any) -> Any:
        """The row with that id (None if there is none): read once per transaction."""
        kept = self._read().get((table.name, key))
        if kept is not None:  # read in this transaction already: no statement, no flush
            return kept
        return await self._load_first(table, q.BY_ID[table], id=key)

    async def _load_rows(
        self, table: Table, statement: Any, *, fresh: bool = False, **params: Any
    ) -> list[Any]:
        """The rows of a Core SELECT of `table`, each as first read in this transaction (with
        `fresh`, as read now: SELECT ... FOR UPDATE)."""
        await self._flush()
        async with database_errors():
            result = await self._session.execute(statement, params)
        return [self._kept(table, columns, fresh) for columns in result.mappings()]

    def _kept(self, table: Table, columns: Any, fresh: bool = False) -> Any:
        """The row with these column values as kept for the transaction: the first read of it
        (with `fresh`, these values)."""
        read = self._read()
        key = (table.name, columns["id"])
        kept = read.get(key)
        if kept is None:
            kept = read[key] = Kept(columns)
        elif fresh:
            kept.__dict__.update(columns)
        return kept

    async def _load_first(
        self, table: Table, statement: Any, *, fresh: bool = False, **params: Any
    ) -> Any:
        rows = await self._load_rows(table, statement, fresh=fresh, **params)
        return rows[0] if rows else None

    async def _first(self, statement: Any, **params: Any) -> Any:
        """The first row of a statement that has its LIMIT 1."""
        await self._flush()
        async with database_errors():
            row = (await self._session.scalars(statement, params)).first()
        if row is not None:
            self._keep([row])
        return row


class SqlGames(_Repository):
    async def add(self, game: Game) -> None:
        await self._add(GameRow, m.game_values(game))

    async def get(self, game_id: str) -> Game | None:
        row = await self._load(q.GAMES, game_id)
        return None if row is None else m.game_record(row)

    async def by_channel(self, channel_key: str) -> Game | None:
        row = await self._load_first(q.GAMES, q.GAME_BY_CHANNEL, channel_key=channel_key)
        return None if row is None else m.game_record(row)

    async def at_play(
        self, game_id: str, user_id: str, message: tuple[str, str] | None = None
    ) -> GameAtPlay | None:
        """One SELECT: the game, its latest turn and the user's roles (a LEFT JOIN each).

        On SQLite, whether a post of `message` exists is read along: a SQLite transaction reads
        one snapshot (and a writer holds the write lock from BEGIN IMMEDIATE), so the answer
        holds for the rest of the transaction unless it adds that post itself (`SqlPosts.add`
        forgets it). On PostgreSQL (READ COMMITTED) a post committed after this read must still
        be seen after `lock_turn`, so `by_message` reads then."""
        bind = self._session.bind
        along = message is not None and bind is not None and bind.dialect.name == "sqlite"
        await self._flush()
        async with database_errors():
            if along and message is not None:
                result = await self._session.execute(
                    q.GAME_AT_PLAY_MESSAGE,
                    {"id": game_id, "user_id": user_id, "channel_key": message[0],
                     "message_key": message[1]},
                )
            else:
                result = await self._session.execute(
                    q.GAME_AT_PLAY, {"id": game_id, "user_id": user_id}
                )
        rows = result.all()
        if not rows:
            return None
        first = rows[0]._mapping
        if along and message is not None and not first["message_taken"]:
            self._session.info.setdefault(NO_POST, set()).add(message)
        game = self._kept(q.GAMES, {c.name: first[c] for c in q.GAMES.c})
        turn = None
        if first[q.TURNS.c.id] is not None:
            turn = m.turn_record(self._kept(q.TURNS, {c.name: first[c] for c in q.TURNS.c}))
        role = q.MEMBERSHIPS.c.role
        roles = frozenset(Role(row._mapping[role]) for row in rows if row._mapping[role])
        return GameAtPlay(m.game_record(game), turn, roles)

    async def update(self, game: Game) -> None:
        await self._update(q.GAMES, m.game_values(game), "game")

    async def list(self, status: GameStatus | None = None) -> Sequence[Game]:
        statement = q.GAMES_BY_AGE
        if status is not None:
            statement = statement.where(q.GAMES.c.status == status.value)
        return [m.game_record(row) for row in await self._load_rows(q.GAMES, statement)]


class SqlMembers(_Repository):
    async def add(self, membership: Membership) -> None:
        key = (membership.game_id, membership.user_id, membership.role.value)
        if await self._get(MembershipRow, key) is None:
            await self._add(MembershipRow, m.membership_values(membership))

    async def remove(self, game_id: str, user_id: str, role: Role) -> bool:
        row = await self._get(MembershipRow, (game_id, user_id, role.value))
        if row is None:
            return False
        async with database_errors():
            await self._session.delete(row)
            await self._session.flush()
        return True

    async def list(self, game_id: str) -> Sequence[Membership]:
        # a Core read (no ORM instances): `add` and `remove` read the row they need themselves
        await self._flush()
        async with database_errors():
            result = await self._session.execute(q.MEMBERS_OF_GAME, {"game_id": game_id})
        rows: Sequence[Any] = result.all()
        return [m.membership_record(row) for row in rows]

    async def games_of(self, user_id: str) -> Sequence[Membership]:
        statement = (
            select(MembershipRow)
            .where(MembershipRow.user_id == user_id)
            .order_by(MembershipRow.game_id, MembershipRow.role)
        )
        return [m.membership_record(row) for row in await self._rows(statement)]


class SqlCharacters(_Repository):
    async def add(self, character: CharacterRecord) -> None:
        await self._add(CharacterRow, m.character_values(character))

    async def get(self, character_id: str) -> CharacterRecord | None:
        row = await self._load(q.CHARACTERS, character_id)
        return None if row is None else m.character_record(row)

    async def by_name(self, game_id: str, name: str) -> CharacterRecord | None:
        row = await self._load_first(
            q.CHARACTERS, q.CHARACTER_BY_NAME, game_id=game_id, name_key=name.casefold()
        )
        return None if row is None else m.character_record(row)

    async def list(self, game_id: str) -> Sequence[CharacterRecord]:
        rows = await self._load_rows(q.CHARACTERS, q.CHARACTERS_OF_GAME, game_id=game_id)
        return [m.character_record(row) for row in rows]

    async def update(self, character: CharacterRecord) -> None:
        await self._update(q.CHARACTERS, m.character_values(character), "character")


class SqlTurns(_Repository):
    async def add(self, turn: Turn) -> None:
        await self._add(TurnRow, m.turn_values(turn))

    async def get(self, turn_id: str) -> Turn | None:
        row = await self._load(q.TURNS, turn_id)
        return None if row is None else m.turn_record(row)

    async def latest(self, game_id: str) -> Turn | None:
        row = await self._load_first(q.TURNS, q.LATEST_TURN, game_id=game_id)
        return None if row is None else m.turn_record(row)

    async def list(self, game_id: str) -> Sequence[Turn]:
        rows = await self._load_rows(q.TURNS, q.TURNS_OF_GAME, game_id=game_id)
        return [m.turn_record(row) for row in rows]

    async def update(self, turn: Turn) -> None:
        await self._update(q.TURNS, m.turn_values(turn), "turn")

    async def due(self, now: datetime) -> Sequence[Turn]:
        turns = q.TURNS
        statement = (
            select(turns)
            .where(
                turns.c.status == TurnStatus.OPEN.value,
                turns.c.paused.is_(False),
                turns.c.alarm_at.is_not(None),
                turns.c.alarm_at <= to_db_time(now),
            )
            .order_by(turns.c.alarm_at, turns.c.id)
        )
        return [m.turn_record(row) for row in await self._load_rows(turns, statement)]

    async def lock(self, turn_id: str) -> Turn:
        """The turn as committed now, locked (FOR UPDATE on PostgreSQL) until the transaction ends.

        On SQLite the unit of work's `BEGIN IMMEDIATE` holds the database's write lock already.
        """
        bind = self._session.bind
        if bind is not None and bind.dialect.name == "sqlite":
            # BEGIN IMMEDIATE: nobody else has written since this transaction began, so a row
            # already read in it is current (no statement needed); else it is read now.
            row = await self._load(q.TURNS, turn_id)
        else:
            row = await self._load_first(q.TURNS, q.TURN_FOR_UPDATE, fresh=True, id=turn_id)
        if row is None:
            raise NotFound("That turn does not exist (any more).")
        return m.turn_record(row)


class SqlPosts(_Repository):
    async def add(self, post: Post, revision: PostRevision) -> None:
        no_post: set[tuple[str, str]] | None = self._session.info.get(NO_POST)
        if no_post:
            no_post.discard((post.channel_key, post.message_key))
        revision_values, order_values = m.revision_values(revision)
        await self._add_all(
            (PostRow, [m.post_values(post)]),
            (PostRevisionRow, [revision_values]),
            (OrderRow, order_values),
        )

    async def get(self, post_id: str) -> Post | None:
        row = await self._load(q.POSTS, post_id)
        return None if row is None else m.post_record(row)

    async def by_message(self, channel_key: str, message_key: str) -> Post | None:
        no_post = self._session.info.get(NO_POST)
        if no_post and (channel_key, message_key) in no_post:
            return None  # read along by `SqlGames.at_play` in this transaction
        row = await self._load_first(
            q.POSTS, q.POST_BY_MESSAGE, channel_key=channel_key, message_key=message_key
        )
        return None if row is None else m.post_record(row)

    async def update(self, post: Post) -> None:
        await self._update(q.POSTS, m.post_values(post), "post")

    async def add_revision(self, revision: PostRevision) -> None:
        revision_values, order_values = m.revision_values(revision)
        await self._add_all((PostRevisionRow, [revision_values]), (OrderRow, order_values))

    async def revisions(self, post_id: str) -> Sequence[PostRevision]:
        revisions = await self._rows(q.REVISIONS_OF_POST, post_id=post_id)
        orders = await self._rows(q.ORDERS_OF_POST, post_id=post_id)
        by_revision: dict[int, list[OrderRow]] = {}
        for order in orders:
            by_revision.setdefault(order.revision, []).append(order)
        return [m.revision_record(row, by_revision.get(row.number, [])) for row in revisions]

    async def list(self, turn_id: str, include_deleted: bool = False) -> Sequence[Post]:
        statement = q.POSTS_OF_TURN if include_deleted else q.LIVE_POSTS_OF_TURN
        rows = await self._load_rows(q.POSTS, statement, turn_id=turn_id)
        return [m.post_record(row) for row in rows]

    async def latest_revisions(self, turn_id: str) -> Sequence[tuple[Post, PostRevision]]:
        await self._flush()
        async with database_errors():
            pairs = (await self._session.execute(q.NEWEST_REVISIONS, {"turn_id": turn_id})).all()
            orders = (await self._session.scalars(q.NEWEST_ORDERS, {"turn_id": turn_id})).all()
        by_post: dict[str, list[OrderRow]] = {}
        for order in orders:
            by_post.setdefault(order.post_id, []).append(order)
        return [
            (m.post_record(post), m.revision_record(revision, by_post.get(post.id, [])))
            for post, revision in pairs
        ]


class SqlResolutions(_Repository):
    async def add(self, resolution: Resolution) -> None:
        await self._add(ResolutionRow, m.resolution_values(resolution))

    async def get(self, resolution_id: str) -> Resolution | None:
        row = await self._get(ResolutionRow, resolution_id)
        return None if row is None else m.resolution_record(row)

    async def for_turn(self, turn_id: str) -> Resolution | None:
        statement = (
            select(ResolutionRow)
            .where(ResolutionRow.turn_id == turn_id, ResolutionRow.undone.is_(False))
            .order_by(ResolutionRow.created_at.desc(), ResolutionRow.id.desc())
            .limit(1)
        )
        row = await self._first(statement)
        return None if row is None else m.resolution_record(row)

    async def latest(self, game_id: str) -> Resolution | None:
        statement = (
            select(ResolutionRow)
            .where(ResolutionRow.game_id == game_id, ResolutionRow.undone.is_(False))
            .order_by(ResolutionRow.created_at.desc(), ResolutionRow.turn_number.desc())
            .limit(1)
        )
        row = await self._first(statement)
        return None if row is None else m.resolution_record(row)

    async def mark_undone(self, resolution_id: str, at: datetime) -> None:
        row = await self._get(ResolutionRow, resolution_id)
        if row is None:
            raise NotFound("That resolution does not exist.")
        row.undone = True
        row.undone_at = to_db_time(at)


class SqlOutbox(_Repository):
    async def add(self, message: OutboxMessage) -> bool:
        values = m.outbox_values(message)
        dialect = self._session.bind.dialect.name if self._session.bind is not None else ""
        insert = pg_insert if dialect == "postgresql" else sqlite_insert
        statement = (
            insert(cast(Table, OutboxRow.__table__))
            .values(**values)
            .on_conflict_do_nothing(index_elements=["dedupe_key"])
        )
        async with database_errors():
            result = await self._session.execute(statement)
        assert isinstance(result, CursorResult)
        return result.rowcount == 1

    async def add_many(self, messages: Sequence[OutboxMessage]) -> int:
        return sum([await self.add(message) for message in messages])

    async def get(self, message_id: str) -> OutboxMessage | None:
        row = await self._get(OutboxRow, message_id)
        return None if row is None else m.outbox_record(row)

    async def pending(self, limit: int = 100) -> Sequence[OutboxMessage]:
        statement = (
            select(OutboxRow)
            .where(OutboxRow.sent_at.is_(None))
            .order_by(OutboxRow.created_at, OutboxRow.id)
            .limit(limit)
        )
        return [m.outbox_record(row) for row in await self._rows(statement)]

    async def for_game(self, game_id: str) -> Sequence[OutboxMessage]:
        statement = (
            select(OutboxRow)
            .where(OutboxRow.game_id == game_id)
            .order_by(OutboxRow.created_at, OutboxRow.id)
        )
        return [m.outbox_record(row) for row in await self._rows(statement)]

    async def mark_sent(self, message_id: str, at: datetime) -> None:
        row = await self._message(message_id)
        if row.sent_at is None:  # the first delivery's time stays
            row.sent_at = to_db_time(at)

    async def mark_failed(self, message_id: str, error: str) -> None:
        row = await self._message(message_id)
        row.attempts += 1
        row.last_error = error

    async def _message(self, message_id: str) -> OutboxRow:
        row = await self._get(OutboxRow, message_id)
        if row is None:
            raise NotFound("That message is not in the outbox.")
        assert isinstance(row, OutboxRow)
        return row


class SqlAudit(_Repository):
    async def add(self, entry: AuditEntry) -> None:
        await self._add(AuditRow, m.audit_values(entry))

    async def list(self, game_id: str, limit: int | None = None) -> Sequence[AuditEntry]:
        statement = select(AuditRow).where(AuditRow.game_id == game_id)
        if limit:
            newest = statement.order_by(AuditRow.at.desc(), AuditRow.id.desc()).limit(limit)
            return [m.audit_record(row) for row in reversed(await self._rows(newest))]
        statement = statement.order_by(AuditRow.at, AuditRow.id)
        return [m.audit_record(row) for row in await self._rows(statement)]


class SqlLedger(_Repository):
    async def add(self, entry: LedgerEntry) -> None:
        await self._add(LedgerRow, m.ledger_values(entry))

    async def for_player(self, player: str) -> Sequence[LedgerEntry]:
        statement = (
            select(LedgerRow).where(LedgerRow.player == player).order_by(LedgerRow.at, LedgerRow.id)
        )
        return [m.ledger_record(row) for row in await self._rows(statement)]
