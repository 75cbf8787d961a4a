"""How the outbox retries a failing delivery (`outbox.OutboxService.mark_failed`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

#: past this many failures the wait is the cap anyway (keeps 2**n small)
_DOUBLINGS = 32


@dataclass(frozen=True)
class DeliveryPolicy:
    """When a delivery that failed for a passing reason (a rate limit, Discord down) is tried
    again: never given up, since the message reports a change already made. The first retry
    after `first_wait`, each next one after twice the last, never more than `longest_wait`
    (the cap); `jitter` of each wait is drawn at random (0.5: between half of it and all of
    it), so that many messages held back by one outage do not all come back at once; and never
    sooner than the `retry_after` the adapter was told (Discord's on a 429). `draw` gives the
    draws in [0, 1) (a test hands its own)."""

    first_wait: timedelta = timedelta(seconds=5)
    longest_wait: timedelta = timedelta(minutes=30)
    jitter: float = 0.5
    draw: Callable[[], float] = field(default=random.random, compare=False)

    def __post_init__(self) -> None:
        if not 0 <= self.jitter <= 1:
            raise ValueError("the delivery jitter is a fraction between 0 and 1")
        if self.first_wait <= timedelta(0) or self.longest_wait < self.first_wait:
            raise ValueError("the delivery waits must be positive, the longest one the largest")

    def wait(self, attempts: int, retry_after: timedelta | None = None) -> timedelta:
        """How long to wait after `attempts` failed attempts."""
        doubled = self.first_wait * (1 << min(max(attempts, 1) - 1, _DOUBLINGS))
        wait = min(doubled, self.longest_wait) * (1 - self.jitter * self.draw())
        return max(wait, retry_after or timedelta(0))

    def retry_at(self, attempts: int, now: datetime,
                 retry_after: timedelta | None = None) -> datetime:
        """When to try again after `attempts` failed attempts."""
        return now + self.wait(attempts, retry_after)
