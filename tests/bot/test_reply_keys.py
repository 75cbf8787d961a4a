"""The reply keys of the posts answered are written together (`replies.ReplyKeyWriter`): one
transaction for every post answered within the writer's delay instead of a second transaction
per post; the bot's clean stop writes what waits, so an edit after a restart edits the same
reply."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from fappo_bot.discord.replies import ReplyKeyWriter
from tests.bot.table import KAEL_ORDERS, set_up_game
from tests.bot.test_posts import replies_to


class Store:
    def __init__(self, fail: int = 0) -> None:
        self.calls: list[list[tuple[str, tuple[str, ...]]]] = []
        self.fail = fail

    async def __call__(self, items: Sequence[tuple[str, Sequence[str]]]) -> int:
        if self.fail:
            self.fail -= 1
            raise ConnectionError("the database went away")
        self.calls.append([(post_id, tuple(keys)) for post_id, keys in items])
        return len(items)


async def turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)  # a turn of the loop, no time waited


@pytest.mark.unit
async def test_the_keys_put_before_a_write_share_it_and_the_last_put_wins() -> None:
    store = Store()
    writer = ReplyKeyWriter(store, delay=0)
    writer.put("p1", ["1"])
    writer.put("p2", ["2", "3"])
    writer.put("p1", ["4"])
    assert writer.pending("p1") == ("4",) and writer.pending("p9") is None
    await turns(5)
    assert store.calls == [[("p2", ("2", "3")), ("p1", ("4",))]]
    assert writer.pending("p1") is None
    writer.put("p3", [])
    await turns(5)
    assert store.calls[1:] == [[("p3", ())]]


@pytest.mark.unit
async def test_a_failed_write_is_tried_again_without_losing_a_newer_put() -> None:
    store = Store(fail=1)
    writer = ReplyKeyWriter(store, delay=0)
    writer.put("p1", ["1"])
    writer.put("p2", ["2"])
    await turns(3)
    assert store.calls == [] and writer.pending("p1") == ("1",)
    writer.put("p1", ["5"])  # newer than the keys of the failed write
    await turns(5)
    [written] = store.calls
    assert dict(written) == {"p1": ("5",), "p2": ("2",)}


@pytest.mark.unit
async def test_close_writes_what_waits_at_once() -> None:
    store = Store()
    writer = ReplyKeyWriter(store, delay=3600)
    writer.put("p1", ["1"])
    await writer.close()
    assert store.calls == [[("p1", ("1",))]]
    await writer.close()  # nothing waits: no empty write
    assert len(store.calls) == 1


@pytest.mark.e2e
async def test_posts_answered_together_store_their_keys_in_one_write(running, fake) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    cog = running.bot.get_cog("TurnPosts")
    writes: list[int] = []
    store = cog.keys_writer._store

    async def counted(items: Sequence[tuple[str, Sequence[str]]]) -> object:
        writes.append(len(items))
        return await store(items)

    cog.keys_writer = ReplyKeyWriter(counted, delay=3600)  # written only at the stop
    first = await fake.post(room, fake.alice, KAEL_ORDERS)
    [reply] = await fake.wait_for(lambda: replies_to(fake, first))
    # an edit before the keys are written finds the reply all the same: edited in place
    await fake.edit(room, first["id"], "3 AP defend")
    await fake.wait_for(lambda: fake.sent("PATCH", f"/messages/{reply['id']}"))
    assert len(replies_to(fake, first)) == 1 and writes == []

    await running.stop()
    assert writes == [1]  # one post's keys, put twice, written once
    await running.start()
    # after the restart the stored keys say which reply to edit
    await fake.edit(room, first["id"], KAEL_ORDERS)
    await fake.wait_for(lambda: len(fake.sent("PATCH", f"/messages/{reply['id']}")) == 2)
    assert len(replies_to(fake, first)) == 1
    assert "Kael" in fake.messages[room][reply["id"]]["content"]
