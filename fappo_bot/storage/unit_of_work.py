"""The unit of work: one database transaction per use case (STYLE practice 7).

Transactions and locks (docs/storage.md):
- SQLite: a writer begins `BEGIN IMMEDIATE` (the database's write lock, waited for up to the
  busy timeout), so it sees everything committed before it began. `lock_turn` then only reads
  the turn.
- PostgreSQL: READ COMMITTED; `lock_turn` is `SELECT ... FOR UPDATE` of the turn's row, so posting,
  closing, resolving and undoing one turn are serialised, and whoever waited reads the turn as the
  winner committed it.
- Optimistic versions: UPDATE ... WHERE version = <read>; a lost race is `StaleVersion`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import Token
from types import TracebackType
from typing import TYPE_CHECKING, Self, cast

from sqlalchemy.ext.asyncio import AsyncEngine

from fappo_bot.service.ports import (
    AuditRepository,
    ChannelMarkRepository,
    CharacterRepository,
    GameRepository,
    LedgerRepository,
    MembershipRepository,
    OutboxRepository,
    PaceRepository,
    PostRepository,
    ResolutionRepository,
    TurnRepository,
    UnitOfWork,
    UowFactory,
    UserRepository,
)
from fappo_bot.service.records import TurnRecord
from fappo_bot.storage.connection import Transactions
from fappo_bot.storage.driver import Tap
from fappo_bot.storage.pace import SqlPace
from fappo_bot.storage.posts import SqlPosts
from fappo_bot.storage.repositories import (
    SqlAudit,
    SqlChannelMarks,
    SqlCharacters,
    SqlGames,
    SqlLedger,
    SqlMembers,
    SqlOutbox,
    SqlResolutions,
    SqlTurns,
    SqlUsers,
)
from fappo_bot.storage.transaction import Repository, Tx
from fappo_bot.storage.values import Remembered
from fappo_bot.storage.values import current as current_remembered


class SqlUnitOfWork:
    """`fappo_bot.service.ports.UnitOfWork`: transactions run at the driver (`driver.py`), on the
    unit of work's own pooled connection (`connection.Transactions`)."""

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

    def __init__(self, transactions: Transactions, remembered: Remembered | None = None,
                 queued: Sequence[Callable[[], None]] = ()) -> None:
        self._transactions = transactions
        self._queued = queued
        self._tx: Tx | None = None
        self._turns: SqlTurns
        self._remembered = remembered
        self._token: Token[Remembered | None] | None = None
        self._repositories: tuple[Repository, ...] = ()

    @property
    def tx(self) -> Tx:
        if self._tx is None:
            raise RuntimeError("use the unit of work inside `async with`")
        return self._tx

    async def __aenter__(self) -> Self:
        self._begin(Tx(self._transactions))
        if self._remembered is not None:
            self._token = current_remembered.set(self._remembered)
        return self

    def _begin(self, tx: Tx) -> None:
        """`tx` is the transaction now: the repositories made for the first one move to it."""
        self._tx = tx
        if self._repositories:
            for repository in self._repositories:
                repository._tx = tx
            return
        self.games = SqlGames(tx)
        self.members = SqlMembers(tx)
        self.characters = SqlCharacters(tx)
        self._turns = SqlTurns(tx)
        self.turns = self._turns
        self.posts = SqlPosts(tx)
        self.resolutions = SqlResolutions(tx)
        self.outbox = SqlOutbox(tx)
        self.audit = SqlAudit(tx)
        self.ledger = SqlLedger(tx)
        self.users = SqlUsers(tx)
        self.channels = SqlChannelMarks(tx)
        self.pace = SqlPace(tx)
        self._repositories = (
            self.games, self.members, self.characters, self._turns, self.posts,
            self.resolutions, self.outbox, self.audit, self.ledger, self.users, self.channels,
            self.pace)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        tx, self._tx = self._tx, None
        if self._token is not None:
            token, self._token = self._token, None
            try:
                current_remembered.reset(token)
            except ValueError:  # left in another context than it was entered in: nothing to undo
                pass
        if tx is None:
            return
        try:
            await tx.rollback()
        except BaseException:
            # the connection is in an unknown state (cancelled mid-statement, server gone): the
            # pool must not hand it out again
            await tx.source.close(broken=True)
            raise
        await tx.source.close()

    async def commit(self) -> None:
        """Make everything of this unit of work visible, durably; a lost race raises StaleVersion.
        What follows in this unit of work is a new transaction that reads rows afresh."""
        tx = self.tx
        try:
            await tx.commit()
        except BaseException:
            await tx.rollback()
            raise
        finally:
            self._begin(Tx(tx.source))
        if tx.queued:  # committed: the adapter delivers it now, not at its next round
            for listener in self._queued:
                listener()

    async def rollback(self) -> None:
        """Drop everything not committed; what follows is a new transaction."""
        tx = self.tx
        await tx.rollback()
        self._begin(Tx(tx.source))

    async def lock_turn(self, turn_id: str) -> TurnRecord:
        """Lock the turn until the transaction ends and return it as committed now."""
        return await self._turns.lock(turn_id)


class SqlUnitOfWorkFactory:
    """`fappo_bot.service.ports.UowFactory` for one engine: `factory()` is a new unit of work."""

    def __init__(self, engine: AsyncEngine, tap: Tap | None = None) -> None:
        """`tap`: see `driver.Tap` (tests and benchmarks)."""
        self.engine = engine
        self.tap = tap
        #: the records and documents its units of work built, for the next ones to reuse
        self.remembered = Remembered()
        #: called after each commit that queued an outbox message (`when_queued`)
        self._queued: list[Callable[[], None]] = []

    def when_queued(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every commit that added a message to the outbox: an adapter
        wakes its delivery then, so a message goes out as soon as it is visible, whichever
        use case queued it (a DM'd post, a form, call time), not at the delivery's next
        round."""
        self._queued.append(listener)

    def __call__(self) -> SqlUnitOfWork:
        return SqlUnitOfWork(Transactions(self.engine, self.tap, write=True), self.remembered,
                             self._queued)

    def reader(self) -> SqlUnitOfWork:
        """A unit of work for reads only. On SQLite it neither waits for nor holds the write
        lock: it reads the last committed snapshot while a writer works. Use-case code that
        writes always uses `factory()`."""
        return SqlUnitOfWork(Transactions(self.engine, self.tap, write=False), self.remembered)


if TYPE_CHECKING:  # mypy proves the factory and its units of work fit the service's ports
    _PORT_CHECK: UowFactory = SqlUnitOfWorkFactory(cast(AsyncEngine, None))
    _UOW_CHECK: UnitOfWork = SqlUnitOfWork(cast(Transactions, None))
