"""Database errors turned into the service's errors, with a sentence a user can act on."""

from __future__ import annotations

import sqlite3
from typing import NoReturn

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from fappo_bot.service.errors import Conflict, InvalidInput, StaleVersion, TransientError

#: table -> what a clash of its unique key means to a user
_UNIQUE_MESSAGES = {
    "games": "This channel already has a game.",
    "characters": "This game already has a character with that name.",
    "posts": "That message is already recorded as a post.",
    "turns": "That turn already exists; somebody opened it at the same time.",
    "outbox": "That message is already queued.",
    "memberships": "That member is already in the game.",
    "post_revisions": "That revision of the post is already recorded.",
}

STALE_MESSAGE = "Somebody changed this at the same time; please try again."
BUSY_MESSAGE = "The game is busy with another command; please try again in a moment."
LOST_MESSAGE = "The connection to the database failed; nothing was saved. Please try again."
IN_DOUBT_MESSAGE = (
    "The connection to the database failed while saving, so it may or may not have been saved; "
    "look before trying again."
)
#: PostgreSQL errors that mean the connection or the server, not the command: connection
#: exceptions (class 08) and the server shutting down or starting (57P01-57P03)
_TRANSIENT_SQLSTATES = ("08", "57P01", "57P02", "57P03")
NUL_MESSAGE = (
    "The text contains a NUL character (U+0000), which cannot be stored; remove it and send it "
    "again."
)


def conflict_from(error: BaseException) -> Conflict:
    """The Conflict a constraint violation means (unique keys name their table in the message)."""
    text = str(error.orig if isinstance(error, IntegrityError) else error)
    for table, message in _UNIQUE_MESSAGES.items():
        if f"{table}." in text or f"uq_{table}_" in text or f"pk_{table}" in text:
            return Conflict(message)
    if "foreign key" in text.casefold():
        return Conflict("That refers to something that does not exist (any more).")
    return Conflict("That clashes with something already stored; please try again.")


def reraise(exc: Exception, lost: bool = False, committing: bool = False) -> NoReturn:
    """Raise the service's error that `exc` means: Conflict / StaleVersion for constraint and
    version failures, a busy SQLite database and PostgreSQL deadlocks (the service runs a
    StaleVersion use case again), TransientError for a lost connection (`lost`: the driver
    says it is gone; in doubt when it was lost `committing`), InvalidInput for a NUL on PostgreSQL; else `exc` itself. SQLAlchemy's
    errors and the drivers' own (`driver.py`) alike."""
    if lost or transient(exc):
        raise TransientError(IN_DOUBT_MESSAGE if committing else LOST_MESSAGE,
                             in_doubt=committing) from exc
    meaning = service_error(exc)
    if meaning is None:
        raise exc
    raise meaning from exc


def transient(exc: BaseException) -> bool:
    """Whether `exc` means the connection or the server failed, not the command (a broken
    socket, a connection asyncpg or SQLAlchemy found closed, PostgreSQL shutting down)."""
    if isinstance(exc, DBAPIError):
        return exc.connection_invalidated or (exc.orig is not None and transient(exc.orig))
    if isinstance(exc, OSError):  # ConnectionError, TimeoutError, a refused connection
        return True
    if _postgres_error(exc):
        return str(getattr(exc, "sqlstate", "")).startswith(_TRANSIENT_SQLSTATES)
    names = {cls.__name__ for cls in type(exc).__mro__}
    return "InterfaceError" in names and "closed" in str(exc)  # asyncpg: connection is closed


def service_error(exc: Exception) -> Exception | None:
    """The service's error a database error means (None: it means none of them)."""
    if isinstance(exc, IntegrityError | sqlite3.IntegrityError):
        return conflict_from(exc)
    if isinstance(exc, StaleDataError):
        return StaleVersion(STALE_MESSAGE)
    if isinstance(exc, DBAPIError):
        return _meaning(exc.orig)
    if isinstance(exc, sqlite3.OperationalError):
        return _meaning(exc)
    if _postgres_error(exc):
        if getattr(exc, "sqlstate", "").startswith("23"):  # integrity constraint violation
            return conflict_from(exc)
        return _meaning(exc)
    return None


def _meaning(error: BaseException | None) -> Exception | None:
    """The service's error for a driver error (None when it means none of them)."""
    text = str(error).casefold()
    if "database is locked" in text:  # SQLite: the write lock was not free within the timeout
        return Conflict(BUSY_MESSAGE)
    if "deadlock detected" in text or "could not serialize" in text:  # PostgreSQL: retry
        return StaleVersion(STALE_MESSAGE)
    if "0x00" in text:  # PostgreSQL text cannot hold U+0000
        return InvalidInput(NUL_MESSAGE)
    return None


def _postgres_error(exc: BaseException) -> bool:
    """Whether `exc` is an error the PostgreSQL server sent (asyncpg's PostgresError), without
    importing asyncpg where only SQLite is used."""
    return any(
        cls.__name__ == "PostgresError" and cls.__module__.startswith("asyncpg")
        for cls in type(exc).__mro__
    )
