"""Where a unit of work's transactions run: one connection from the engine's pool, taken at the
first BEGIN and given back when the unit of work ends (`Transactions`).

Each unit of work has its own transaction: there is no group commit. At the load a bot sees
(Discord lets it answer about 50 messages a second) writers committing together saved nothing
(`benchmarks/bench_load.py`, figures in docs/benchmarks.md), so the one SQLite writer lock is
shared the plain way: on SQLite a write transaction begins `BEGIN IMMEDIATE`, and a SQLite connection that runs inline (`sqlite_inline.py`) runs a
transaction from BEGIN to COMMIT without giving the event loop away, so the writers of one
process never wait for each other; those of other processes wait on SQLite's busy timeout.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncEngine

from fappo_bot.storage.driver import Link, Tap, link_for
from fappo_bot.storage.sqla import checkout, give_back


class Transactions:
    """A unit of work's transactions, one after another, on one pooled connection."""

    def __init__(self, engine: AsyncEngine, tap: Tap | None, write: bool) -> None:
        self.dialect: Dialect = engine.dialect
        self._engine, self._tap, self._write = engine, tap, write
        self._pooled: Any = None
        self._link: Link | None = None
        self._begun = False

    async def begin(self) -> Link:
        try:
            link = await self._checkout()
            await link.begin(self._write)
        except BaseException:  # failed or cancelled while waiting for a lock: in doubt
            await self.close(broken=True)
            raise
        self._begun = True
        return link

    async def commit(self) -> None:
        assert self._link is not None
        await self._link.commit()
        self._begun = False

    async def rollback(self) -> None:
        """Undo what is not committed (nothing when nothing is)."""
        link = self._link
        if self._begun and link is not None:
            self._begun = False
            await link.rollback()

    async def close(self, broken: bool = False) -> None:
        """The unit of work is over: give the connection back (`broken`: in an unknown state, so
        the pool drops it)."""
        broken = broken or (self._link is not None and self._link.lost())
        pooled, self._pooled, self._link, self._begun = self._pooled, None, None, False
        if pooled is not None:
            await give_back(pooled, broken)

    async def _checkout(self) -> Link:
        if self._link is None:
            pooled, driver = await checkout(self._engine)
            try:
                self._link = link_for(driver, self._engine.dialect, self._tap)
            except BaseException:
                await give_back(pooled)
                raise
            self._pooled = pooled
        return self._link
