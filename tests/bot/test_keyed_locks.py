"""`posts.KeyedLocks`: one handler at a time per message, the others in order; a waiter
cancelled while it waits (or just as its turn came) holds nobody up; nothing is kept for a key
that nobody holds."""

from __future__ import annotations

import asyncio

import pytest

from fappo_bot.discord.posts import KeyedLocks


async def turns(count: int = 5) -> None:
    for _ in range(count):
        await asyncio.sleep(0)  # a turn of the loop, no time waited


@pytest.mark.unit
async def test_holders_of_a_key_take_turns_in_order_and_other_keys_do_not_wait() -> None:
    locks = KeyedLocks()
    seen: list[str] = []
    gate = asyncio.Event()

    async def hold(key: str, name: str, wait: bool = False) -> None:
        async with locks.hold(key):
            seen.append(f"{name} in")
            if wait:
                await gate.wait()
            seen.append(f"{name} out")

    first = asyncio.create_task(hold("a", "first", wait=True))
    await turns()
    later = [asyncio.create_task(hold("a", name)) for name in ("second", "third")]
    other = asyncio.create_task(hold("b", "other"))
    await turns()
    assert seen == ["first in", "other in", "other out"]
    gate.set()
    await asyncio.gather(first, *later, other)
    assert seen[3:] == ["first out", "second in", "second out", "third in", "third out"]
    assert locks._waiting == {}


@pytest.mark.unit
async def test_a_waiter_cancelled_before_or_at_its_turn_holds_nobody_up() -> None:
    locks = KeyedLocks()
    seen: list[str] = []

    async def hold(name: str) -> None:
        async with locks.hold("a"):
            seen.append(name)

    await locks.acquire("a")  # held by this test
    waiting = asyncio.create_task(hold("cancelled while waiting"))
    handed = asyncio.create_task(hold("cancelled at its turn"))
    last = asyncio.create_task(hold("last"))
    await turns()
    waiting.cancel()
    await turns()
    locks.release("a")  # the turn goes to `handed`, cancelled before it runs
    handed.cancel()
    await asyncio.gather(waiting, handed, last, return_exceptions=True)
    assert seen == ["last"]
    assert locks._waiting == {}
