"""The catch-up's order and cost: the rooms are read first and their answers wait until every
room is read; a DM channel whose id the bot stored is read directly (no open); a member's DM
channel the bot never saw is opened last, and secret orders sent in it during the outage
still count (docs/discord.md, "What is caught up after the bot was away": the ruling)."""

from __future__ import annotations

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.table import KAEL_ORDERS, set_up_game
from tests.bot.test_catchup import caught_up, open_games
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


def opens(fake, since: int = 0) -> list[int]:
    return [i for i, r in enumerate(fake.requests) if i >= since and r.method == "POST"
            and r.path == "/users/@me/channels"]


async def test_answers_wait_until_every_room_is_read(fake, tmp_path, monkeypatch) -> None:
    rooms = [fake.add_channel(f"room-{i}")["id"] for i in range(3)]
    running = RunningBot(fake, tmp_path / "data")
    await open_games(running, rooms, rooms)
    posts = [await fake.post(room, fake.alice, "3 AP defend", live=False) for room in rooms]
    monkeypatch.setattr("fappo_bot.discord.catchup.CONCURRENCY", 1)
    await running.start()
    try:
        await caught_up(running)
        for post in posts:
            assert "3/3 AP" in replies_to(fake, post)[0]["content"]
        reads = [i for i, r in enumerate(fake.requests) if r.method == "GET"
                 and r.path in {f"/channels/{room}/messages" for room in rooms}]
        answers = [i for i, r in enumerate(fake.requests) if r.method == "POST"
                   and r.path in {f"/channels/{room}/messages" for room in rooms}]
        dm_opens = opens(fake)
        assert len(reads) == 3 and answers and dm_opens
        assert max(reads) < min(answers) and max(reads) < min(dm_opens)
        assert running.bot.get_cog("TurnPosts").catch_up.rooms_current_at is not None
    finally:
        await running.stop()


async def test_a_stored_dm_channel_is_read_without_an_open(fake, tmp_path) -> None:
    running = RunningBot(fake, tmp_path / "data")
    await running.start()
    try:
        await set_up_game(fake)
    finally:
        await running.stop()
    await running.start()  # this start opens the members' DMs and stores their channel ids
    try:
        await caught_up(running)
        assert opens(fake)
    finally:
        await running.stop()
    channel = fake.dm_channel(fake.alice)["id"]
    dm = await fake.post(channel, fake.alice, KAEL_ORDERS, live=False)
    before = len(fake.requests)

    await running.start()
    try:
        await caught_up(running)
        [reply] = await fake.wait_for(lambda: replies_to(fake, dm))
        assert "3/3 AP" in reply["content"]
        assert opens(fake, before) == []
        assert [r for r in fake.requests[before:] if r.method == "GET"
                and r.path == f"/channels/{channel}/messages"]
    finally:
        await running.stop()


async def test_secret_orders_in_a_dm_channel_opened_during_the_outage_count(fake,
                                                                           tmp_path) -> None:
    """Alice never wrote to the bot: her DM channel is unknown to it. She opens it while the
    bot is down and sends her orders there: the catch-up opens it (after the rooms) and they
    count."""
    running = RunningBot(fake, tmp_path / "data")
    await running.start()
    try:
        await set_up_game(fake)  # after the start's catch-up: no DM channel was opened
        assert opens(fake) == []
    finally:
        await running.stop()
    room = fake.room["id"]
    in_room = await fake.post(room, fake.alice, "brb", live=False)
    dm = await fake.post(fake.dm_channel(fake.alice)["id"], fake.alice, KAEL_ORDERS, live=False)
    before = len(fake.requests)

    await running.start()
    try:
        await caught_up(running)
        [reply] = await fake.wait_for(lambda: replies_to(fake, dm))
        assert "3/3 AP" in reply["content"]
        game = (await running.services.games.find(room)).id
        assert (await running.services.turns.status(game)).posted == ("Kael",)
        room_read = [i for i, r in enumerate(fake.requests) if i >= before and r.method == "GET"
                     and r.path == f"/channels/{room}/messages"]
        assert room_read and room_read[-1] < min(opens(fake, before))
        assert replies_to(fake, in_room) == []
    finally:
        await running.stop()
