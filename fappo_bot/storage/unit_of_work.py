"""The SQLAlchemy unit of work: one database transaction per use case (STYLE practice 7).

Transactions and locks (docs/storage.md):
- SQLite: every unit of work that may write begins `BEGIN IMMEDIATE` at its first statement, so
  writers queue on the database's write lock (busy_timeout) and each sees everything committed
  before it began. `lock_turn` then only reads the turn.
- PostgreSQL: READ COMMITTED; `lock_turn` is `SELECT ... FOR UPDATE` of the turn's row, so posting,
  closing, resolving and undoing one turn are serialised, and whoever waited reads the turn as the
  winner committed it.
- Optimistic versions: UPDATE ... WHERE version = <read>; a lost race is `StaleVersion`.
"""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING, Self, cast

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from fappo_bot.service.ports import (
    AuditRepository,
    CharacterRepository,
    GameRepository,
    LedgerRepository,
    MembershipRepository,
    OutboxRepository,
    PostRepository,
    ResolutionRepository,
    TurnRepository,
    UnitOfWork,
    UowFactory,
)
from fappo_bot.service.records import Turn
from fappo_bot.storage.engine import writer
from fappo_bot.storage.errors import database_errors
from fappo_bot.storage.repositories import (
    KEPT_ROWS,
    NO_POST,
    READ_ROWS,
    SqlAudit,
    SqlCharacters,
    SqlGames,
    SqlLedger,
    SqlMembers,
    SqlOutbox,
    SqlPosts,
    SqlResolutions,
    SqlTurns,
)
from fappo_bot.storage.updates import PENDING, flush_updates


class SqlUnitOfWork:
    """`fappo_bot.service.ports.UnitOfWork` over one `AsyncSession`."""

    games: GameRepository
    members: MembershipRepository
    characters: CharacterRepository
    turns: TurnRepository
    posts: PostRepository
    resolutions: ResolutionRepository
    outbox: OutboxRepository
    audit: AuditRepository
    ledger: LedgerRepository

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions
        self._session: AsyncSession | None = None
        self._turns: SqlTurns

    @property
    def session(self) -> AsyncSession:
        if self._session is None:
            raise RuntimeError("use the unit of work inside `async with`")
        return self._session

    async def __aenter__(self) -> Self:
        session = self._sessions()
        self._session = session
        self.games = SqlGames(session)
        self.members = SqlMembers(session)
        self.characters = SqlCharacters(session)
        self._turns = SqlTurns(session)
        self.turns = self._turns
        self.posts = SqlPosts(session)
        self.resolutions = SqlResolutions(session)
        self.outbox = SqlOutbox(session)
        self.audit = SqlAudit(session)
        self.ledger = SqlLedger(session)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        session, self._session = self._session, None
        if session is not None:
            try:
                await session.rollback()
            finally:
                await session.close()

    async def commit(self) -> None:
        """Make everything of this unit of work visible; a lost race raises StaleVersion."""
        session = self.session
        try:
            async with database_errors():
                await flush_updates(session)
                await session.commit()
        except BaseException:
            await session.rollback()
            _forget(session)
            raise
        # The next transaction reads rows afresh (nothing lazy-loads in async code).
        _forget(session)

    async def rollback(self) -> None:
        """Drop everything not committed."""
        await self.session.rollback()
        _forget(self.session)

    async def lock_turn(self, turn_id: str) -> Turn:
        """Lock the turn until the transaction ends and return it as committed now."""
        return await self._turns.lock(turn_id)


def _forget(session: AsyncSession) -> None:
    session.info.pop(KEPT_ROWS, None)
    session.info.pop(READ_ROWS, None)
    session.info.pop(NO_POST, None)
    session.info.pop(PENDING, None)
    session.expunge_all()


class SqlUnitOfWorkFactory:
    """`fappo_bot.service.ports.UowFactory` for one engine: `factory()` is a new unit of work."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._writers = async_sessionmaker(writer(engine), expire_on_commit=False)
        self._readers = async_sessionmaker(engine, expire_on_commit=False)

    def __call__(self) -> SqlUnitOfWork:
        return SqlUnitOfWork(self._writers)

    def reader(self) -> SqlUnitOfWork:
        """A unit of work for reads only. On SQLite it neither waits for nor holds the write
        lock: it reads the last committed snapshot while a writer works. Use-case code that
        writes always uses `factory()`."""
        return SqlUnitOfWork(self._readers)


if TYPE_CHECKING:  # mypy proves the factory and its units of work fit the service's ports
    _PORT_CHECK: UowFactory = SqlUnitOfWorkFactory(cast(AsyncEngine, None))
    _UOW_CHECK: UnitOfWork = SqlUnitOfWork(cast(async_sessionmaker[AsyncSession], None))
