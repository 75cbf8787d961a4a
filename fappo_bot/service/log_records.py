"""The service's records of what was said and done: the outbox's messages, the audit log, the
tournament ledger and the names users go by. Frozen pydantic values, as in `records.py` (which
makes them importable from there too); they name games, users and turns by id only, so they need
nothing of the game's own records.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class DestinationKind(StrEnum):
    CHANNEL = "channel"
    DM = "dm"


class OutboxMessage(BaseModel):
    """A message to deliver, committed with the state change it reports."""

    model_config = _FROZEN

    id: str
    game_id: str | None = None
    dest_kind: DestinationKind = DestinationKind.CHANNEL
    #: a channel/thread key, or a user id for a DM
    dest_key: str
    #: what the message is: results, revealed, sealed, reminder, time_called, ... (the adapters'
    #: renderers read `payload` by it); "text" for a message that is its text and nothing else
    kind: str
    #: the text of this part as the service words it (what every reader shows unless its
    #: renderer of `kind` says more: the inbox, the turn status, a row written before payloads)
    content: str
    #: the data of the message (JSON: the notice's fields, `notices.Notice`), the same in every
    #: part of it; None: a message that is its text alone (every row written before payloads)
    payload: dict[str, Any] | None = None
    #: which part of its message this is, of how many (a text longer than a Discord message is
    #: queued as several): an adapter adds what it says of the whole message after the last
    part: int = 1
    parts: int = 1
    #: unique: the same logical message is never queued twice
    dedupe_key: str
    created_at: datetime
    sent_at: datetime | None = None
    #: failed delivery attempts, and the reason of the last one
    attempts: int = 0
    last_error: str | None = None
    #: after a failure: not before this moment (backoff); None: at once
    next_attempt_at: datetime | None = None
    #: delivery was given up (too many attempts, or a permanent refusal): never tried again;
    #: a DM given up stays readable in the user's inbox
    gave_up_at: datetime | None = None
    #: the adapter's keys of the messages it posted (a split message is several)
    delivered_keys: tuple[str, ...] = ()


class AuditEntry(BaseModel):
    model_config = _FROZEN

    id: str
    game_id: str | None = None
    actor: str
    action: str
    detail: dict[str, Any] = Field(default_factory=dict)
    at: datetime


class LedgerEntry(BaseModel):
    """F28 tournament ledger: points a player earned in a game (they accumulate forever)."""

    model_config = _FROZEN

    id: str
    player: str
    game_id: str
    points: int
    reason: str = ""
    at: datetime


class UserName(BaseModel):
    """How the service's sentences name a user: the display name an adapter last saw."""

    model_config = _FROZEN

    user_id: str
    display_name: str
    updated_at: datetime
