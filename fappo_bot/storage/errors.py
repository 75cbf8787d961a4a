"""Database errors turned into the service's errors, with a sentence a user can act on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from fappo_bot.service.errors import Conflict, InvalidInput, StaleVersion

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
NUL_MESSAGE = (
    "The text contains a NUL character (U+0000), which cannot be stored; remove it and send it "
    "again."
)


def conflict_from(error: IntegrityError) -> Conflict:
    """The Conflict a constraint violation means (unique keys name their table in the message)."""
    text = str(error.orig)
    for table, message in _UNIQUE_MESSAGES.items():
        if f"{table}." in text or f"uq_{table}_" in text or f"pk_{table}" in text:
            return Conflict(message)
    if "foreign key" in text.casefold():
        return Conflict("That refers to something that does not exist (any more).")
    return Conflict("That clashes with something already stored; please try again.")


@asynccontextmanager
async def database_errors() -> AsyncIterator[None]:
    """Raise the service's Conflict / StaleVersion for constraint and version failures, a busy
    SQLite database and PostgreSQL deadlocks (the service runs a StaleVersion use case again)."""
    try:
        yield
    except IntegrityError as exc:
        raise conflict_from(exc) from exc
    except StaleDataError as exc:
        raise StaleVersion(STALE_MESSAGE) from exc
    except DBAPIError as exc:
        text = str(exc.orig).casefold()
        if "database is locked" in text:  # SQLite: the write lock was not free within the timeout
            raise Conflict(BUSY_MESSAGE) from exc
        if "deadlock detected" in text or "could not serialize" in text:  # PostgreSQL: retry
            raise StaleVersion(STALE_MESSAGE) from exc
        if "0x00" in text:  # PostgreSQL text cannot hold U+0000
            raise InvalidInput(NUL_MESSAGE) from exc
        raise
