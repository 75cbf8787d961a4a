"""Injected time, ids and randomness (STYLE practice 8): the service never reads a global clock.

The composition root passes `SystemClock()`, `uuid_ids` and `token_salt`; tests pass fixed ones.
"""

from __future__ import annotations

import itertools
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)


IdFactory = Callable[[], str]
"""Makes a new unique record id."""

SaltFactory = Callable[[], str]
"""Makes the random salt of an NPC commitment (hex)."""


_made = itertools.count()


def uuid_ids() -> str:
    """32 hex digits that sort in the order this process made them (the time in nanoseconds,
    then a counter), random beyond: records stamped with the same time (the outbox's messages of
    one moment, in two transactions) keep the order they were made in, since their id is the
    tie-break of that order; the random part keeps ids of two processes apart."""
    return f"{time.time_ns():016x}{next(_made) & 0xFFFFFFFF:08x}{secrets.token_hex(4)}"


def token_salt() -> str:
    """16 random bytes as hex, from the operating system's CSPRNG."""
    return secrets.token_hex(16)
