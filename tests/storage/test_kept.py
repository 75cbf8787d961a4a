"""Kept values (the hash of the published slash commands): read back as written, replaced by
the next write, on SQLite and PostgreSQL alike (every process of the bot shares them)."""

from __future__ import annotations

from fappo_bot.storage.kept import KeptValues


async def test_a_kept_value_is_read_back_and_replaced(engine) -> None:
    kept = KeptValues(engine)  # type: ignore[arg-type]
    assert await kept.get("commands:1:global") is None
    await kept.put("commands:1:global", "a" * 64)
    await kept.put("commands:1:42", "b" * 64)
    assert await kept.get("commands:1:global") == "a" * 64
    await kept.put("commands:1:global", "c" * 64)
    assert await kept.get("commands:1:global") == "c" * 64
    assert await kept.get("commands:1:42") == "b" * 64
