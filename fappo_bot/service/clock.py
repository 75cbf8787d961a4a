"""Injected time, ids and randomness (STYLE practice 8): the service never reads a global clock.

The composition root passes `SystemClock()`, `uuid_ids` and `token_salt`; tests pass fixed ones.
"""

from __future__ import annotations

import secrets
import uuid
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


def uuid_ids() -> str:
    """A random UUID4 as 32 hex digits."""
    return uuid.uuid4().hex


def token_salt() -> str:
    """16 random bytes as hex, from the operating system's CSPRNG."""
    return secrets.token_hex(16)
