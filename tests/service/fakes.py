"""An in-memory unit of work for the service's unit tests (cosmicpython's FakeUnitOfWork).

It keeps the contract of `fappo_bot.service.ports`: changes are private to the unit of work
until `commit()`; `update` checks `version`; unique keys raise `Conflict`; `lock_turn` serialises
whoever calls it (one lock for the whole store, held until commit or rollback, like SQLite's
`BEGIN IMMEDIATE`); a commit whose versioned records changed underneath it raises `StaleVersion`.

A unit of work reads the committed tables as they were when it began (the store replaces a
table at commit, never changes one in place) and copies a table the first time it writes to it.
The unique keys it looks up have an index (a table of key -> id, written along with its table),
and so have the groups it lists (a table of game or turn -> the ids in it, as a tuple), so that
a benchmark on the fake measures the service, not linear scans of the fake.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import TracebackType
from typing import Any, Self

from fappo_bot.rules import Order
from fappo_bot.service.errors import Conflict, NotFound, StaleVersion
from fappo_bot.service.ports import GameAtPlay, OpenGame, StateWrite
from fappo_bot.service.records import (
    AuditEntry,
    CharacterRecord,
    DestinationKind,
    Game,
    GameStatus,
    LedgerEntry,
    Membership,
    OutboxMessage,
    PlayerPace,
    Post,
    PostRevision,
    Resolution,
    Role,
    RosterEntry,
    TurnRecord,
    TurnStatus,
    UserName,
)

TABLES = (
    "games",  # id -> Game
    "members",  # (game_id, user_id, role) -> Membership
    "characters",  # id -> CharacterRecord
    "turns",  # id -> Turn
    "posts",  # id -> Post
    "revisions",  # (post_id, number) -> PostRevision
    "resolutions",  # id -> Resolution
    "outbox",  # id -> OutboxMessage
    "audit",  # id -> AuditEntry
    "ledger",  # id -> LedgerEntry
    "users",  # user_id -> UserName
    "channel_marks",  # channel_key -> message_key
    "pace",  # user_id -> PlayerPace
    # unique-key indexes: key -> id
    "game_channels",  # channel_key -> game id
    "character_names",  # (game_id, name.casefold()) -> character id
    "post_messages",  # (channel_key, message_key) -> post id
    "outbox_keys",  # dedupe_key -> message id
    # group indexes: game or turn id -> the ids in it
    "game_members",  # game_id -> member keys
    "game_characters",  # game_id -> character ids
    "game_turns",  # game_id -> turn ids
    "turn_posts",  # turn_id -> post ids
)


@dataclass
class Store:
    """The committed data, shared by every fake unit of work of one test: each table (and
    index) by name. A commit replaces the tables it wrote; none is changed in place."""

    tables: dict[str, dict[Any, Any]] = field(
        default_factory=lambda: {name: {} for name in TABLES}
    )
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    commits: int = 0


class _Repo:
    def __init__(self, uow: FakeUnitOfWork) -> None:
        self.uow = uow

    def t(self, name: str) -> dict[Any, Any]:
        """A table to read."""
        return self.uow.data[name]

    def w(self, name: str) -> dict[Any, Any]:
        """A table to write: the transaction's own copy."""
        return self.uow.writable(name)

    def group(self, index: str, key: str, table: str) -> list[Any]:
        """The rows of `table` whose ids the group index `index` has under `key`."""
        rows = self.t(table)
        return [rows[i] for i in self.t(index).get(key, ())]

    def join(self, index: str, key: str, row_id: Any) -> None:
        """Add `row_id` to the group `key` of the group index `index`."""
        groups = self.w(index)
        groups[key] = (*groups.get(key, ()), row_id)

    def _update_versioned(self, table: str, record: Any) -> None:
        old = self.t(table).get(record.id)
        if old is None:
            raise NotFound(f"nothing to update: {record.id}")
        if old.version != record.version - 1:
            raise StaleVersion("Someone else changed this at the same moment; please try again.")
        self.w(table)[record.id] = record
        # the version the transaction first saw: what the store must still hold at commit
        self.uow.touched.setdefault((table, record.id), old.version)


class FakeGames(_Repo):
    async def add(self, game: Game) -> None:
        if game.channel_key in self.t("game_channels"):
            raise Conflict("There is already a game in this channel.")
        self.w("games")[game.id] = game
        self.w("game_channels")[game.channel_key] = game.id

    async def get(self, game_id: str) -> Game | None:
        return self.t("games").get(game_id)

    async def by_channel(self, channel_key: str) -> Game | None:
        game_id = self.t("game_channels").get(channel_key)
        return None if game_id is None else self.t("games")[game_id]

    async def at_play(
        self, game_id: str, user_id: str, message: tuple[str, str] | None = None
    ) -> GameAtPlay | None:
        game = await self.get(game_id)
        if game is None:
            return None
        turn = await self.uow.turns.latest(game_id)
        members = await self.uow.members.list(game_id)
        return GameAtPlay(game, turn, frozenset(m.role for m in members if m.user_id == user_id))

    async def update(self, game: Game) -> None:
        old = self.t("games").get(game.id)
        self._update_versioned("games", game)
        if old is not None and old.channel_key != game.channel_key:
            channels = self.w("game_channels")
            del channels[old.channel_key]
            channels[game.channel_key] = game.id

    async def list(self, status: GameStatus | None = None) -> Sequence[Game]:
        games = [g for g in self.t("games").values() if status is None or g.status is status]
        return sorted(games, key=lambda g: (g.created_at, g.id))

    async def with_open_turns(self) -> Sequence[OpenGame]:
        found = []
        for game in await self.list():
            turn = await self.uow.turns.latest(game.id)
            if turn is not None and turn.status is TurnStatus.OPEN:
                members = dict.fromkeys(m.user_id for m in await self.uow.members.list(game.id))
                found.append(OpenGame(game, turn, tuple(members)))
        return found


class FakeMembers(_Repo):
    async def add(self, membership: Membership) -> None:
        key = (membership.game_id, membership.user_id, membership.role.value)
        if key not in self.t("members"):
            self.w("members")[key] = membership
            self.join("game_members", membership.game_id, key)

    async def remove(self, game_id: str, user_id: str, role: Role) -> bool:
        key = (game_id, user_id, role.value)
        if key not in self.t("members"):
            return False
        del self.w("members")[key]
        groups = self.w("game_members")
        groups[game_id] = tuple(k for k in groups[game_id] if k != key)
        return True

    async def list(self, game_id: str) -> Sequence[Membership]:
        rows = self.group("game_members", game_id, "members")
        return sorted(rows, key=lambda m: (m.role.value, m.user_id))

    async def games_of(self, user_id: str) -> Sequence[Membership]:
        rows = [m for m in self.t("members").values() if m.user_id == user_id]
        return sorted(rows, key=lambda m: (m.game_id, m.role.value))


class FakeCharacters(_Repo):
    async def add(self, character: CharacterRecord) -> None:
        if await self.by_name(character.game_id, character.name) is not None:
            raise Conflict(f'There is already a character called "{character.name}".')
        self.w("characters")[character.id] = character
        self.join("game_characters", character.game_id, character.id)
        self.w("character_names")[(character.game_id, character.name.casefold())] = character.id

    async def get(self, character_id: str) -> CharacterRecord | None:
        return self.t("characters").get(character_id)

    async def by_name(self, game_id: str, name: str) -> CharacterRecord | None:
        character_id = self.t("character_names").get((game_id, name.casefold()))
        return None if character_id is None else self.t("characters")[character_id]

    async def list(self, game_id: str) -> Sequence[CharacterRecord]:
        rows = self.group("game_characters", game_id, "characters")
        return sorted(rows, key=lambda c: (c.created_at, c.id))

    async def roster(self, game_id: str) -> Sequence[RosterEntry]:
        return [RosterEntry(c.name, c.status, c.runner()) for c in await self.list(game_id)]

    async def update(self, character: CharacterRecord) -> None:
        folded = character.name.casefold()
        clash = self.t("character_names").get((character.game_id, folded))  # its id
        if clash is not None and clash != character.id:
            raise Conflict(f'There is already a character called "{character.name}".')
        old = self.t("characters").get(character.id)
        self._update_versioned("characters", character)
        assert old is not None
        if old.name.casefold() != folded:
            names = self.w("character_names")
            del names[(old.game_id, old.name.casefold())]
            names[(character.game_id, character.name.casefold())] = character.id

    async def write_states(self, writes: Sequence[StateWrite]) -> None:
        rows = self.t("characters")
        for write in writes:
            old = rows.get(write.id)
            if old is None:
                raise NotFound(f"nothing to update: {write.id}")
            # the name stays: no unique key to check
            self._update_versioned("characters", old.model_copy(update={
                "state": write.state, "missed_turns": write.missed_turns,
                "version": write.version}))


class FakeTurns(_Repo):
    async def add(self, turn: TurnRecord) -> None:
        if any(
            t.number == turn.number and t.status is not TurnStatus.VOID
            for t in self.group("game_turns", turn.game_id, "turns")
        ):
            raise Conflict(f"Turn {turn.number} already exists.")
        self.w("turns")[turn.id] = turn
        self.join("game_turns", turn.game_id, turn.id)

    async def get(self, turn_id: str) -> TurnRecord | None:
        return self.t("turns").get(turn_id)

    async def latest(self, game_id: str) -> TurnRecord | None:
        rows = [
            t for t in self.group("game_turns", game_id, "turns") if t.status is not TurnStatus.VOID
        ]
        return max(rows, key=lambda t: (t.number, t.opened_at), default=None)

    async def by_number(self, game_id: str, number: int) -> TurnRecord | None:
        # newest first: the turn asked for is nearly always one of the last
        return next((t for t in reversed(self.group("game_turns", game_id, "turns"))
                     if t.number == number and t.status is not TurnStatus.VOID), None)

    async def list(self, game_id: str) -> Sequence[TurnRecord]:
        rows = self.group("game_turns", game_id, "turns")
        return sorted(rows, key=lambda t: (t.number, t.opened_at))

    async def statuses(self, game_id: str) -> Sequence[tuple[int, TurnStatus]]:
        return [(t.number, t.status) for t in await self.list(game_id)]

    async def update(self, turn: TurnRecord) -> None:
        self._update_versioned("turns", turn)

    async def due(self, now: datetime) -> Sequence[TurnRecord]:
        rows = [
            t
            for t in self.t("turns").values()
            if t.status is TurnStatus.OPEN
            and not t.paused
            and t.alarm_at is not None
            and t.alarm_at <= now
        ]
        return sorted(rows, key=lambda t: (t.alarm_at, t.id))


class FakePosts(_Repo):
    async def add(self, post: Post, revision: PostRevision) -> None:
        if await self.by_message(post.channel_key, post.message_key) is not None:
            raise Conflict("This message is already recorded as a post.")
        self.w("posts")[post.id] = post
        self.w("post_messages")[(post.channel_key, post.message_key)] = post.id
        self.join("turn_posts", post.turn_id, post.id)
        await self.add_revision(revision)

    async def get(self, post_id: str) -> Post | None:
        return self.t("posts").get(post_id)

    async def by_message(self, channel_key: str, message_key: str) -> Post | None:
        post_id = self.t("post_messages").get((channel_key, message_key))
        return None if post_id is None else self.t("posts")[post_id]

    async def update(self, post: Post) -> None:
        self._update_versioned("posts", post)

    async def set_reply_keys(self, post_id: str, reply_keys: Sequence[str]) -> bool:
        post = self.t("posts").get(post_id)
        if post is None:
            return False
        self.w("posts")[post_id] = post.model_copy(
            update={"reply_keys": tuple(reply_keys), "version": post.version + 1})
        return True

    async def add_revision(self, revision: PostRevision) -> None:
        key = (revision.post_id, revision.number)
        if key in self.t("revisions"):
            raise Conflict("This revision is already recorded.")
        self.w("revisions")[key] = revision

    async def revisions(self, post_id: str) -> Sequence[PostRevision]:
        rows = [r for (pid, _), r in self.t("revisions").items() if pid == post_id]
        return sorted(rows, key=lambda r: r.number)

    async def list(self, turn_id: str, include_deleted: bool = False) -> Sequence[Post]:
        rows = [
            p
            for p in self.group("turn_posts", turn_id, "posts")
            if include_deleted or not p.deleted
        ]
        return sorted(rows, key=lambda p: (p.created_at, p.id))

    async def latest_revisions(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> Sequence[tuple[Post, PostRevision]]:
        posts = sorted(
            (p for p in self.group("turn_posts", turn_id, "posts") if not p.deleted),
            key=lambda p: (p.updated_at, p.id),
        )
        pairs = [(p, self.t("revisions")[(p.id, p.revision)]) for p in posts]
        if actors is None:
            return pairs
        return [(p, r.model_copy(update={
            "orders": tuple(o for o in r.orders if o.actor.casefold() in actors),
            "actions": tuple(a for a in r.actions if a.actor.casefold() in actors),
        })) for p, r in pairs]


    async def in_force_revisions(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> Sequence[tuple[Post, PostRevision]]:
        return await self.latest_revisions(turn_id, actors)  # every post: a superset

    async def orders_in_force(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> dict[str, Order]:
        found: dict[str, Order] = {}  # the last written wins (F29 Amb-3), as the rule ranks
        pairs = await self.latest_revisions(turn_id, actors)
        for _post, revision in sorted(pairs, key=lambda pr: (
                pr[1].created_at, pr[0].updated_at, pr[0].id)):
            for order in revision.orders if revision.ok else ():
                found[order.actor.casefold()] = order
        return found


class FakeResolutions(_Repo):
    async def add(self, resolution: Resolution) -> None:
        self.w("resolutions")[resolution.id] = resolution

    async def get(self, resolution_id: str) -> Resolution | None:
        return self.t("resolutions").get(resolution_id)

    async def id_for_turn(self, turn_id: str) -> str | None:
        found = await self.for_turn(turn_id)
        return None if found is None else found.id

    async def for_turn(self, turn_id: str) -> Resolution | None:
        return next(
            (
                r
                for r in self.t("resolutions").values()
                if r.turn_id == turn_id and not r.undone
            ),
            None,
        )

    async def latest(self, game_id: str) -> Resolution | None:
        rows = [
            r for r in self.t("resolutions").values() if r.game_id == game_id and not r.undone
        ]
        return max(rows, key=lambda r: (r.created_at, r.turn_number), default=None)

    async def mark_undone(self, resolution_id: str, at: datetime) -> None:
        rows = self.w("resolutions")
        rows[resolution_id] = rows[resolution_id].model_copy(
            update={"undone": True, "undone_at": at}
        )


class FakeOutbox(_Repo):
    async def add(self, message: OutboxMessage) -> bool:
        if message.dedupe_key in self.t("outbox_keys"):
            return False
        self.w("outbox")[message.id] = message
        self.w("outbox_keys")[message.dedupe_key] = message.id
        return True

    async def add_many(self, messages: Sequence[OutboxMessage]) -> int:
        return sum([await self.add(message) for message in messages])

    async def get(self, message_id: str) -> OutboxMessage | None:
        return self.t("outbox").get(message_id)

    async def by_dedupe(self, keys: Collection[str]) -> Sequence[OutboxMessage]:
        found = self.t("outbox_keys")
        return [self.t("outbox")[found[k]] for k in dict.fromkeys(keys) if k in found]

    async def pending(
        self, now: datetime, limit: int = 100, dest_keys: Collection[str] | None = None,
        dest_kind: DestinationKind | None = None,
    ) -> Sequence[OutboxMessage]:
        unsent = sorted((m for m in self.t("outbox").values()
                         if m.sent_at is None and m.gave_up_at is None),
                        key=lambda m: (m.created_at, m.id))
        waiting: set[tuple[str, str]] = set()
        found = []
        for message in unsent:
            destination = (message.dest_kind.value, message.dest_key)
            if message.next_attempt_at is not None and message.next_attempt_at > now:
                waiting.add(destination)
            elif destination not in waiting and (dest_keys is None
                                                 or message.dest_key in dest_keys) and (
                    dest_kind is None or message.dest_kind is dest_kind):
                found.append(message)
        return found[:limit]

    async def inbox(self, user_id: str) -> Sequence[OutboxMessage]:
        rows = [m for m in self.t("outbox").values()
                if m.dest_kind is DestinationKind.DM and m.dest_key == user_id
                and m.sent_at is None]
        return sorted(rows, key=lambda m: (m.created_at, m.id))

    async def for_game(self, game_id: str) -> Sequence[OutboxMessage]:
        rows = [m for m in self.t("outbox").values() if m.game_id == game_id]
        return sorted(rows, key=lambda m: (m.created_at, m.id))

    async def by_key_prefix(self, game_id: str, prefix: str) -> Sequence[OutboxMessage]:
        return [m for m in await self.for_game(game_id) if m.dedupe_key.startswith(prefix)]

    async def given_up(self, game_id: str) -> Sequence[OutboxMessage]:
        return [m for m in await self.for_game(game_id)
                if m.gave_up_at is not None and m.sent_at is None]

    def _change(self, message_id: str, **changes: Any) -> None:
        rows = self.w("outbox")
        if message_id not in rows:
            raise NotFound("That message is not in the outbox.")
        rows[message_id] = rows[message_id].model_copy(update=changes)

    async def mark_sent(
        self, message_id: str, at: datetime, delivered_keys: Sequence[str] = ()
    ) -> None:
        if message_id in self.t("outbox") and self.t("outbox")[message_id].sent_at is not None:
            return
        self._change(message_id, sent_at=at, delivered_keys=tuple(delivered_keys))

    async def mark_failed(
        self, message_id: str, error: str, retry_at: datetime | None, at: datetime
    ) -> None:
        old = self.t("outbox").get(message_id)
        self._change(message_id, attempts=(old.attempts + 1) if old else 0, last_error=error,
                     next_attempt_at=retry_at, gave_up_at=None if retry_at else at)


class FakeUsers(_Repo):
    async def set_name(self, name: UserName) -> None:
        self.w("users")[name.user_id] = name

    async def names(self, user_ids: Collection[str]) -> Mapping[str, str]:
        rows = self.t("users")
        return {u: rows[u].display_name for u in user_ids if u in rows}


class FakeChannelMarks(_Repo):
    async def marks(self) -> Mapping[str, str]:
        return dict(sorted(self.t("channel_marks").items()))

    async def set_marks(self, marks: Mapping[str, str], at: datetime) -> None:
        if marks:
            self.w("channel_marks").update(marks)


class FakePace(_Repo):
    async def get(self, user_id: str) -> PlayerPace | None:
        return self.t("pace").get(user_id)

    async def many(self, user_ids: Collection[str]) -> Mapping[str, PlayerPace]:
        rows = self.t("pace")
        return {u: rows[u] for u in user_ids if u in rows}

    async def put(self, pace: PlayerPace) -> None:
        self.w("pace")[pace.user_id] = pace

    async def with_digest(self, hour: int) -> Sequence[PlayerPace]:
        return [p for _, p in sorted(self.t("pace").items())
                if p.digest_hour is not None and p.digest_hour <= hour]


class FakeAudit(_Repo):
    async def add(self, entry: AuditEntry) -> None:
        self.w("audit")[entry.id] = entry

    async def list(self, game_id: str, limit: int | None = None) -> Sequence[AuditEntry]:
        rows = sorted(
            (e for e in self.t("audit").values() if e.game_id == game_id),
            key=lambda e: (e.at, e.id),
        )
        return rows[-limit:] if limit else rows


class FakeLedger(_Repo):
    async def add(self, entry: LedgerEntry) -> None:
        self.w("ledger")[entry.id] = entry

    async def for_player(self, player: str) -> Sequence[LedgerEntry]:
        rows = [e for e in self.t("ledger").values() if e.player == player]
        return sorted(rows, key=lambda e: (e.at, e.id))


class FakeUnitOfWork:
    """One transaction over a `Store`: a private copy of the tables until `commit()`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.committed = False
        self._holding_lock = False
        self._begin()
        self.games = FakeGames(self)
        self.members = FakeMembers(self)
        self.characters = FakeCharacters(self)
        self.turns = FakeTurns(self)
        self.posts = FakePosts(self)
        self.resolutions = FakeResolutions(self)
        self.outbox = FakeOutbox(self)
        self.audit = FakeAudit(self)
        self.ledger = FakeLedger(self)
        self.users = FakeUsers(self)
        self.channels = FakeChannelMarks(self)
        self.pace = FakePace(self)

    def _begin(self) -> None:
        # the committed tables themselves: the store replaces a table at commit, never changes it
        self.data = dict(self.store.tables)
        self.written: set[str] = set()
        self.touched: dict[tuple[str, str], int] = {}

    def writable(self, name: str) -> dict[Any, Any]:
        """The transaction's own copy of a table, made on its first write."""
        if name not in self.written:
            self.data[name] = dict(self.data[name])
            self.written.add(name)
        return self.data[name]

    async def __aenter__(self) -> Self:
        self._begin()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.rollback()

    async def commit(self) -> None:
        for (table, record_id), old_version in self.touched.items():
            current = self.store.tables[table].get(record_id)
            if current is not None and current.version != old_version:
                await self.rollback()
                raise StaleVersion("Someone else changed this at the same moment; please try again.")
        for name in self.written:
            self.store.tables[name] = self.data[name]
        self.store.commits += 1
        self.committed = True
        self._release()
        self._begin()

    async def rollback(self) -> None:
        self._release()
        self._begin()

    def _release(self) -> None:
        if self._holding_lock:
            self._holding_lock = False
            self.store.lock.release()

    async def lock_turn(self, turn_id: str) -> TurnRecord:
        if not self._holding_lock:
            await self.store.lock.acquire()
            self._holding_lock = True
            # read committed: what others committed while we waited becomes visible. The
            # service takes the lock before it writes anything, so nothing of ours is dropped.
            self._begin()
        turn = self.data["turns"].get(turn_id)
        if turn is None:
            raise NotFound("That turn does not exist.")
        return turn


class FakeUowFactory:
    """`uow_factory` over one shared in-memory store."""

    def __init__(self) -> None:
        self.store = Store()

    def __call__(self) -> FakeUnitOfWork:
        return FakeUnitOfWork(self.store)
