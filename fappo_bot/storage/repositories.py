"""The repositories: the ports of `fappo_bot.service.ports` over one transaction
(`transaction.Tx`, `transaction.Repository`: kept rows, versioned updates), but the posts'
(`posts.py`, which keeps the orders in force).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from fappo_bot.service.errors import NotFound
from fappo_bot.service.ports import GameAtPlay, OpenGame, StateWrite
from fappo_bot.service.records import (
    AuditEntry,
    CharacterKind,
    CharacterRecord,
    CharacterStatus,
    DestinationKind,
    Game,
    GameStatus,
    LedgerEntry,
    Membership,
    OutboxMessage,
    Resolution,
    Role,
    RosterEntry,
    TurnRecord,
    TurnStatus,
    UserName,
    gm_runs,
)
from fappo_bot.storage import mappers as m
from fappo_bot.storage import outbox_queries as oq
from fappo_bot.storage import queries as q
from fappo_bot.storage.driver import Compiled, Sql
from fappo_bot.storage.transaction import Repository
from fappo_bot.storage.values import utc


class SqlGames(Repository):
    async def add(self, game: Game) -> None:
        self._tx.written.add(q.GAMES.name)
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
        """One SELECT: the game, its latest turn and the user's roles (a LEFT JOIN each). When
        this unit-of-work factory read the game before, the SELECT reads the game's and the
        turn's versions (and the turn's id) instead of their columns, which are taken from that
        read while they are the same (`values.Remembered.rows`); a second SELECT reads them
        when they moved.

        On SQLite, whether a post of `message` exists is read along: a SQLite transaction reads
        one snapshot (and a writer holds the write lock from BEGIN IMMEDIATE), so the answer
        holds for the rest of the transaction unless it adds that post itself (`SqlPosts.add`
        forgets it). On PostgreSQL (READ COMMITTED) a post committed after this read must still
        be seen after `lock_turn`, so `by_message` reads then."""
        along = message is not None and self._tx.sqlite
        params: dict[str, Any] = {"id": game_id, "user_id": user_id}
        if along and message is not None:
            params["channel_key"], params["message_key"] = message
        what = ("at play", game_id)
        columns: list[dict[str, Any]] | None = None
        if self._remembered(what) is not None:
            read = await self._rows_of(
                q.GAME_AT_PLAY_VERSIONS_MESSAGE if along else q.GAME_AT_PLAY_VERSIONS, params)
            if read is None:
                return None
            rows, compiled = read
            first = rows[0]
            turn_id = first[compiled.position(q.TURNS.c.id)]
            now: tuple[tuple[str, Any, int], ...] = (
                (q.GAMES.name, game_id, first[compiled.position(q.GAMES.c.version)]),)
            if turn_id is not None:
                now += ((q.TURNS.name, turn_id, first[compiled.position(q.TURNS.c.version)]),)
            columns = self._remembered(what, now)
        if columns is None:
            read = await self._rows_of(q.GAME_AT_PLAY_MESSAGE if along else q.GAME_AT_PLAY,
                                       params)
            if read is None:
                return None
            rows, compiled = read
            first = rows[0]
            columns = [compiled.columns(q.GAMES, first)]
            if first[compiled.position(q.TURNS.c.id)] is not None:
                columns.append(compiled.columns(q.TURNS, first))
            tables = (q.GAMES.name, q.TURNS.name)
            self._remember(what, tables, list(zip(tables, columns, strict=False)))
        if along and message is not None and not first[compiled.position(q.MESSAGE_TAKEN)]:
            self._tx.no_post.add(message)
        game = self._kept(q.GAMES, columns[0])
        turn = m.turn_record(self._kept(q.TURNS, columns[1])) if len(columns) > 1 else None
        role = compiled.position(q.MEMBERSHIPS.c.role)
        roles = frozenset(Role(row[role]) for row in rows if row[role])
        return GameAtPlay(m.game_record(game), turn, roles)

    async def _rows_of(self, sql: Sql, params: dict[str, Any]
                       ) -> tuple[Sequence[Any], Compiled] | None:
        """The rows `sql` reads and its compiled form (for their columns' places), or None when
        it reads none."""
        rows = await self._tx.fetch(sql, params)
        return (rows, sql.compiled(self._tx.dialect)) if rows else None

    async def with_open_turns(self) -> Sequence[OpenGame]:
        """One SELECT: the games, their open turns and their members (a row per member)."""
        sql = q.GAMES_WITH_OPEN_TURNS
        compiled = sql.compiled(self._tx.dialect)
        game_at, member = compiled.position(q.GAMES.c.id), compiled.position(q.MEMBERSHIPS.c.user_id)
        found: dict[str, tuple[Game, TurnRecord, dict[str, None]]] = {}
        for row in await self._tx.fetch(sql):
            game_id = row[game_at]
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


class SqlMembers(Repository):
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


class SqlCharacters(Repository):
    async def add(self, character: CharacterRecord) -> None:
        self._tx.row_sets.pop(("characters", character.game_id), None)
        self._tx.written.add(q.CHARACTERS.name)
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
        # a game's characters are read once per transaction (a close reads them for the turn's
        # status and again to seal): the rows kept carry every update made since; their sheets
        # and states are read again only when a row's version moved (`_load_versioned`)
        key = ("characters", game_id)
        rows = self._tx.row_sets.get(key)
        if rows is None:
            rows = self._tx.row_sets[key] = await self._load_versioned(
                q.CHARACTERS, key, q.CHARACTER_VERSIONS_OF_GAME, q.CHARACTERS_OF_GAME,
                game_id=game_id)
        return [m.character_record(row) for row in rows]

    async def roster(self, game_id: str) -> Sequence[RosterEntry]:
        # the turn board's read: no sheet nor state is read, decoded or built
        rows = await self._tx.fetch(q.ROSTER_OF_GAME, {"game_id": game_id})
        return [RosterEntry(name, CharacterStatus(status), None if gm_runs(
                    owner, bool(gm_controlled), CharacterKind(kind)) else controller or owner)
                for name, status, owner, kind, controller, gm_controlled in rows]

    async def update(self, character: CharacterRecord) -> None:
        await self._update(q.CHARACTERS, m.character_values(character), "character")

    async def write_states(self, writes: Sequence[StateWrite]) -> None:
        # each row as kept by this transaction (a resolve read them with `list`) is checked
        # and queued; the UPDATEs, of the state and missed turns only, go out together
        # (`updates.py`)
        for write in writes:
            await self._update(q.CHARACTERS, m.state_values(write), "character")


class SqlTurns(Repository):
    async def add(self, turn: TurnRecord) -> None:
        self._tx.written.add(q.TURNS.name)
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

    async def statuses(self, game_id: str) -> Sequence[tuple[int, TurnStatus]]:
        rows = await self._tx.fetch(q.TURN_STATUSES_OF_GAME, {"game_id": game_id})
        return [(int(number), TurnStatus(status)) for number, status in rows]

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


class SqlResolutions(Repository):
    async def add(self, resolution: Resolution) -> None:
        await self._tx.insert(q.INSERT[q.RESOLUTIONS], [m.resolution_values(resolution)])

    async def get(self, resolution_id: str) -> Resolution | None:
        row = await self._first(q.BY_ID[q.RESOLUTIONS], q.RESOLUTIONS, id=resolution_id)
        return None if row is None else m.resolution_record(row)

    async def for_turn(self, turn_id: str) -> Resolution | None:
        row = await self._first(q.RESOLUTION_FOR_TURN, q.RESOLUTIONS, turn_id=turn_id)
        return None if row is None else m.resolution_record(row)

    async def id_for_turn(self, turn_id: str) -> str | None:
        rows = await self._tx.fetch(q.RESOLUTION_ID_FOR_TURN, {"turn_id": turn_id})
        return str(rows[0][0]) if rows else None

    async def latest(self, game_id: str) -> Resolution | None:
        row = await self._first(q.LATEST_RESOLUTION, q.RESOLUTIONS, game_id=game_id)
        return None if row is None else m.resolution_record(row)

    async def mark_undone(self, resolution_id: str, at: datetime) -> None:
        params = {"match_id": resolution_id, "undone_at": utc(at)}
        if not await self._tx.execute(q.RESOLUTION_UNDONE, params):
            raise NotFound("That resolution does not exist.")


class SqlOutbox(Repository):
    async def add(self, message: OutboxMessage) -> bool:
        added = await self._tx.execute(q.OUTBOX_INSERT, m.outbox_values(message)) == 1
        self._tx.queued = self._tx.queued or added
        return added

    async def add_many(self, messages: Sequence[OutboxMessage]) -> None:
        await self._tx.insert(q.OUTBOX_INSERT, [m.outbox_values(message) for message in messages])
        self._tx.queued = self._tx.queued or bool(messages)

    async def get(self, message_id: str) -> OutboxMessage | None:
        row = await self._first(q.BY_ID[q.OUTBOX], q.OUTBOX, id=message_id)
        return None if row is None else m.outbox_record(row)

    async def by_dedupe(self, keys: Collection[str]) -> Sequence[OutboxMessage]:
        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return []
        rows = await self._rows(q.OUTBOX_BY_DEDUPE, q.OUTBOX, keys=wanted)
        return [m.outbox_record(row) for row in rows]

    async def pending(
        self, now: datetime, limit: int = 100, dest_keys: Collection[str] | None = None,
        dest_kind: DestinationKind | None = None,
    ) -> Sequence[OutboxMessage]:
        params: dict[str, Any] = {"now": utc(now), "limit": limit}
        if dest_kind is not None:
            if dest_keys is not None:  # not asked of it by the adapters: filtered here
                return [m for m in await self.pending(now, limit, dest_keys)
                        if m.dest_kind is dest_kind]
            sql = oq.OUTBOX_PENDING_OF_KIND
            params["kind"] = dest_kind.value
        elif dest_keys is None:
            sql = oq.OUTBOX_PENDING
        else:
            keys = sorted(set(dest_keys))
            if not keys:
                return []
            sql = oq.OUTBOX_PENDING_TO
            params["dests"] = keys
        rows = await self._rows(sql, q.OUTBOX, **params)
        return [m.outbox_record(row) for row in rows]

    async def inbox(self, user_id: str) -> Sequence[OutboxMessage]:
        rows = await self._rows(oq.OUTBOX_INBOX, q.OUTBOX, user_id=user_id)
        return [m.outbox_record(row) for row in rows]

    async def for_game(self, game_id: str) -> Sequence[OutboxMessage]:
        rows = await self._rows(oq.OUTBOX_OF_GAME, q.OUTBOX, game_id=game_id)
        return [m.outbox_record(row) for row in rows]

    async def by_key_prefix(self, game_id: str, prefix: str) -> Sequence[OutboxMessage]:
        pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = await self._rows(oq.OUTBOX_BY_KEY_PREFIX, q.OUTBOX, game_id=game_id,
                                pattern=pattern)
        return [m.outbox_record(row) for row in rows]

    async def given_up(self, game_id: str) -> Sequence[OutboxMessage]:
        rows = await self._rows(oq.OUTBOX_GIVEN_UP_OF_GAME, q.OUTBOX, game_id=game_id)
        return [m.outbox_record(row) for row in rows]

    async def mark_sent(
        self, message_id: str, at: datetime, delivered_keys: Sequence[str] = ()
    ) -> None:
        params = {"match_id": message_id, "sent_at": utc(at),
                  "delivered_keys": m.keys_doc(delivered_keys)}
        if not await self._tx.execute(oq.OUTBOX_SENT, params):
            await self._must_exist(message_id)  # sent already: the first delivery's time stays

    async def mark_failed(
        self, message_id: str, error: str, retry_at: datetime | None, at: datetime
    ) -> None:
        params = {"match_id": message_id, "last_error": error,
                  "next_attempt_at": None if retry_at is None else utc(retry_at),
                  "gave_up_at": utc(at) if retry_at is None else None}
        if not await self._tx.execute(oq.OUTBOX_FAILED, params):
            await self._must_exist(message_id)

    async def _must_exist(self, message_id: str) -> None:
        if await self.get(message_id) is None:
            raise NotFound("That message is not in the outbox.")


class SqlAudit(Repository):
    async def add(self, entry: AuditEntry) -> None:
        await self._tx.insert(q.INSERT[q.AUDIT], [m.audit_values(entry)])

    async def list(self, game_id: str, limit: int | None = None) -> Sequence[AuditEntry]:
        if limit:
            newest = await self._rows(q.AUDIT_NEWEST, q.AUDIT, game_id=game_id, limit=limit)
            return [m.audit_record(row) for row in reversed(newest)]
        rows = await self._rows(q.AUDIT_OF_GAME, q.AUDIT, game_id=game_id)
        return [m.audit_record(row) for row in rows]


class SqlLedger(Repository):
    async def add(self, entry: LedgerEntry) -> None:
        await self._tx.insert(q.INSERT[q.LEDGER], [m.ledger_values(entry)])

    async def for_player(self, player: str) -> Sequence[LedgerEntry]:
        rows = await self._rows(q.LEDGER_OF_PLAYER, q.LEDGER, player=player)
        return [m.ledger_record(row) for row in rows]


class SqlUsers(Repository):
    async def set_name(self, name: UserName) -> None:
        await self._tx.execute(q.USER_UPSERT, m.user_values(name))

    async def names(self, user_ids: Collection[str]) -> Mapping[str, str]:
        wanted = list(dict.fromkeys(user_ids))
        if not wanted:
            return {}
        rows = await self._rows(q.USERS_NAMED, q.USERS, user_ids=wanted)
        named = {row.user_id: m.user_record(row).display_name for row in rows}
        return {user_id: named[user_id] for user_id in wanted if user_id in named}


class SqlChannelMarks(Repository):
    async def marks(self) -> Mapping[str, str]:
        rows = await self._rows(q.MARKS_ALL, q.MARKS)
        return {row.channel_key: row.message_key for row in rows}

    async def set_marks(self, marks: Mapping[str, str], at: datetime) -> None:
        if marks:
            await self._tx.insert(q.MARK_UPSERT, [
                {"channel_key": key, "message_key": value, "updated_at": utc(at)}
                for key, value in marks.items()])
