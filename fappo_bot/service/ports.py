"""The ports the storage layer implements: repositories and the unit of work (STYLE practice 7).

Contract for every implementation (the in-memory fake in tests/service/fakes.py, SQLAlchemy in
fappo_bot/storage/):
- Nothing is visible to other units of work until `commit()`. Leaving the `async with` block
  without `commit()` rolls back. After `commit()` or `rollback()` the unit of work may be used for
  a new transaction.
- Records go in and come out as the frozen values of `fappo_bot.service.records`; a value read
  back equals the value written (rules values included, field for field).
- `update` of a versioned record (Game, CharacterRecord, Turn, Post) receives the new value with
  `version = old.version + 1`; it raises `StaleVersion` when the stored version is not
  `new.version - 1`, and `NotFound` when the row does not exist.
- `lock_turn(turn_id)` takes the turn's write lock for the rest of the transaction (PostgreSQL
  `SELECT ... FOR UPDATE`, SQLite `BEGIN IMMEDIATE`), then returns the turn as stored now. Posting,
  closing, resolving and undoing call it first, so they are serialised per turn.
- Lists come back in a stable order, stated on each method.
- Unique constraints: a game per `channel_key`; a character name per game (case-insensitive,
  `name_key = name.casefold()`); a post per (`channel_key`, `message_key`); a turn per
  (`game_id`, `number`) among turns that are not VOID (a partial unique index: an undone
  resolution voids the turn it opened, and the turn is opened again under the same number);
  a revision per (`post_id`, `number`); an outbox message per `dedupe_key`. A violation raises
  `Conflict`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Protocol, Self

from fappo_bot.rules import Character, Order
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


@dataclass(frozen=True)
class GameAtPlay:
    """A game, its current turn and one user's roles in it, read together (a post's first read)."""

    game: Game
    #: as `TurnRepository.latest`: the turn with the highest number that is not VOID, or None
    turn: TurnRecord | None
    #: the user's memberships of the game, as `MembershipRepository.list` has them
    roles: frozenset[Role]


@dataclass(frozen=True, slots=True)
class OpenGame:
    """A game whose latest turn is open, with that turn and its members (`with_open_turns`)."""

    game: Game
    turn: TurnRecord
    #: the members' user ids, each once, in `MembershipRepository.list`'s order
    members: tuple[str, ...]


@dataclass(slots=True)
class StateWrite:
    """What a resolution writes of one character (`CharacterRepository.write_states`): its new
    rules state and missed-turn count (F30), at `version`, the version read plus one. Made by
    the hundred in a resolve, so not frozen (a frozen dataclass sets each field through
    `object.__setattr__`); never changed once made."""

    id: str
    state: Character
    missed_turns: int
    version: int


class GameRepository(Protocol):
    async def add(self, game: Game) -> None: ...
    async def get(self, game_id: str) -> Game | None: ...
    async def at_play(
        self, game_id: str, user_id: str, message: tuple[str, str] | None = None
    ) -> GameAtPlay | None:
        """`get`, `TurnRepository.latest` and the user's roles in one read; None when there is
        no such game. `message` (channel_key, message_key) is a hint: the repository may read
        along whether a post of that message exists, so that `PostRepository.by_message` of it
        later in this unit of work needs no read of its own (it must answer the same)."""
        ...

    async def by_channel(self, channel_key: str) -> Game | None: ...
    async def update(self, game: Game) -> None: ...
    async def list(self, status: GameStatus | None = None) -> Sequence[Game]:
        """Games (with that status), oldest first (created_at, id)."""
        ...

    async def with_open_turns(self) -> Sequence[OpenGame]:
        """Every game whose latest turn (`TurnRepository.latest`) is open, oldest game first, in
        one read whatever the number of games."""
        ...


class MembershipRepository(Protocol):
    async def add(self, membership: Membership) -> None:
        """Idempotent: adding an existing (game, user, role) does nothing."""
        ...

    async def remove(self, game_id: str, user_id: str, role: Role) -> bool:
        """Whether a membership was removed."""
        ...

    async def list(self, game_id: str) -> Sequence[Membership]:
        """The game's members, by (role, user_id)."""
        ...

    async def games_of(self, user_id: str) -> Sequence[Membership]:
        """Every membership of one user (any game), by game_id."""
        ...


class CharacterRepository(Protocol):
    async def add(self, character: CharacterRecord) -> None: ...
    async def get(self, character_id: str) -> CharacterRecord | None: ...
    async def by_name(self, game_id: str, name: str) -> CharacterRecord | None:
        """Exact name, case-insensitive (any status)."""
        ...

    async def list(self, game_id: str) -> Sequence[CharacterRecord]:
        """Every character of the game, any status, by (created_at, id)."""
        ...

    async def roster(self, game_id: str) -> Sequence[RosterEntry]:
        """`list`'s characters, in its order, each its name, status and runner alone."""
        ...

    async def update(self, character: CharacterRecord) -> None: ...
    async def write_states(self, writes: Sequence[StateWrite]) -> None:
        """Each character's state and missed turns and its version (`StateWrite`), the rest of
        it as stored (its sheet, name and owner travel nowhere): a resolution writes hundreds
        of characters and changes only those. NotFound and StaleVersion as `update`."""
        ...


class TurnRepository(Protocol):
    async def add(self, turn: TurnRecord) -> None: ...
    async def get(self, turn_id: str) -> TurnRecord | None: ...
    async def latest(self, game_id: str) -> TurnRecord | None:
        """The game's turn with the highest number that is not VOID, or None."""
        ...

    async def by_number(self, game_id: str, number: int) -> TurnRecord | None:
        """The game's turn of that number that is not VOID (a void turn's number is taken
        again), or None: one row, however long the game's history."""
        ...

    async def list(self, game_id: str) -> Sequence[TurnRecord]:
        """Every turn of the game (VOID included), by (number, opened_at)."""
        ...

    async def statuses(self, game_id: str) -> Sequence[tuple[int, TurnStatus]]:
        """What `list` gives, as each turn's number and status only (nothing else read)."""
        ...

    async def update(self, turn: TurnRecord) -> None: ...
    async def due(self, now: datetime) -> Sequence[TurnRecord]:
        """OPEN, unpaused turns with `alarm_at <= now`, by (alarm_at, id)."""
        ...


class PostRepository(Protocol):
    async def add(self, post: Post, revision: PostRevision) -> None:
        """A new post with its first revision."""
        ...

    async def get(self, post_id: str) -> Post | None: ...
    async def by_message(self, channel_key: str, message_key: str) -> Post | None: ...
    async def update(self, post: Post) -> None: ...
    async def set_reply_keys(self, post_id: str, reply_keys: Sequence[str]) -> bool:
        """Store the adapter's reply messages of a post and bump its version, in one write
        (nothing read first); False if there is no such post."""
        ...

    async def add_revision(self, revision: PostRevision) -> None: ...
    async def revisions(self, post_id: str) -> Sequence[PostRevision]:
        """Every revision of the post, by number."""
        ...

    async def list(self, turn_id: str, include_deleted: bool = False) -> Sequence[Post]:
        """The turn's posts, by (created_at, id)."""
        ...

    async def latest_revisions(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> Sequence[tuple[Post, PostRevision]]:
        """Every non-deleted post of the turn with its newest revision, by (updated_at, id).
        With `actors` (case-folded names), each revision holds only those actors' orders (the
        others are not even read back)."""
        ...

    async def in_force_revisions(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> Sequence[tuple[Post, PostRevision]]:
        """What `latest_revisions` gives, less posts none of whose orders is in force: at least
        every post whose newest revision holds the last written orders of a character (the
        newest by revision time, then post update time, then post id; F29 Amb-3), in
        (updated_at, id) order. A turn's cost to read then follows its characters, not how
        many posts it has had."""
        ...

    async def orders_in_force(
        self, turn_id: str, actors: Collection[str] | None = None
    ) -> dict[str, Order]:
        """Per character of `actors` (case-folded names; None: every character) that has one,
        its order in force (the last written, as `in_force_revisions` ranks them), without its
        post and revision."""
        ...


class ResolutionRepository(Protocol):
    async def add(self, resolution: Resolution) -> None: ...
    async def get(self, resolution_id: str) -> Resolution | None: ...
    async def for_turn(self, turn_id: str) -> Resolution | None:
        """The turn's resolution that is not undone, or None."""
        ...

    async def id_for_turn(self, turn_id: str) -> str | None:
        """The id of the turn's resolution that is not undone (nothing else read), or None."""
        ...

    async def latest(self, game_id: str) -> Resolution | None:
        """The game's newest resolution that is not undone (by created_at, then turn_number)."""
        ...

    async def mark_undone(self, resolution_id: str, at: datetime) -> None: ...


class OutboxRepository(Protocol):
    async def add(self, message: OutboxMessage) -> bool:
        """Queue a message; False (nothing queued) when its dedupe_key is already there."""
        ...

    async def add_many(self, messages: Sequence[OutboxMessage]) -> None:
        """Queue messages in this order, in one statement; a message whose dedupe_key is already
        there is skipped (as `add` would)."""
        ...

    async def get(self, message_id: str) -> OutboxMessage | None: ...
    async def by_dedupe(self, keys: Collection[str]) -> Sequence[OutboxMessage]:
        """The messages queued under these dedupe keys (the keys of no message left out)."""
        ...

    async def pending(
        self, now: datetime, limit: int = 100, dest_keys: Collection[str] | None = None,
        dest_kind: DestinationKind | None = None,
    ) -> Sequence[OutboxMessage]:
        """Messages to deliver now, oldest first (created_at, id): unsent, not given up, due
        (`next_attempt_at` None or <= now), and with no earlier unsent message of the same
        destination still waiting for its next attempt (order per destination). With
        `dest_keys`: only messages to those destinations (a shard's channels and users); with
        `dest_kind`: only those of that kind (the DMs, which shard 0 delivers)."""
        ...

    async def inbox(self, user_id: str) -> Sequence[OutboxMessage]:
        """The DMs to one user not delivered (pending or given up), oldest first."""
        ...

    async def for_game(self, game_id: str) -> Sequence[OutboxMessage]:
        """Every message of a game, sent or not, oldest first (created_at, id)."""
        ...

    async def by_key_prefix(self, game_id: str, prefix: str) -> Sequence[OutboxMessage]:
        """The game's messages whose dedupe key starts with `prefix` (a resolution's:
        `results:<id>`, `revealed:<id>`), by (created_at, id)."""
        ...

    async def given_up(self, game_id: str) -> Sequence[OutboxMessage]:
        """A game's messages given up (`gave_up_at` set) and not read since (`sent_at` None),
        oldest first."""
        ...

    async def mark_sent(
        self, message_id: str, at: datetime, delivered_keys: Sequence[str] = ()
    ) -> None:
        """sent_at = at and the delivered keys, unless it was sent already (NotFound if none)."""
        ...

    async def mark_failed(
        self, message_id: str, error: str, retry_at: datetime | None, at: datetime
    ) -> None:
        """attempts += 1, last_error = error, next_attempt_at = retry_at; with no `retry_at`
        the delivery is given up for good (gave_up_at = at)."""
        ...


class UserRepository(Protocol):
    async def set_name(self, name: UserName) -> None:
        """Store (or replace) one user's display name."""
        ...

    async def names(self, user_ids: Collection[str]) -> Mapping[str, str]:
        """The display names known of those users (users with none are left out)."""
        ...


class ChannelMarkRepository(Protocol):
    """Per channel (a room or a DM channel, by the adapter's key), the newest message the
    adapter had handled, every one before it included (the adapter's message keys)."""

    async def marks(self) -> Mapping[str, str]:
        """Every channel's mark."""
        ...

    async def set_marks(self, marks: Mapping[str, str], at: datetime) -> None:
        """Store (or replace) these channels' marks."""
        ...


class PaceRepository(Protocol):
    """The players' pace (`PlayerPace`), one per user."""

    async def get(self, user_id: str) -> PlayerPace | None: ...
    async def many(self, user_ids: Collection[str]) -> Mapping[str, PlayerPace]:
        """The paces of these users that are stored (the others are left out)."""
        ...

    async def put(self, pace: PlayerPace) -> None:
        """Store it (the last writer wins)."""
        ...

    async def with_digest(self, hour: int) -> Sequence[PlayerPace]:
        """Every pace with a daily digest at `hour` (UTC) or earlier, by user id."""
        ...


class AuditRepository(Protocol):
    async def add(self, entry: AuditEntry) -> None: ...
    async def list(self, game_id: str, limit: int | None = None) -> Sequence[AuditEntry]:
        """The game's entries, oldest first (at, id); with a limit, the newest `limit` of them."""
        ...


class LedgerRepository(Protocol):
    async def add(self, entry: LedgerEntry) -> None: ...
    async def for_player(self, player: str) -> Sequence[LedgerEntry]:
        """Every entry of one player, oldest first (at, id)."""
        ...


class UnitOfWork(Protocol):
    """One transaction over every repository."""

    games: GameRepository
    members: MembershipRepository
    characters: CharacterRepository
    turns: TurnRepository
    posts: PostRepository
    resolutions: ResolutionRepository
    outbox: OutboxRepository
    audit: AuditRepository
    ledger: LedgerRepository
    users: UserRepository
    channels: ChannelMarkRepository
    pace: PaceRepository

    async def __aenter__(self) -> Self: ...
    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Roll back whatever was not committed."""
        ...

    async def commit(self) -> None: ...
    async def rollback(self) -> None: ...
    async def lock_turn(self, turn_id: str) -> TurnRecord:
        """Lock the turn for this transaction and return it as stored now (NotFound if none)."""
        ...


UowFactory = Callable[[], UnitOfWork]
"""Builds a fresh unit of work; the composition root passes one to `Services`."""
