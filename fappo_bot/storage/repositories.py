"""The repositories: the ports of `fappo_bot.service.ports` over one transaction (`Tx`).

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

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table
from sqlalchemy.engine import Dialect

from fappo_bot.service.errors import NotFound, StaleVersion
from fappo_bot.service.ports import GameAtPlay, OpenGame
from fappo_bot.service.records import (
    AuditEntry,
    CharacterRecord,
    DestinationKind,
    Game,
    GameStatus,
    LedgerEntry,
    Membership,
    OutboxMessage,
    Post,
    PostRevision,
    Resolution,
    Role,
    TurnRecord,
    UserName,
)
from fappo_bot.storage import mappers as m
from fappo_bot.storage import queries as q
from fappo_bot.storage.driver import NO_PARAMS, Link, Params, Sql
from fappo_bot.storage.errors import STALE_MESSAGE, reraise
from fappo_bot.storage.updates import Pending, flush_updates, queue_update
from fappo_bot.storage.values import utc

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

    @property
    def link(self) -> Link:
        if self._link is None:
            raise RuntimeError("the transaction has not begun")
        return self._link

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
            return await (await self._ready()).fetch(sql, params)
        except Exception as exc:
            reraise(exc, self._lost())

    async def execute(self, sql: Sql, params: Params = NO_PARAMS) -> int:
        try:
            return await (await self._ready()).execute(sql, params)
        except Exception as exc:
            reraise(exc, self._lost())

    async def insert(self, sql: Sql, rows: Sequence[Params]) -> None:
        """INSERT `rows` (one statement; nothing when there are none)."""
        if not rows:
            return
        try:
            link = await self._ready()
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
        try:
            await self._ready()
        except Exception as exc:
            reraise(exc, self._lost())
        self.begun = False  # from here on, a failure is the source's to clean up
        try:
            await self.source.commit()
        except Exception as exc:  # a connection lost now may have kept the COMMIT: in doubt
            reraise(exc, self._lost(), committing=True)

    def _lost(self) -> bool:
        return self._link is not None and self._link.lost()

    async def rollback(self) -> None:
        self.begun = False
        self.pending.clear()
        await self.source.rollback()


class _Repository:
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

    async def _update(self, table: Table, values: dict[str, Any], what: str) -> None:
        row = await self._load(table, values["id"])
        if row is None:
            raise NotFound(f"That {what} does not exist (any more).")
        if row.version != values["version"] - 1:
            raise StaleVersion(STALE_MESSAGE)
        queue_update(self._tx.pending, table, row, values)


class SqlGames(_Repository):
    async def add(self, game: Game) -> None:
        await self._tx.insert(q.INSERT[q.GAMES], [m.game_values(game)])

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
        along = message is not None and self._tx.sqlite
        sql = q.GAME_AT_PLAY_MESSAGE if along else q.GAME_AT_PLAY
        params: dict[str, Any] = {"id": game_id, "user_id": user_id}
        if along and message is not None:
            params["channel_key"], params["message_key"] = message
        rows = await self._tx.fetch(sql, params)
        if not rows:
            return None
        compiled = sql.compiled(self._tx.dialect)
        first = rows[0]
        if along and message is not None and not first[compiled.position(q.MESSAGE_TAKEN)]:
            self._tx.no_post.add(message)
        game = self._kept(q.GAMES, compiled.columns(q.GAMES, first))
        turn = None
        if first[compiled.position(q.TURNS.c.id)] is not None:
            turn = m.turn_record(self._kept(q.TURNS, compiled.columns(q.TURNS, first)))
        role = compiled.position(q.MEMBERSHIPS.c.role)
        roles = frozenset(Role(row[role]) for row in rows if row[role])
        return GameAtPlay(m.game_record(game), turn, roles)

    async def with_open_turns(self) -> Sequence[OpenGame]:
        """One SELECT: the games, their open turns and their members (a row per member)."""
        sql = q.GAMES_WITH_OPEN_TURNS
        compiled = sql.compiled(self._tx.dialect)
        member = compiled.position(q.MEMBERSHIPS.c.user_id)
        found: dict[str, tuple[Game, TurnRecord, dict[str, None]]] = {}
        for row in await self._tx.fetch(sql):
            game_id = row[compiled.position(q.GAMES.c.id)]
            entry = found.get(game_id)
            if entry is None:
                game = m.game_record(self._kept(q.GAMES, compiled.columns(q.GAMES, row)))
                turn = m.turn_record(self._kept(q.TURNS, compiled.columns(q.TURNS, row)))
                entry = found[game_id] = (game, turn, {})
            if row[member] is not None:
                entry[2][row[member]] = None
        return [OpenGame(game, turn, tuple(members)) for game, turn, members in found.values()]

    async def update(self, game: Game) -> None:
        await self._update(q.GAMES, m.game_values(game), "game")

    async def list(self, status: GameStatus | None = None) -> Sequence[Game]:
        if status is None:
            rows = await self._load_rows(q.GAMES, q.GAMES_BY_AGE)
        else:
            rows = await self._load_rows(q.GAMES, q.GAMES_BY_STATUS, status=status.value)
        return [m.game_record(row) for row in rows]


class SqlMembers(_Repository):
    async def add(self, membership: Membership) -> None:
        """Nothing happens when the member already has that role."""
        await self._tx.insert(q.MEMBERSHIP_INSERT, [m.membership_values(membership)])

    async def remove(self, game_id: str, user_id: str, role: Role) -> bool:
        params = {"game_id": game_id, "user_id": user_id, "role": role.value}
        return await self._tx.execute(q.MEMBERSHIP_DELETE, params) > 0

    async def list(self, game_id: str) -> Sequence[Membership]:
        rows = await self._rows(q.MEMBERS_OF_GAME, q.MEMBERSHIPS, game_id=game_id)
        return [m.membership_record(row) for row in rows]

    async def games_of(self, user_id: str) -> Sequence[Membership]:
        rows = await self._rows(q.GAMES_OF_USER, q.MEMBERSHIPS, user_id=user_id)
        return [m.membership_record(row) for row in rows]


class SqlCharacters(_Repository):
    async def add(self, character: CharacterRecord) -> None:
        await self._tx.insert(q.INSERT[q.CHARACTERS], [m.character_values(character)])

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
    async def add(self, turn: TurnRecord) -> None:
        await self._tx.insert(q.INSERT[q.TURNS], [m.turn_values(turn)])

    async def get(self, turn_id: str) -> TurnRecord | None:
        row = await self._load(q.TURNS, turn_id)
        return None if row is None else m.turn_record(row)

    async def latest(self, game_id: str) -> TurnRecord | None:
        row = await self._load_first(q.TURNS, q.LATEST_TURN, game_id=game_id)
        return None if row is None else m.turn_record(row)

    async def by_number(self, game_id: str, number: int) -> TurnRecord | None:
        row = await self._load_first(q.TURNS, q.TURN_BY_NUMBER, game_id=game_id, number=number)
        return None if row is None else m.turn_record(row)

    async def list(self, game_id: str) -> Sequence[TurnRecord]:
        rows = await self._load_rows(q.TURNS, q.TURNS_OF_GAME, game_id=game_id)
        return [m.turn_record(row) for row in rows]

    async def update(self, turn: TurnRecord) -> None:
        await self._update(q.TURNS, m.turn_values(turn), "turn")

    async def due(self, now: datetime) -> Sequence[TurnRecord]:
        rows = await self._load_rows(q.TURNS, q.TURNS_DUE, now=utc(now))
        return [m.turn_record(row) for row in rows]

    async def lock(self, turn_id: str) -> TurnRecord:
        """The turn as committed now, locked (FOR UPDATE on PostgreSQL) until the transaction ends.

        On SQLite the unit of work's `BEGIN IMMEDIATE` holds the database's write lock already.
        """
        if self._tx.sqlite:
            # BEGIN IMMEDIATE: nobody else has written since this transaction began, so a row
            # already read in it is current (no statement needed); else it is read now.
            row = await self._load(q.TURNS, turn_id)
        else:
            row = await self._load_first(q.TURNS, q.TURN_FOR_UPDATE, fresh=True, id=turn_id)
        if row is None:
            raise NotFound("That turn does not exist (any more).")
        return m.turn_record(row)


#: up to this many posts holding orders in force are read one by one; more, with the turn's
_FEW_POSTS = 4


class SqlPosts(_Repository):
    async def add(self, post: Post, revision: PostRevision) -> None:
        self._tx.no_post.discard((post.channel_key, post.message_key))
        await self._tx.insert(q.INSERT[q.POSTS], [m.post_values(post)])
        await self._add_revision(revision)

    async def _add_revision(self, revision: PostRevision) -> None:
        revision_values, order_values = m.revision_values(revision)
        await self._tx.insert(q.INSERT[q.REVISIONS], [revision_values])
        await self._tx.insert(q.INSERT[q.ORDERS], order_values)

    async def get(self, post_id: str) -> Post | None:
        row = await self._load(q.POSTS, post_id)
        return None if row is None else m.post_record(row)

    async def by_message(self, channel_key: str, message_key: str) -> Post | None:
        if (channel_key, message_key) in self._tx.no_post:
            return None  # read along by `SqlGames.at_play` in this transaction
        row = await self._load_first(
            q.POSTS, q.POST_BY_MESSAGE, channel_key=channel_key, message_key=message_key
        )
        return None if row is None else m.post_record(row)

    async def update(self, post: Post) -> None:
        await self._update(q.POSTS, m.post_values(post), "post")

    async def add_revision(self, revision: PostRevision) -> None:
        await self._add_revision(revision)

    async def revisions(self, post_id: str) -> Sequence[PostRevision]:
        revisions = await self._rows(q.REVISIONS_OF_POST, q.REVISIONS, post_id=post_id)
        orders = await self._rows(q.ORDERS_OF_POST, q.ORDERS, post_id=post_id)
        by_revision: dict[int, list[Any]] = {}
        for order in orders:
            by_revision.setdefault(order.revision, []).append(order)
        return [m.revision_record(row, by_revision.get(row.number, [])) for row in revisions]

    async def list(self, turn_id: str, include_deleted: bool = False) -> Sequence[Post]:
        sql = q.POSTS_OF_TURN if include_deleted else q.LIVE_POSTS_OF_TURN
        rows = await self._load_rows(q.POSTS, sql, turn_id=turn_id)
        return [m.post_record(row) for row in rows]

    async def latest_revisions(
        self, turn_id: str, actors: Collection[str] | None = None,
        only: Collection[str] | None = None,
    ) -> Sequence[tuple[Post, PostRevision]]:
        """(`only`: those posts' alone; the others are read but not built.)"""
        sql = q.NEWEST_REVISIONS
        compiled = sql.compiled(self._tx.dialect)
        pairs = await self._tx.fetch(sql, {"turn_id": turn_id})
        orders = await self._rows(q.NEWEST_ORDERS, q.ORDERS, turn_id=turn_id)
        by_post: dict[str, list[Any]] = {}
        for order in orders:
            if actors is None or order.actor.casefold() in actors:  # parsed only when wanted
                by_post.setdefault(order.post_id, []).append(order)
        found = []
        id_at = compiled.position(q.POSTS.c.id)
        for row in pairs:
            if only is not None and row[id_at] not in only:
                continue
            post = self._kept(q.POSTS, compiled.columns(q.POSTS, row))
            revision: Any = Kept(compiled.columns(q.REVISIONS, row))
            found.append(
                (m.post_record(post), m.revision_record(revision, by_post.get(post.id, [])))
            )
        return found

    async def in_force_revisions(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> Sequence[tuple[Post, PostRevision]]:
        # Which post wrote each character's orders last is found by the database from the
        # orders' actors alone (no order's body; a row per name as written, more on a tie), so
        # a turn of many posts reads back and builds only the few that still hold orders: a
        # post's cost no longer grows with the posts before it.
        heads = await self._tx.fetch(q.NEWEST_HEADS, {"turn_id": turn_id})
        last: dict[str, tuple[Any, ...]] = {}
        for post_id, updated, created, actor in heads:
            folded = actor.casefold()
            if actors is not None and folded not in actors:
                continue
            key = (created, updated, post_id)  # as stored: UTC, naive on SQLite, in order
            if folded not in last or last[folded] < key:
                last[folded] = key
        wanted = {key[2] for key in last.values()}
        if len(wanted) > _FEW_POSTS:  # many: the turn's rows in two statements, the rest unbuilt
            return await self.latest_revisions(turn_id, actors, wanted)
        found = []
        sql = q.NEWEST_REVISION_OF_POST
        compiled = sql.compiled(self._tx.dialect)
        for post_id in wanted:
            rows = await self._tx.fetch(sql, {"post_id": post_id})
            if not rows:  # gone since (another process, PostgreSQL's READ COMMITTED)
                continue
            row = rows[0]
            post = self._kept(q.POSTS, compiled.columns(q.POSTS, row))
            revision: Any = Kept(compiled.columns(q.REVISIONS, row))
            orders = [order for order in await self._rows(
                q.ORDERS_OF_REVISION, q.ORDERS, post_id=post_id, revision=post.revision)
                if actors is None or order.actor.casefold() in actors]
            found.append((m.post_record(post), m.revision_record(revision, orders)))
        found.sort(key=lambda pair: (pair[0].updated_at, pair[0].id))
        return found


class SqlResolutions(_Repository):
    async def add(self, resolution: Resolution) -> None:
        await self._tx.insert(q.INSERT[q.RESOLUTIONS], [m.resolution_values(resolution)])

    async def get(self, resolution_id: str) -> Resolution | None:
        row = await self._first(q.BY_ID[q.RESOLUTIONS], q.RESOLUTIONS, id=resolution_id)
        return None if row is None else m.resolution_record(row)

    async def for_turn(self, turn_id: str) -> Resolution | None:
        row = await self._first(q.RESOLUTION_FOR_TURN, q.RESOLUTIONS, turn_id=turn_id)
        return None if row is None else m.resolution_record(row)

    async def latest(self, game_id: str) -> Resolution | None:
        row = await self._first(q.LATEST_RESOLUTION, q.RESOLUTIONS, game_id=game_id)
        return None if row is None else m.resolution_record(row)

    async def mark_undone(self, resolution_id: str, at: datetime) -> None:
        params = {"match_id": resolution_id, "undone_at": utc(at)}
        if not await self._tx.execute(q.RESOLUTION_UNDONE, params):
            raise NotFound("That resolution does not exist.")


class SqlOutbox(_Repository):
    async def add(self, message: OutboxMessage) -> bool:
        return await self._tx.execute(q.OUTBOX_INSERT, m.outbox_values(message)) == 1

    async def add_many(self, messages: Sequence[OutboxMessage]) -> None:
        await self._tx.insert(q.OUTBOX_INSERT, [m.outbox_values(message) for message in messages])

    async def get(self, message_id: str) -> OutboxMessage | None:
        row = await self._first(q.BY_ID[q.OUTBOX], q.OUTBOX, id=message_id)
        return None if row is None else m.outbox_record(row)

    async def pending(
        self, now: datetime, limit: int = 100, dest_keys: Collection[str] | None = None,
        dest_kind: DestinationKind | None = None,
    ) -> Sequence[OutboxMessage]:
        params: dict[str, Any] = {"now": utc(now), "limit": limit}
        if dest_kind is not None:
            if dest_keys is not None:  # not asked of it by the adapters: filtered here
                return [m for m in await self.pending(now, limit, dest_keys)
                        if m.dest_kind is dest_kind]
            sql = q.OUTBOX_PENDING_OF_KIND
            params["kind"] = dest_kind.value
        elif dest_keys is None:
            sql = q.OUTBOX_PENDING
        else:
            keys = sorted(set(dest_keys))
            if not keys:
                return []
            sql = q.OUTBOX_PENDING_TO
            params["dests"] = keys
        rows = await self._rows(sql, q.OUTBOX, **params)
        return [m.outbox_record(row) for row in rows]

    async def inbox(self, user_id: str) -> Sequence[OutboxMessage]:
        rows = await self._rows(q.OUTBOX_INBOX, q.OUTBOX, user_id=user_id)
        return [m.outbox_record(row) for row in rows]

    async def for_game(self, game_id: str) -> Sequence[OutboxMessage]:
        rows = await self._rows(q.OUTBOX_OF_GAME, q.OUTBOX, game_id=game_id)
        return [m.outbox_record(row) for row in rows]

    async def given_up(self, game_id: str) -> Sequence[OutboxMessage]:
        rows = await self._rows(q.OUTBOX_GIVEN_UP_OF_GAME, q.OUTBOX, game_id=game_id)
        return [m.outbox_record(row) for row in rows]

    async def mark_sent(
        self, message_id: str, at: datetime, delivered_keys: Sequence[str] = ()
    ) -> None:
        params = {"match_id": message_id, "sent_at": utc(at),
                  "delivered_keys": m.keys_doc(delivered_keys)}
        if not await self._tx.execute(q.OUTBOX_SENT, params):
            await self._must_exist(message_id)  # sent already: the first delivery's time stays

    async def mark_failed(
        self, message_id: str, error: str, retry_at: datetime | None, at: datetime
    ) -> None:
        params = {"match_id": message_id, "last_error": error,
                  "next_attempt_at": None if retry_at is None else utc(retry_at),
                  "gave_up_at": utc(at) if retry_at is None else None}
        if not await self._tx.execute(q.OUTBOX_FAILED, params):
            await self._must_exist(message_id)

    async def _must_exist(self, message_id: str) -> None:
        if await self.get(message_id) is None:
            raise NotFound("That message is not in the outbox.")


class SqlAudit(_Repository):
    async def add(self, entry: AuditEntry) -> None:
        await self._tx.insert(q.INSERT[q.AUDIT], [m.audit_values(entry)])

    async def list(self, game_id: str, limit: int | None = None) -> Sequence[AuditEntry]:
        if limit:
            newest = await self._rows(q.AUDIT_NEWEST, q.AUDIT, game_id=game_id, limit=limit)
            return [m.audit_record(row) for row in reversed(newest)]
        rows = await self._rows(q.AUDIT_OF_GAME, q.AUDIT, game_id=game_id)
        return [m.audit_record(row) for row in rows]


class SqlLedger(_Repository):
    async def add(self, entry: LedgerEntry) -> None:
        await self._tx.insert(q.INSERT[q.LEDGER], [m.ledger_values(entry)])

    async def for_player(self, player: str) -> Sequence[LedgerEntry]:
        rows = await self._rows(q.LEDGER_OF_PLAYER, q.LEDGER, player=player)
        return [m.ledger_record(row) for row in rows]


class SqlUsers(_Repository):
    async def set_name(self, name: UserName) -> None:
        await self._tx.execute(q.USER_UPSERT, m.user_values(name))

    async def names(self, user_ids: Collection[str]) -> Mapping[str, str]:
        wanted = list(dict.fromkeys(user_ids))
        if not wanted:
            return {}
        rows = await self._rows(q.USERS_NAMED, q.USERS, user_ids=wanted)
        named = {row.user_id: m.user_record(row).display_name for row in rows}
        return {user_id: named[user_id] for user_id in wanted if user_id in named}


class SqlChannelMarks(_Repository):
    async def marks(self) -> Mapping[str, str]:
        rows = await self._rows(q.MARKS_ALL, q.MARKS)
        return {row.channel_key: row.message_key for row in rows}

    async def set_marks(self, marks: Mapping[str, str], at: datetime) -> None:
        if marks:
            await self._tx.insert(q.MARK_UPSERT, [
                {"channel_key": key, "message_key": value, "updated_at": utc(at)}
                for key, value in marks.items()])
