"""Outages cost nobody a turn: the bot's heartbeat, kept in the database, and on start the
outage it tells.

While connected, the call-time loop beats (`beat`): the moment of the bot's clock (injected) is
kept under `HEARTBEAT_KEY` at most every `BEAT_SECONDS`, shared by every process of the bot. On
start, before the first catch-up and the first round of call time (`started`, once per
process), the gap since the last beat is the outage when it is longer than `OUTAGE_AFTER`: the
service moves every deadline that fell in it by its length (in the games whose
`outage_extends` is on) and tells their rooms (`CallTimeService.outage`). Then the catch-up
reads what was posted meanwhile, each post at the time Discord stamped it, and call time
waits for it (`catchup.py`).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Protocol

from fappo_bot.service.clock import Clock
from fappo_bot.service.facade import Services
from fappo_bot.words import plural

log = logging.getLogger(__name__)

#: the kept value that holds the last heartbeat (an ISO 8601 moment, UTC)
HEARTBEAT_KEY = "heartbeat"
#: how often the heartbeat is written while the bot runs
BEAT_SECONDS = 30.0
#: a gap since the last heartbeat longer than this is an outage (a restart is quicker)
OUTAGE_AFTER = timedelta(seconds=3 * BEAT_SECONDS)


class Store(Protocol):
    """Where the heartbeat is kept (`fappo_bot.storage.kept.KeptValues`)."""

    async def get(self, key: str) -> str | None: ...
    async def put(self, key: str, value: str) -> None: ...


class Outages:
    """The heartbeat and the outage it tells at start (see the module's docstring)."""

    def __init__(self, services: Services, clock: Clock, store: Store | None = None) -> None:
        self.services = services
        self.clock = clock
        #: None: no heartbeat is kept, and no outage is ever seen
        self.store = store
        self._lock = asyncio.Lock()
        self._started = False
        self._last: datetime | None = None

    async def started(self) -> int:
        """Once per process, before anything reads or calls time: the outage since the last
        heartbeat, if any, handed to the service; then a first beat. Returns how many
        deadlines were moved (0 after the first call). A failure is logged, never raised: the
        catch-up and call time go on (a deadline then keeps its time)."""
        async with self._lock:
            if self._started or self.store is None:
                return 0
            self._started = True
            moved = 0
            try:
                now = self.clock.now()
                last = _moment(await self.store.get(HEARTBEAT_KEY))
                if last is not None and now - last > OUTAGE_AFTER:
                    moved = len(await self.services.calltime.outage(last, now))
                    log.info("the bot was down from %s to %s; %s moved", last, now,
                             plural(moved, "deadline"))
                await self._write(now)
            except Exception:
                log.exception("the outage since the last heartbeat could not be handled")
            return moved

    async def beat(self) -> None:
        """Keep the heartbeat (at most every `BEAT_SECONDS` of the bot's clock)."""
        await self.started()
        if self.store is None or not self._started:
            return
        now = self.clock.now()
        if self._last is None or (now - self._last).total_seconds() >= BEAT_SECONDS:
            await self._write(now)

    async def _write(self, now: datetime) -> None:
        assert self.store is not None
        await self.store.put(HEARTBEAT_KEY, now.isoformat())
        self._last = now


def _moment(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:  # not ours to fail on: no outage is seen
        return None
