"""No post is lost while the bot is down: a restart, and a reconnect, read the rooms back and
ingest what was missed, exactly once."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.table import KAEL_ORDERS, set_up_game
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


async def caught_up(running: RunningBot, rounds: int = 1) -> None:
    catch_up = running.bot.get_cog("TurnPosts").catch_up
    while catch_up.rounds < rounds:
        catch_up.finished.clear()
        await asyncio.wait_for(catch_up.finished.wait(), 15)


async def test_posts_and_edits_made_while_the_bot_was_down(fake, tmp_path) -> None:
    running = RunningBot(fake, tmp_path / "data")
    await running.start()
    room = fake.room["id"]
    try:
        await set_up_game(fake)
        first = await fake.post(room, fake.alice, KAEL_ORDERS)
        [reply] = await fake.wait_for(lambda: replies_to(fake, first))
        doomed = await fake.post(room, fake.alice, "1 AP attack Skarg with Broadsword\n"
                                                   "2 AP defend")
        [doomed_reply] = await fake.wait_for(lambda: replies_to(fake, doomed))
        await caught_up(running)
    finally:
        await running.stop()

    # while the bot is down: the post is edited (a problem now), and a new post is made
    await fake.edit(room, first["id"], "2 AP attack Nobody with Broadsword\n1 AP defend",
                    live=False)
    second = await fake.post(room, fake.alice, "3 AP defend", live=False)
    chat = await fake.post(room, fake.alice, "brb, dinner", live=False)
    await fake.delete(room, doomed["id"], live=False)

    await running.start()
    try:
        await caught_up(running)
        [new_reply] = replies_to(fake, second)
        assert "3/3 AP" in new_reply["content"]
        assert "Nobody" in fake.messages[room][reply["id"]]["content"]
        assert replies_to(fake, chat) == []
        # the deleted post's reply is gone, and its orders with it
        assert doomed_reply["id"] not in fake.messages[room]
        game_id = (await running.services.games.find(room)).id
        log = await running.services.games.audit_log(game_id, fake.gm["id"])
        assert [e.actor for e in log if e.action == "post.delete"] == ["(unknown)"]
    finally:
        await running.stop()

    # a second restart finds nothing new: nothing is sent or edited twice
    before = len(fake.requests)
    await running.start()
    try:
        await caught_up(running)
        changes = [r for r in fake.requests[before:] if r.method in ("POST", "PATCH")
                   and "/channels/" in r.path]
        assert changes == []
    finally:
        await running.stop()


async def test_posts_made_while_the_connection_was_lost(running, fake) -> None:
    """A RESUME replays what the session missed (Discord's events are kept for it): answered
    as live, with no read of the history."""
    await set_up_game(fake)
    room = fake.room["id"]
    await caught_up(running)
    await fake.drop_connections()
    missed = await fake.post(room, fake.alice, KAEL_ORDERS)  # heard by no session
    await fake.wait_for(lambda: fake.resumed >= 1, timeout=15)
    [reply] = await fake.wait_for(lambda: replies_to(fake, missed))
    assert "Kael" in reply["content"]
    assert fake.sent("GET", "/messages") == []
