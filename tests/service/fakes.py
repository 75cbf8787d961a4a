"""An in-memory unit of work for the service's unit tests (cosmicpython's FakeUnitOfWork).

It keeps the contract of `fappo_bot.service.ports`: changes are private to the unit of work
until `commit()`; `update` checks `version`; unique keys raise `Conflict`; `lock_turn` serialises
whoever calls it (one lock for the whole store, held until commit or rollback, like SQLite's
`BEGIN IMMEDIATE`); a commit whose versioned records changed underneath it raises `StaleVersion`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import TracebackType
from typing import Any, Self

from fappo_bot.service.errors import Conflict, NotFound, StaleVersion
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


@dataclass
class Store:
    """The committed data, shared by every fake unit of work of one test."""

    games: dict[str, Game] = field(default_factory=dict)
    members: dict[tuple[str, str, str], Membership] = field(default_factory=dict)
    characters: dict[str, CharacterRecord] = field(default_factory=dict)
    turns: dict[str, Turn] = field(default_factory=dict)
    posts: dict[str, Post] = field(default_factory=dict)
    revisions: dict[tuple[str, int], PostRevision] = field(default_factory=dict)
    resolutions: dict[str, Resolution] = field(default_factory=dict)
    outbox: dict[str, OutboxMessage] = field(default_factory=dict)
    audit: dict[str, AuditEntry] = field(default_factory=dict)
    ledger: dict[str, LedgerEntry] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    commits: int = 0

    def tables(self) -> dict[str, dict[Any, Any]]:
        return {
            name: getattr(self, name)
            for name in (
                "games",
                "members",
                "characters",
                "turns",
                "posts",
                "revisions",
                "resolutions",
                "outbox",
                "audit",
                "ledger",
            )
        }


class _Repo:
    def __init__(self, uow: FakeUnitOfWork) -> None:
        self.uow = uow

    def t(self, name: str) -> dict[Any, Any]:
        return self.uow.data[name]

    def _update_versioned(self, table: str, record: Any) -> None:
        rows = self.t(table)
        old = rows.get(record.id)
        if old is None:
            raise NotFound(f"nothing to update: {record.id}")
        if old.version != record.version - 1:
            raise StaleVersion("Someone else changed this at the same moment; please try again.")
        rows[record.id] = record
        # the version the transaction first saw: what the store must still hold at commit
        self.uow.touched.setdefault((table, record.id), old.version)


class FakeGames(_Repo):
    async def add(self, game: Game) -> None:
        if any(g.channel_key == game.channel_key for g in self.t("games").values()):
            raise Conflict("There is already a game in this channel.")
        self.t("games")[game.id] = game

    async def get(self, game_id: str) -> Game | None:
        return self.t("games").get(game_id)

    async def by_channel(self, channel_key: str) -> Game | None:
        return next((g for g in self.t("games").values() if g.channel_key == channel_key), None)

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
        self._update_versioned("games", game)

    async def list(self, status: GameStatus | None = None) -> Sequence[Game]:
        games = [g for g in self.t("games").values() if status is None or g.status is status]
        return sorted(games, key=lambda g: (g.created_at, g.id))


class FakeMembers(_Repo):
    async def add(self, membership: Membership) -> None:
        key = (membership.game_id, membership.user_id, membership.role.value)
        self.t("members").setdefault(key, membership)

    async def remove(self, game_id: str, user_id: str, role: Role) -> bool:
        return self.t("members").pop((game_id, user_id, role.value), None) is not None

    async def list(self, game_id: str) -> Sequence[Membership]:
        rows = [m for m in self.t("members").values() if m.game_id == game_id]
        return sorted(rows, key=lambda m: (m.role.value, m.user_id))

    async def games_of(self, user_id: str) -> Sequence[Membership]:
        rows = [m for m in self.t("members").values() if m.user_id == user_id]
        return sorted(rows, key=lambda m: (m.game_id, m.role.value))


class FakeCharacters(_Repo):
    async def add(self, character: CharacterRecord) -> None:
        if await self.by_name(character.game_id, character.name) is not None:
            raise Conflict(f'There is already a character called "{character.name}".')
        self.t("characters")[character.id] = character

    async def get(self, character_id: str) -> CharacterRecord | None:
        return self.t("characters").get(character_id)

    async def by_name(self, game_id: str, name: str) -> CharacterRecord | None:
        key = name.casefold()
        return next(
            (
                c
                for c in self.t("characters").values()
                if c.game_id == game_id and c.name.casefold() == key
            ),
            None,
        )

    async def list(self, game_id: str) -> Sequence[CharacterRecord]:
        rows = [c for c in self.t("characters").values() if c.game_id == game_id]
        return sorted(rows, key=lambda c: (c.created_at, c.id))

    async def update(self, character: CharacterRecord) -> None:
        clash = await self.by_name(character.game_id, character.name)
        if clash is not None and clash.id != character.id:
            raise Conflict(f'There is already a character called "{character.name}".')
        self._update_versioned("characters", character)


class FakeTurns(_Repo):
    async def add(self, turn: Turn) -> None:
        if any(
            t.game_id == turn.game_id and t.number == turn.number and t.status is not TurnStatus.VOID
            for t in self.t("turns").values()
        ):
            raise Conflict(f"Turn {turn.number} already exists.")
        self.t("turns")[turn.id] = turn

    async def get(self, turn_id: str) -> Turn | None:
        return self.t("turns").get(turn_id)

    async def latest(self, game_id: str) -> Turn | None:
        rows = [
            t
            for t in self.t("turns").values()
            if t.game_id == game_id and t.status is not TurnStatus.VOID
        ]
        return max(rows, key=lambda t: (t.number, t.opened_at), default=None)

    async def list(self, game_id: str) -> Sequence[Turn]:
        rows = [t for t in self.t("turns").values() if t.game_id == game_id]
        return sorted(rows, key=lambda t: (t.number, t.opened_at))

    async def update(self, turn: Turn) -> None:
        self._update_versioned("turns", turn)

    async def due(self, now: datetime) -> Sequence[Turn]:
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
        self.t("posts")[post.id] = post
        await self.add_revision(revision)

    async def get(self, post_id: str) -> Post | None:
        return self.t("posts").get(post_id)

    async def by_message(self, channel_key: str, message_key: str) -> Post | None:
        return next(
            (
                p
                for p in self.t("posts").values()
                if p.channel_key == channel_key and p.message_key == message_key
            ),
            None,
        )

    async def update(self, post: Post) -> None:
        self._update_versioned("posts", post)

    async def add_revision(self, revision: PostRevision) -> None:
        key = (revision.post_id, revision.number)
        if key in self.t("revisions"):
            raise Conflict("This revision is already recorded.")
        self.t("revisions")[key] = revision

    async def revisions(self, post_id: str) -> Sequence[PostRevision]:
        rows = [r for (pid, _), r in self.t("revisions").items() if pid == post_id]
        return sorted(rows, key=lambda r: r.number)

    async def list(self, turn_id: str, include_deleted: bool = False) -> Sequence[Post]:
        rows = [
            p
            for p in self.t("posts").values()
            if p.turn_id == turn_id and (include_deleted or not p.deleted)
        ]
        return sorted(rows, key=lambda p: (p.created_at, p.id))

    async def latest_revisions(self, turn_id: str) -> Sequence[tuple[Post, PostRevision]]:
        posts = sorted(
            (p for p in self.t("posts").values() if p.turn_id == turn_id and not p.deleted),
            key=lambda p: (p.updated_at, p.id),
        )
        return [(p, self.t("revisions")[(p.id, p.revision)]) for p in posts]


class FakeResolutions(_Repo):
    async def add(self, resolution: Resolution) -> None:
        self.t("resolutions")[resolution.id] = resolution

    async def get(self, resolution_id: str) -> Resolution | None:
        return self.t("resolutions").get(resolution_id)

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
        rows = self.t("resolutions")
        rows[resolution_id] = rows[resolution_id].model_copy(
            update={"undone": True, "undone_at": at}
        )


class FakeOutbox(_Repo):
    async def add(self, message: OutboxMessage) -> bool:
        if any(m.dedupe_key == message.dedupe_key for m in self.t("outbox").values()):
            return False
        self.t("outbox")[message.id] = message
        return True

    async def add_many(self, messages: Sequence[OutboxMessage]) -> int:
        return sum([await self.add(message) for message in messages])

    async def get(self, message_id: str) -> OutboxMessage | None:
        return self.t("outbox").get(message_id)

    async def pending(self, limit: int = 100) -> Sequence[OutboxMessage]:
        rows = [m for m in self.t("outbox").values() if m.sent_at is None]
        return sorted(rows, key=lambda m: (m.created_at, m.id))[:limit]

    async def for_game(self, game_id: str) -> Sequence[OutboxMessage]:
        rows = [m for m in self.t("outbox").values() if m.game_id == game_id]
        return sorted(rows, key=lambda m: (m.created_at, m.id))

    async def mark_sent(self, message_id: str, at: datetime) -> None:
        rows = self.t("outbox")
        rows[message_id] = rows[message_id].model_copy(update={"sent_at": at})

    async def mark_failed(self, message_id: str, error: str) -> None:
        rows = self.t("outbox")
        old = rows[message_id]
        rows[message_id] = old.model_copy(
            update={"attempts": old.attempts + 1, "last_error": error}
        )


class FakeAudit(_Repo):
    async def add(self, entry: AuditEntry) -> None:
        self.t("audit")[entry.id] = entry

    async def list(self, game_id: str, limit: int | None = None) -> Sequence[AuditEntry]:
        rows = sorted(
            (e for e in self.t("audit").values() if e.game_id == game_id),
            key=lambda e: (e.at, e.id),
        )
        return rows[-limit:] if limit else rows


class FakeLedger(_Repo):
    async def add(self, entry: LedgerEntry) -> None:
        self.t("ledger")[entry.id] = entry

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

    def _begin(self) -> None:
        self.data = {name: dict(rows) for name, rows in self.store.tables().items()}
        self.touched: dict[tuple[str, str], int] = {}

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
            current = self.store.tables()[table].get(record_id)
            if current is not None and current.version != old_version:
                await self.rollback()
                raise StaleVersion("Someone else changed this at the same moment; please try again.")
        for name, rows in self.data.items():
            target = self.store.tables()[name]
            target.clear()
            target.update(rows)
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

    async def lock_turn(self, turn_id: str) -> Turn:
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
