"""Kept values: small text values an adapter keeps across starts (key -> value), in the shared
database, so every process of the bot sees them. Each call is its own short transaction on the
engine; nothing of the games is read or written here."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from fappo_bot.storage.engine import writer
from fappo_bot.storage.queries import table, upsert
from fappo_bot.storage.tables import KeptValueRow


class KeptValues:
    """`get` and `put` over the `kept_values` table."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def get(self, key: str) -> str | None:
        """The value kept under `key`, or None."""
        async with self._engine.connect() as connection:
            found = await connection.scalar(
                select(KeptValueRow.value).where(KeptValueRow.key == key))
        return found

    async def put(self, key: str, value: str) -> None:
        """Keep `value` under `key` (the last writer wins: processes that race write the same
        value)."""
        row = {"key": key, "value": value, "updated_at": datetime.now(UTC)}
        async with writer(self._engine).begin() as connection:
            await connection.execute(
                upsert(table(KeptValueRow), "key", connection.dialect.name), row)
