"""How the outbox retries a failing delivery (`outbox.OutboxService.mark_failed`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class DeliveryPolicy:
    """How often and how long a failing delivery is tried: the first retry after `first_wait`,
    each next one after twice the last (never more than `longest_wait`), and no more after
    `max_attempts` attempts in all."""

    max_attempts: int = 8
    first_wait: timedelta = timedelta(seconds=5)
    longest_wait: timedelta = timedelta(minutes=30)

    def retry_at(self, attempts: int, now: datetime) -> datetime | None:
        """When to try again after `attempts` failed attempts; None: give up."""
        if attempts >= self.max_attempts:
            return None
        return now + min(self.first_wait * (1 << (attempts - 1)), self.longest_wait)
